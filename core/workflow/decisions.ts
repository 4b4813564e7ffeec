// wf.decide and its question builders: a decision asks a model for a probability per option,
// level or yes, and the engine checks the distribution before turning it into answers.

import { checkOptions } from "./callOptions.ts";
import { suggestName } from "./unknownOptions.ts";
import type { Attempt } from "./attempt.ts";
import { durationToMilliseconds } from "./durations.ts";
import { DeadlineExceededError, DecisionError, messageOf } from "./errors.ts";
import type { CallCapture, DecisionRequest, QuestionDistribution } from "./host.ts";
import { appendRunLine, asJson } from "./runLog.ts";
import { CancelReason, scopeOr } from "./scope.ts";
import type { ChoiceQuestion, Decision, DecisionSpec, JsonValue, Question, ScoreQuestion, YesNoQuestion } from "./types.ts";

/** A question with one answer among named options; a description may be null. */
export function choice<const Options extends Record<string, string | null>>(instructions: string, options: Options): ChoiceQuestion<Options> {
  if (Object.keys(options ?? {}).length < 2) throw new TypeError("choice needs at least two options");
  return { kind: "choice", instructions, options };
}

/** A question answered on a scale of levels, lowest first. */
export function score<const Levels extends readonly string[]>(instructions: string, levels: Levels): ScoreQuestion<Levels> {
  if (!Array.isArray(levels) || levels.length < 2) throw new TypeError("score needs at least two levels, lowest first");
  return { kind: "score", instructions, levels: [...levels] as unknown as Levels };
}

/** A question answered yes or no. */
export function yesNo(instructions: string, criteria?: string): YesNoQuestion {
  return { kind: "yes-no", instructions, ...(criteria !== undefined ? { criteria } : {}) };
}

/** The one decision model alias a run installs; a test's scripted provider answers under it. */
const DECISION_MODEL = "jev";

/** How far a distribution's sum may stray from 1, as providers round. */
const SUM_TOLERANCE = 0.02;

const isProbability = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1;

/** Why a distribution can't answer `question`, or undefined when it can. */
export function whyDistributionRefused(question: Question, given: QuestionDistribution | undefined): string | undefined {
  if (given === undefined) return "no answer";
  if (question.kind === "yes-no") {
    return isProbability(given) ? undefined : `no probability of yes: ${JSON.stringify(given)}`;
  }
  const expected = question.kind === "choice" ? Object.keys(question.options) : question.levels;
  let values: unknown[];
  if (question.kind === "choice") {
    if (typeof given !== "object" || given === null || Array.isArray(given)) return `a probability per option, not ${JSON.stringify(given)}`;
    const unknown = Object.keys(given).filter((option) => !expected.includes(option));
    if (unknown.length) {
      const nearest = suggestName(unknown[0]!, expected);
      return `"${unknown[0]}" is not one of its options${nearest ? `; did you mean "${nearest}"?` : ` (${expected.join(", ")})`}`;
    }
    values = expected.map((option) => (given as Record<string, number>)[option] ?? 0);
  } else {
    if (!Array.isArray(given)) return `a probability per level, not ${JSON.stringify(given)}`;
    if (given.length !== expected.length) return `${given.length} probabilities for ${expected.length} levels`;
    values = given;
  }
  const bad = values.find((value) => !isProbability(value));
  if (bad !== undefined) return `${JSON.stringify(bad)} is not a probability`;
  const sum = (values as number[]).reduce((total, value) => total + value, 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE) return `its probabilities add up to ${+sum.toFixed(4)}, not 1`;
  return undefined;
}

