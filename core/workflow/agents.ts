// wf.agents.open and agent.run: opening and reopening agents, one turn at a time per agent in
// call order, the one nudge, and every turn ending in an outcome value.

import { checkAnswer } from "./answerCheck.ts";
import { durationToMilliseconds } from "./durations.ts";
import type { Attempt } from "./attempt.ts";
import type { HostEnd, OpenedAgent, TurnOperation } from "./host.ts";
import { resolveRuntime } from "./runtimes.ts";
import { CancelReason, scopeOr, type Scope } from "./scope.ts";
import type { AgentRef, AgentSpec, Agents, Execution, Outcome, TurnResult, TurnSpec } from "./types.ts";
import { messageOf, WorkflowRuleError } from "./errors.ts";

const DEFAULT_NUDGE = "You ended your turn without an answer. Answer now, as the turn asked.";

interface AgentState {
  opened: OpenedAgent;
  spec: AgentSpec;
  ref: AgentRef;
  turns: number;
  /** Settles when the agent's previous turn has; turns of one agent run in call order. */
  queue: Promise<void>;
}

export function outcomeOfCancel(reason: unknown): Outcome {
  if (reason instanceof CancelReason) return { kind: reason.kind, reason: reason.reason };
  return { kind: "cancelled", reason: messageOf(reason) };
}

