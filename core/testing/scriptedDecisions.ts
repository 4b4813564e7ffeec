// The decision provider of a test: answers by question id, in shorthand (an option, a level, a
// yes) or as probabilities, checked as the engine checks a real provider's answer.

import type { Moment } from "../workflow/clock.ts";
import { whyDistributionRefused } from "../workflow/decisions.ts";
import { messageOf } from "../workflow/errors.ts";
import type { PendingSites } from "./callSite.ts";
import type { DecisionProvider, DecisionRequest, QuestionDistribution } from "../workflow/host.ts";
import type { ChoiceQuestion, JsonValue, Question, ScoreQuestion, YesNoQuestion } from "../workflow/types.ts";
import { describe } from "./entries.ts";
import type { HostSignals } from "./scriptedHost.ts";
import { isObjectValue } from "./notKnown.ts";
import { findSlot, globToRegExp, isEntryValue } from "./scripts.ts";
import { decisionReadings } from "./decisionReadings.ts";
import type { DecisionTrace, ProblemTrace } from "./trace.ts";
import { nearestOr, quoted } from "../workflow/unknownOptions.ts";

/** The questions of a decision, by id, as `wf.decide` is given them. */
type Questions = Record<string, Question>;

/** A score's level indexes, `0 | 1 | 2` where its levels are known (`score(…, ["low", "mid", "high"] as const)`), else any number. */
type LevelIndex<Levels> = Levels extends readonly string[]
  ? number extends Levels["length"]
    ? number
    : { [I in keyof Levels]: I extends `${infer N extends number}` ? N : never }[number]
  : number;

/** A score's probabilities, one per level where its levels are known. */
type LevelProbabilities<Levels> = Levels extends readonly string[] ? (number extends Levels["length"] ? number[] : { -readonly [I in keyof Levels]: number }) : number[];

/** The shorthand a question of each kind takes (the page's Decisions): a choice's option or a probability per option, a score's level or a probability per level, a yes-no's answer or probability of yes. */
export type AnswerShorthand<Q extends Question> = Q extends ChoiceQuestion
  ? (keyof Q["options"] & string) | { [Option in keyof Q["options"] & string]: number }
  : Q extends ScoreQuestion
    ? LevelIndex<Q["levels"]> | LevelProbabilities<Q["levels"]>
    : Q extends YesNoQuestion
      ? boolean | number
      : never;

/**
 * Per question id: a choice's option or probabilities, a score's level or probabilities, a yes-no's
 * answer or probability. Given the questions (`DecisionAnswers<typeof QUESTIONS>`, or through
 * `answersTo`), each id takes only its kind's shorthand and no other id is allowed.
 */
export type DecisionAnswers<Asked extends Questions = Questions> = string extends keyof Asked
  ? Record<string, string | number | boolean | number[] | Record<string, number>>
  : { [Id in keyof Asked]?: AnswerShorthand<Asked[Id]> };

/** What a decision is asked, as a script function gets it. */
export interface DecisionCall<Asked extends Questions = Questions> {
  key: string;
  questions: Asked;
  state?: JsonValue;
}

/** A decision's script: its answers, an Error for `decide` to reject with, or a function of the call that returns either. */
export type DecisionScript<Asked extends Questions = Questions> =
  | DecisionAnswers<Asked>
  | Error
  | ((request: DecisionCall<Asked>) => DecisionAnswers<Asked> | Error | Promise<DecisionAnswers<Asked> | Error>);

/**
 * A decision's script typed by the questions the workflow asks, as `answer(SCHEMA, value)` types a
 * turn's: `decisions: { "release-*": answersTo(QUESTIONS, { risk: 2 }) }`. tsc then refuses an
 * answer of the wrong kind (`risk: "high"` for a score) or an id the questions do not have, which
 * a bare object could only fail at run time. It returns the script as given.
 */
export function answersTo<const Asked extends Questions>(_questions: Asked, script: DecisionScript<Asked>): DecisionScript {
  return script as DecisionScript;
}

interface DecisionSlot {
  key: string;
  script: DecisionScript;
  glob?: RegExp;
}

/**
 * Every refusal of the `decisions` option: the map's, or each key's that is not answers by question
 * id, an Error or a function (by key). The run throws the first; the editor shows them all.
 */
export function decisionScriptRefusals(map: unknown): Array<{ message: string; key?: string }> {
  if (map === undefined) return [];
  const isObject = isObjectValue(map);
  if (isObject === undefined) return [];
  if (!isObject) return [{ message: `decisions must map a decision key to its answers, not ${describe(map)}` }];
  return Object.entries(map as Record<string, unknown>).flatMap(([key, script]) => {
    // An entry is an object too, but it answers an agent's turn, not a decision's questions.
    const entry = isEntryValue(script);
    const refused = entry === true || (entry === false && typeof script !== "function" && !(script instanceof Error) && isObjectValue(script) === false);
    return refused ? [{ message: `decisions[${JSON.stringify(key)}] must be answers by question id, an Error or a function, not ${describe(script)}`, key }] : [];
  });
}

export function readDecisionScripts(map: unknown): DecisionSlot[] {
  const [refused] = decisionScriptRefusals(map);
  if (refused) throw new TypeError(refused.message);
  if (map === undefined) return [];
  return Object.entries(map as Record<string, DecisionScript>).map(([key, script]) => ({ key, script, ...(key.includes("*") ? { glob: globToRegExp(key) } : {}) }));
}