/** What the workflow gets for one question: the most likely option or level (the first on a tie), or yes at 0.5 and above. */
export function toAnswer(question: Question, given: QuestionDistribution): unknown {
  if (question.kind === "yes-no") return { yes: (given as number) >= 0.5, probability: given };
  if (question.kind === "choice") {
    const options = Object.keys(question.options);
    const probabilities = Object.fromEntries(options.map((option) => [option, (given as Record<string, number>)[option] ?? 0]));
    let best = options[0]!;
    for (const option of options) if (probabilities[option]! > probabilities[best]!) best = option;
    return { choice: best, probabilities };
  }
  const probabilities = given as number[];
  let level = 0;
  probabilities.forEach((probability, index) => {
    if (probability > probabilities[level]!) level = index;
  });
  const expected = probabilities.reduce((total, probability, index) => total + probability * index, 0);
  return { level, expected, probabilities: [...probabilities] };
}

export async function decide<Questions extends Record<string, Question>>(
  attempt: Attempt,
  spec: DecisionSpec<Questions>,
  onRequest: (request: DecisionRequest) => void,
  /** Where the workflow called it, when the host captures calls. */
  askedAt?: CallCapture,
): Promise<Decision<Questions>> {
  checkOptions("wf.decide", "wf.decide", spec);
  await attempt.unlessAbandoned();
  const questions = spec.questions ?? ({} as Questions);
  if (Object.keys(questions).length === 0) throw new DecisionError(`decision "${spec.key}" asks no questions`);
  for (const [id, question] of Object.entries(questions)) {
    if (!question || !["choice", "score", "yes-no"].includes(question.kind)) {
      throw new DecisionError(`decision "${spec.key}": question "${id}" is not built by choice, score or yesNo`);
    }
  }
  const model = spec.model ?? DECISION_MODEL;
  if (model !== DECISION_MODEL) {
    throw new DecisionError(`decision "${spec.key}": no decision model "${model}"; known: "${DECISION_MODEL}"`);
  }
  const request: DecisionRequest = {
    key: spec.key,
    model,
    questions,
    ...(spec.state !== undefined ? { state: spec.state } : {}),
    ...(askedAt ? { askedAt } : {}),
  };
  onRequest(request);
  const deadlineMs = spec.deadline === undefined ? undefined : durationToMilliseconds(spec.deadline, "decide's deadline");
  const scope = scopeOr(attempt.root).child(deadlineMs === undefined ? {} : { deadlineAt: attempt.clocks.deadline.now() + deadlineMs });
  try {
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => {
        const reason = scope.signal.reason;
        if (reason instanceof CancelReason && reason.kind === "timed-out") {
          reject(new DeadlineExceededError(`decision "${spec.key}": the deadline passed`, attempt.root.cancelReason?.kind === "timed-out"));
        } else reject(new DecisionError(`decision "${spec.key}" was cancelled: ${messageOf(reason)}`));
      };
      if (scope.signal.aborted) onAbort();
      else scope.signal.addEventListener("abort", onAbort, { once: true });
    });
    const result = await attempt.activity.whileBusy(() => Promise.race([attempt.settings.decisions.decide(request, scope.signal), aborted]));
    await attempt.unlessAbandoned();
    // What the provider said, checked or not: `turnlens record` writes it as the test's decisions script.
    const answered = result instanceof Error ? undefined : (asJson(result) as Record<string, JsonValue> | undefined);
    appendRunLine(attempt, {
      kind: "decision",
      key: spec.key,
      ...(result instanceof Error ? { error: result.message } : answered !== undefined ? { answers: answered } : {}),
      at: attempt.nowIso(),
    });
    if (result instanceof Error) {
      throw new DecisionError(`decision "${spec.key}" failed: ${result.message}`, { cause: result });
    }
    const answers: Record<string, unknown> = {};
    for (const [id, question] of Object.entries(questions)) {
      const why = whyDistributionRefused(question, result[id]);
      if (why) throw new DecisionError(`decision "${spec.key}": the answer is refused: question ${id}: ${why}`);
      answers[id] = toAnswer(question, result[id]!);
    }
    return {
      answers: answers as Decision<Questions>["answers"],
      record: { key: spec.key, model, provider: attempt.settings.decisions.name },
    };
  } finally {
    scope.dispose();
  }
}