function whenAborted(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason), { once: true }));
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class AgentRegistry implements Agents {
  private readonly agents = new Map<string, AgentState>();

  constructor(private readonly attempt: Attempt) {}

  async open(spec: AgentSpec): Promise<AgentRef> {
    const attempt = this.attempt;
    await attempt.unlessAbandoned();
    if (typeof spec?.key !== "string" || spec.key === "") throw new TypeError("wf.agents.open needs a key");
    const execution = resolveRuntime(spec.key, spec.runtime, attempt.runtimes);
    const existing = this.agents.get(spec.key);
    if (existing) return this.reopen(existing, spec, execution);
    const opened: OpenedAgent = {
      key: spec.key,
      execution,
      cwd: spec.cwd ?? attempt.cwd,
      ...(spec.instructions !== undefined ? { instructions: spec.instructions } : {}),
      ...(spec.skills !== undefined ? { skills: spec.skills } : {}),
      ...(spec.labels !== undefined ? { labels: spec.labels } : {}),
    };
    attempt.host.opened(opened);
    const state: AgentState = { opened, spec, turns: 0, queue: Promise.resolve(), ref: undefined! };
    state.ref = this.refFor(state);
    this.agents.set(spec.key, state);
    return state.ref;
  }

  private reopen(existing: AgentState, spec: AgentSpec, execution: Execution): AgentRef {
    const conflicts: string[] = [];
    if (!sameJson(execution, existing.opened.execution)) conflicts.push("runtime");
    for (const field of ["instructions", "skills", "labels", "cwd"] as const) {
      if (spec[field] !== undefined && !sameJson(spec[field], existing.spec[field] ?? (field === "cwd" ? existing.opened.cwd : undefined))) {
        conflicts.push(field);
      }
    }
    if (conflicts.length) {
      throw new WorkflowRuleError(`agent "${spec.key}" is already open with another ${conflicts.join(", ")}`);
    }
    return existing.ref;
  }

  private refFor(state: AgentState): AgentRef {
    const registry = this;
    return {
      key: state.opened.key,
      get execution() {
        return { ...state.opened.execution };
      },
      run(spec: TurnSpec) {
        return registry.runTurn(state, spec);
      },
    } as AgentRef;
  }

  private async runTurn(state: AgentState, spec: TurnSpec): Promise<TurnResult<never>> {
    const attempt = this.attempt;
    if (typeof spec?.prompt !== "string") throw new TypeError(`agent "${state.opened.key}": run needs a prompt`);
    const timeoutMs = spec.timeout === undefined ? undefined : durationToMilliseconds(spec.timeout, "a turn's timeout");
    const scope = scopeOr(attempt.root);
    const previous = state.queue;
    let release!: () => void;
    state.queue = new Promise((resolve) => (release = resolve));
    try {
      await previous;
      await attempt.unlessAbandoned();
      if (scope.cancelReason) return { outcome: outcomeOfCancel(scope.cancelReason) as Outcome<never> };
      const n = ++state.turns;
      const deadlineAt = timeoutMs === undefined ? undefined : attempt.clocks.deadline.now() + timeoutMs;
      const turnScope = scope.child(deadlineAt === undefined ? {} : { deadlineAt });
      try {
        const outcome = await this.turnWithNudge(state, spec, n, turnScope);
        // A run the test gave up on never hears back, so none of its code runs after the mistake.
        await attempt.unlessAbandoned();
        return { outcome: outcome as Outcome<never> };
      } finally {
        turnScope.dispose();
      }
    } finally {
      release();
    }
  }

  private async turnWithNudge(state: AgentState, spec: TurnSpec, n: number, scope: Scope): Promise<Outcome> {
    const nudgeEnabled = spec.nudge !== false;
    const nudgePrompt = typeof spec.nudge === "object" ? spec.nudge.prompt : DEFAULT_NUDGE;
    const first = await this.operate(state, spec, n, false, scope, nudgePrompt);
    if (first.end !== "silent" || !nudgeEnabled || scope.signal.aborted) {
      return this.finish(first, first.end === "silent" ? "the turn ended without an answer" : undefined);
    }
    this.attempt.host.settle(first.operation, { kind: "unanswered", reason: "a nudge followed" });
    const second = await this.operate(state, spec, n, true, scope, nudgePrompt);
    return this.finish(second, "the agent did not answer, even after a nudge");
  }

  private finish(result: OperationResult, silentReason = "the turn ended without an answer"): Outcome {
    const outcome: Outcome = result.end === "silent" ? { kind: "unanswered", reason: silentReason } : result.end;
    this.attempt.host.settle(result.operation, outcome);
    return outcome;
  }

  private async operate(
    state: AgentState,
    spec: TurnSpec,
    n: number,
    nudge: boolean,
    scope: Scope,
    nudgePrompt: string,
  ): Promise<OperationResult> {
    let answered: { value: unknown } | undefined;
    let closed = false;
    const operation: TurnOperation = {
      id: this.attempt.nextOperationId(),
      agent: state.opened.key,
      n,
      nudge,
      prompt: spec.prompt,
      ...(nudge ? { nudgePrompt } : {}),
      ...(spec.schema !== undefined ? { schema: spec.schema } : {}),
      ...(spec.label !== undefined ? { label: spec.label } : {}),
      ...(scope.stage !== undefined ? { stage: scope.stage } : {}),
      cwd: state.opened.cwd,
      execution: { ...state.opened.execution },
      signal: scope.signal,
      submit(raw) {
        if (closed || answered) return { accepted: false, error: "the turn has ended" };
        const verdict = checkAnswer(spec.schema, raw);
        if (verdict.accepted) answered = { value: verdict.value };
        return verdict;
      },
    };
    const hostEnd: Promise<HostEnd> = Promise.resolve()
      .then(() => this.attempt.host.run(operation))
      .catch((error) => ({ kind: "failed" as const, reason: `the agent's host failed: ${messageOf(error)}` }));
    const raced = await Promise.race([
      hostEnd.then((end) => ({ end })),
      whenAborted(scope.signal).then((reason) => ({ aborted: reason })),
    ]);
    closed = true;
    if ("aborted" in raced) return { operation, end: outcomeOfCancel(raced.aborted) };
    const end = raced.end;
    switch (end.kind) {
      case "submitted":
        return { operation, end: answered ? { kind: "answered", value: answered.value } : "silent" };
      case "silent":
        return { operation, end: "silent" };
      case "failed":
        return {
          operation,
          end: { kind: "failed", reason: end.reason, retryable: !end.login, ...(end.login ? { login: end.login } : {}) },
        };
      default:
        return { operation, end: { kind: end.kind, reason: end.reason } };
    }
  }
}

interface OperationResult {
  operation: TurnOperation;
  end: Outcome | "silent";
}