const never = new Promise<never>(() => {});

/** A shorthand answer as a distribution, or why it is the wrong kind for the question. */
function toDistribution(question: Question, given: unknown): QuestionDistribution | string {
  const wrongKind = `is a ${question.kind} question; its script answers ${describe(given)}`;
  switch (question.kind) {
    case "choice":
      if (typeof given === "string") {
        return Object.fromEntries(
          Object.keys(question.options)
            .map((option) => [option, option === given ? 1 : 0])
            .concat(given in question.options ? [] : [[given, 1]]),
        );
      }
      return typeof given === "object" && given !== null && !Array.isArray(given) ? (given as Record<string, number>) : wrongKind;
    case "score":
      if (typeof given === "number" && Number.isInteger(given)) {
        if (given < 0 || given >= question.levels.length) return `has levels 0 to ${question.levels.length - 1}; its script answers ${given}`;
        return question.levels.map((_, index) => (index === given ? 1 : 0));
      }
      return Array.isArray(given) ? (given as number[]) : wrongKind;
    case "yes-no":
      if (typeof given === "boolean") return given ? 1 : 0;
      return typeof given === "number" ? given : wrongKind;
    default:
      return question satisfies never;
  }
}

export class ScriptedDecisions implements DecisionProvider {
  readonly name = "scripted";
  readonly calls: DecisionCall[] = [];
  readonly traces: DecisionTrace[] = [];
  /** When each of `traces` was asked and settled, by index (the timeline's). */
  readonly moments: Array<{ asked: Moment; ended?: Moment }> = [];
  /** Now, as the timeline orders things; testWorkflow sets it once the attempt starts. */
  moment: (() => Moment) | undefined;

  constructor(
    private readonly slots: DecisionSlot[],
    private readonly signals: HostSignals,
    /** Where the run's sites go, mapped when its trace is read (the host's). */
    private readonly sites?: PendingSites,
  ) {}

  async decide(request: DecisionRequest): Promise<Record<string, QuestionDistribution> | Error> {
    const moments: { asked: Moment; ended?: Moment } | undefined = this.moment ? { asked: this.moment() } : undefined;
    if (moments) this.moments.push(moments);
    const answered = await this.answer(request);
    if (moments && this.moment) moments.ended = this.moment();
    return answered;
  }

  private async answer(request: DecisionRequest): Promise<Record<string, QuestionDistribution> | Error> {
    this.signals.activity();
    const call: DecisionCall = { key: request.key, questions: request.questions, ...(request.state !== undefined ? { state: request.state } : {}) };
    this.calls.push(call);
    const trace: DecisionTrace = { key: request.key, answered: false, questions: request.questions };
    if (request.askedAt) this.sites?.add(trace, "askedAt", request.askedAt);
    this.traces.push(trace);
    const fail = (code: ProblemTrace["code"], why: string, extra: Partial<ProblemTrace> = {}): Promise<never> => {
      this.signals.fail({ code, message: `decision "${request.key}": ${why}`, decision: request.key, option: "decisions", ...extra });
      return never;
    };
    const found = findSlot(this.slots, request.key, "decision");
    if (!found.found) {
      return fail(found.code === "glob-conflict" ? "glob-conflict" : "decision-unscripted", found.why, found.patterns ? { patterns: found.patterns } : {});
    }
    trace.match = { option: "decisions", key: found.slot.key, ...(found.pattern ? { pattern: found.pattern } : {}), index: null, nudge: false };
    let answers: unknown = found.slot.script;
    if (typeof answers === "function") {
      try {
        answers = await (answers as (request: DecisionCall) => unknown)(call);
      } catch (error) {
        return fail("decision-script-threw", `its script threw: ${messageOf(error)}`, { key: found.slot.key });
      }
    }
    this.signals.activity();
    if (answers instanceof Error) {
      trace.error = answers.message;
      return answers;
    }
    if (typeof answers !== "object" || answers === null || Array.isArray(answers)) {
      return fail("decision-wrong-kind", `its script returned ${describe(answers)}, not answers by question id`, { key: found.slot.key });
    }
    const distributions: Record<string, QuestionDistribution> = {};
    for (const [id, given] of Object.entries(answers as Record<string, unknown>)) {
      const question = request.questions[id];
      if (!question) {
        const asked = Object.keys(request.questions);
        return fail("decision-unasked-question", `its script answers "${id}", which it did not ask; ${nearestOr(id, asked, `it asks ${quoted(asked)}`)}`, {
          key: found.slot.key,
        });
      }
      const distribution = toDistribution(question, given);
      if (typeof distribution === "string") return fail("decision-wrong-kind", `"${id}" ${distribution}`, { key: found.slot.key });
      distributions[id] = distribution;
    }
    for (const [id, question] of Object.entries(request.questions)) {
      const why = whyDistributionRefused(question, distributions[id]);
      if (why) return fail("decision-refused", `its script's answer is refused: question ${id}: ${why}`, { key: found.slot.key });
    }
    trace.answered = true;
    trace.answers = decisionReadings(request.questions, distributions);
    return distributions;
  }
}
