// wf.agents.open and agent.run: opening and reopening agents, one turn at a time per agent in
// call order, the one nudge, and every turn ending in an outcome value.

import { checkAnswer, type AnswerVerdict } from "./answerCheck.ts";
import type { Activity } from "./activity.ts";
import { durationToMilliseconds } from "./durations.ts";
import type { AttemptWithParts } from "./attemptWithParts.ts";
import type { CallCapture, ForkedFrom, HostEnd, OpenedAgent, OperationKind, TurnOperation } from "./host.ts";
import { resolveRuntime, UnknownRuntimeError } from "./runtimes.ts";
import { CancelReason, scopeOr, type Scope } from "./scope.ts";
import type { AgentRef, AgentSpec, Agents, CompactSpec, Execution, ForkSpec, Outcome, SetSpec, TurnResult, TurnSpec } from "./types.ts";
import { messageOf, WorkflowRuleError } from "./errors.ts";
import { checkOptions } from "./callOptions.ts";
import { skillNames } from "./skills.ts";
import { harnessFacts } from "./harnesses.ts";
import { checkLayout, keepsPane, placePane } from "./panes.ts";
import { logOperation, logSession } from "./runLog.ts";
import type { SendOptions, SendResult, ToolResult } from "./messageTypes.ts";
import type { Asker, BusMessage, OperationMessaging } from "./operationMessaging.ts";
import type { PlannedSandbox } from "./sandboxes.ts";

const DEFAULT_NUDGE = "You ended your turn without an answer. Answer now, as the turn asked.";

/** @internal One open agent, as the registry and agentOperations.ts share it. */
export interface AgentState {
  /** What the host was told at open. */
  opened: OpenedAgent;
  spec: Omit<AgentSpec, "runtime">;
  ref: AgentRef;
  /** The settings it runs at now: as opened, then as its last `set` left them. */
  execution: Execution;
  turns: number;
  compactions: number;
  sets: number;
  /** Its session has history before its own first turn: a fork's copy of its parent's. */
  inheritsHistory: boolean;
  /** The calling session, driven as an agent. */
  isCaller: boolean;
  /** Why it was stopped, once `wf.agents.stop` ended it. */
  stopped?: string;
  /** Its operations' scopes while they run; stopping the agent cancels them. */
  running: Set<Scope>;
  /** Compactions and switches the workflow named with an `id`, by kind and id. */
  named: Map<string, { spec: string; result: Promise<unknown> }>;
  /** Operations of one agent run in call order: each waits for the one called before it. */
  callOrder: CallOrder;
}

/** Awaited where no operation is ahead: one hop, as a settled promise of its own took. */
const NOTHING_AHEAD = Promise.resolve();

/** An operation's place in its agent's call order (CallOrder). */
class Place {
  /** Settles once the operation before it is done. */
  ahead: Promise<void> = NOTHING_AHEAD;
  /** Set once the operation let the next one in. */
  done = false;
  /** Lets in the operation waiting on this one, once one does. */
  wake: (() => void) | undefined = undefined;
}

/**
 * The order an agent's operations run in: each waits until the one called before it has let it
 * in. A promise is made only for an operation that finds one still running ahead of it (each
 * turn made one, with its executor and resolving functions, for a wait almost never needed); the
 * wait takes the same one hop either way, so what runs around a turn sees the same order.
 */
class CallOrder {
  private last: Place | undefined;

  /** Takes the next place: its `ahead` settles once the operation before it is done (at once when it is). */
  enter(): Place {
    const before = this.last;
    const place = new Place();
    this.last = place;
    if (before && !before.done) place.ahead = new Promise<void>((resolve) => (before.wake = resolve));
    return place;
  }

  /** The operation at `place` is done: the next one may run. */
  leave(place: Place): void {
    place.done = true;
    if (this.last === place) this.last = undefined;
    place.wake?.();
  }
}

/** What a later operation on a stopped agent, or one it cut short, settles as. */
export function stoppedOutcome(state: AgentState): Outcome<never> {
  return { kind: "cancelled", reason: state.stopped ?? "the agent was stopped" };
}

export function outcomeOfCancel(reason: unknown): Outcome {
  if (reason instanceof CancelReason) return { kind: reason.kind, reason: reason.reason };
  return { kind: "cancelled", reason: messageOf(reason) };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What an agent does beyond its turns (agentOperations.ts, callingSession.ts). They sit a layer
 * above the registry and use it, so the engine hands them in rather than the registry importing them.
 */
export interface AgentOperations {
  compact(registry: AgentRegistry, state: AgentState, spec: CompactSpec): Promise<Outcome<string>>;
  set(registry: AgentRegistry, state: AgentState, spec: SetSpec): Promise<Outcome<Execution>>;
  /** `openedAt`: where the workflow made the call, when the host captures calls (so for the two below). */
  fork(registry: AgentRegistry, parent: AgentState, spec: ForkSpec, openedAt?: CallCapture): Promise<AgentRef>;
  caller(registry: AgentRegistry, spec: { key: string }, openedAt?: CallCapture): Promise<AgentRef | null>;
  forkCaller(registry: AgentRegistry, spec: ForkSpec, openedAt?: CallCapture): Promise<AgentRef | null>;
}

/**
 * What the registry asks of the message bus (messages.ts). The bus sits above the registry and
 * wakes its agents, so the engine hands it in once both exist.
 */
export interface AgentMessaging {
  checkAgentSpec(spec: AgentSpec): void;
  forOperation(state: AgentState, kind: OperationKind, asker: Asker, cause?: BusMessage): OperationMessaging;
}

export class AgentRegistry implements Agents {
  private readonly agents = new Map<string, AgentState>();
  /** @internal The calling session, once `wf.agents.caller` handed it to the run. */
  callerState: AgentState | undefined;
  private panesOpened = 0;
  /** @internal The run's message bus; the engine installs it before the workflow runs. */
  messaging!: AgentMessaging;

  constructor(
    readonly attempt: AttemptWithParts,
    private readonly operations: AgentOperations,
  ) {}

  async open(spec: AgentSpec): Promise<AgentRef> {
    const attempt = this.attempt;
    // Before the first await, while the workflow's call is still on the stack.
    const openedAt = attempt.host.captureCall?.(AgentRegistry.prototype.open);
    // Checked before the first await, so the refusal's stack starts at the workflow's call.
    checkOptions("wf.agents.open", "wf.agents.open", spec);
    if (typeof spec.runtime === "object") checkOptions(`agent "${spec.key}": runtime`, "alias" in spec.runtime ? "runtime alias" : "runtime", spec.runtime);
    await attempt.unlessAbandoned();
    if (this.callerState?.opened.key === spec.key) {
      throw new WorkflowRuleError(`agent ${spec.key} is the calling session; it is not opened`);
    }
    this.messaging.checkAgentSpec(spec);
    let execution: Execution;
    try {
      execution = resolveRuntime(spec.key, spec.runtime, attempt.runtimes);
    } catch (error) {
      if (error instanceof UnknownRuntimeError) {
        attempt.host.unknownRuntime?.({ agent: spec.key, alias: error.alias, message: error.message, ...(openedAt ? { openedAt } : {}) });
      }
      throw error;
    }
    const sandbox = attempt.sandboxes.planFor(spec.key, spec.sandbox);
    const existing = this.agents.get(spec.key);
    if (existing) return this.reopen(existing, spec, execution, sandbox);
    return this.openAgent(spec, execution, { cwd: spec.cwd ?? attempt.cwd, ...(sandbox ? { sandbox } : {}), ...(openedAt ? { openedAt } : {}) });
  }

  /** @internal Whether `key` names an agent of the run. */
  has(key: string): boolean {
    return this.agents.has(key);
  }

  /** @internal The agent open under `key`, for engine parts that hold a key (the message bus). */
  stateOf(key: string): AgentState | undefined {
    return this.agents.get(key);
  }

  /** @internal Opens a new agent at `execution`: placed, told to the host, and given its ref. */
  openAgent(
    spec: Omit<AgentSpec, "runtime">,
    execution: Execution,
    extra: { cwd: string; forkedFrom?: ForkedFrom; isCaller?: boolean; sandbox?: PlannedSandbox; openedAt?: CallCapture },
  ): AgentRef {
    const attempt = this.attempt;
    checkLayout(spec.key, spec.layout, spec.keepPane);
    const placed = extra.isCaller ? {} : placePane(spec.key, spec, execution, attempt.settings.panes ?? {}, (key) => this.paneOf(key), this.panesOpened === 0);
    const names = spec.skills !== undefined ? skillNames(spec.key, spec.skills, extra.cwd) : undefined;
    const sandbox = extra.sandbox ? attempt.sandboxes.enter(spec.key, extra.sandbox, execution) : undefined;
    const opened: OpenedAgent = {
      key: spec.key,
      execution,
      cwd: extra.cwd,
      ...(spec.instructions !== undefined ? { instructions: spec.instructions } : {}),
      ...(spec.skills !== undefined ? { skills: spec.skills, skillNames: names! } : {}),
      ...(spec.labels !== undefined ? { labels: spec.labels } : {}),
      ...placed,
      ...(extra.forkedFrom ? { forkedFrom: extra.forkedFrom } : {}),
      ...(sandbox ? { sandbox } : {}),
      ...(extra.openedAt ? { openedAt: extra.openedAt } : {}),
    };
    attempt.host.opened(opened);
    logSession(attempt, opened);
    if (placed.pane) this.panesOpened++;
    const state: AgentState = {
      opened,
      spec,
      execution: { ...execution },
      turns: 0,
      compactions: 0,
      sets: 0,
      inheritsHistory: extra.forkedFrom !== undefined,
      isCaller: extra.isCaller === true,
      running: new Set(),
      named: new Map(),
      callOrder: new CallOrder(),
      ref: undefined!,
    };
    state.ref = this.refFor(state);
    this.agents.set(spec.key, state);
    if (state.isCaller) this.callerState = state;
    return state.ref;
  }

  /** Where a split beside `key` would go, or why there is no pane to split. */
  private paneOf(key: string): { workspace: NonNullable<OpenedAgent["panes"]>["workspace"] } | { why: string } {
    const state = this.agents.get(key);
    if (!state) return { why: `agent "${key}" is not open` };
    if (state.stopped !== undefined) return { why: `agent "${key}" was stopped` };
    if (state.isCaller) return { workspace: "origin" };
    if (!state.opened.panes) return { why: `agent "${key}" runs headless` };
    return { workspace: state.opened.panes.workspace };
  }

  stop(key: string, reason?: string): boolean {
    if (typeof key !== "string") throw new TypeError("wf.agents.stop needs an agent's key");
    const state = this.agents.get(key);
    if (!state || state.stopped !== undefined) return false;
    const why = reason === undefined ? "the agent was stopped" : `the agent was stopped: ${reason}`;
    state.stopped = why;
    for (const scope of state.running) scope.cancel(new CancelReason("cancelled", why));
    const panes = state.opened.panes;
    this.attempt.host.ended?.(key, { reason: why, ...(panes ? { keptPane: panes.keep === "always" } : {}) });
    this.attempt.settings.onAgentEnded?.(key, reason ?? "the agent was stopped");
    return true;
  }

  caller(spec: { key: string }): Promise<AgentRef | null> {
    return this.operations.caller(this, spec, this.attempt.host.captureCall?.(AgentRegistry.prototype.caller));
  }

  forkCaller(spec: ForkSpec): Promise<AgentRef | null> {
    return this.operations.forkCaller(this, spec, this.attempt.host.captureCall?.(AgentRegistry.prototype.forkCaller));
  }

  /** Compacts an open agent by key, as `agent.compact` does: for engine parts that hold a key, not a ref. */
  compactAgent(key: string, spec: Parameters<AgentRef["compact"]>[0]): Promise<Outcome<string>> {
    const state = this.agents.get(key);
    if (!state) return Promise.reject(new Error(`no agent "${key}" is open to compact`));
    return this.operations.compact(this, state, spec);
  }

  /** @internal Tells the host that every agent still open ended with the attempt, and whose pane stays. */
  endAll(endingKind: string): void {
    for (const [key, state] of this.agents) {
      if (state.stopped !== undefined) continue;
      state.stopped = "the attempt ended";
      const panes = state.opened.panes;
      this.attempt.host.ended?.(key, { reason: "the attempt ended", ...(panes ? { keptPane: keepsPane(panes.keep, endingKind) } : {}) });
    }
  }

  /** @internal Runs `work` once the agent's earlier operations have settled, in the caller's scope. */
  async enqueue<T>(state: AgentState, work: (scope: Scope) => Promise<T>): Promise<T> {
    const scope = scopeOr(this.attempt.root);
    const place = state.callOrder.enter();
    try {
      await place.ahead;
      await this.attempt.unlessAbandoned();
      return await work(scope);
    } finally {
      state.callOrder.leave(place);
    }
  }

  private reopen(existing: AgentState, spec: AgentSpec, execution: Execution, sandbox: PlannedSandbox | undefined): AgentRef {
    const conflicts: string[] = [];
    if (!sameJson(execution, existing.opened.execution)) conflicts.push("runtime");
    if (sandbox && !this.attempt.sandboxes.matches(existing.opened.sandbox, sandbox)) conflicts.push("sandbox");
    for (const field of ["instructions", "skills", "labels", "cwd", "layout", "keepPane", "tools"] as const) {
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
    const host = this.attempt.host;
    // Named, so a captured stack starts at the workflow's call of them (the first frame above them).
    function run(spec: TurnSpec) {
      return registry.runTurn(state, spec, host.captureCall?.(run));
    }
    function fork(spec: ForkSpec) {
      return registry.operations.fork(registry, state, spec, host.captureCall?.(fork));
    }
    return {
      key: state.opened.key,
      get execution() {
        return { ...state.execution };
      },
      run,
      compact: (spec) => registry.operations.compact(registry, state, spec),
      set: (spec) => registry.operations.set(registry, state, spec),
      fork,
    } as AgentRef;
  }

  private async runTurn(state: AgentState, spec: TurnSpec, askedAt: CallCapture | undefined): Promise<TurnResult<never>> {
    const attempt = this.attempt;
    checkOptions(`agent "${state.opened.key}": run`, "agent.run", spec);
    if (typeof spec.nudge === "object") checkOptions(`agent "${state.opened.key}": run's nudge`, "nudge", spec.nudge);
    const timeoutMs = spec.timeout === undefined ? undefined : durationToMilliseconds(spec.timeout, "a turn's timeout");
    const scope = scopeOr(attempt.root);
    const place = state.callOrder.enter();
    try {
      await place.ahead;
      await attempt.unlessAbandoned();
      if (scope.cancelReason) return { outcome: outcomeOfCancel(scope.cancelReason) as Outcome<never> };
      if (state.stopped !== undefined) return { outcome: stoppedOutcome(state) };
      const n = ++state.turns;
      const deadlineAt = timeoutMs === undefined ? undefined : attempt.clocks.deadline.now() + timeoutMs;
      const turnScope = deadlineAt === undefined ? scope.child() : scope.child({ deadlineAt });
      state.running.add(turnScope);
      try {
        const outcome = await this.turnWithNudge(state, spec, n, turnScope, askedAt);
        // A run the test gave up on never hears back, so none of its code runs after the mistake.
        await attempt.unlessAbandoned();
        return { outcome: outcome as Outcome<never> };
      } finally {
        state.running.delete(turnScope);
        turnScope.dispose();
      }
    } finally {
      state.callOrder.leave(place);
    }
  }

  private async turnWithNudge(state: AgentState, spec: TurnSpec, n: number, scope: Scope, askedAt: CallCapture | undefined): Promise<Outcome> {
    // The calling session's silent turn may be the operator's interrupt; it is nudged only where that shows.
    const nudgeEnabled = spec.nudge !== false && (!state.isCaller || harnessFacts(state.execution.harness)?.showsInterrupt === true);
    const nudgePrompt = typeof spec.nudge === "object" ? spec.nudge.prompt : DEFAULT_NUDGE;
    const first = await this.operate(state, spec, n, false, scope, nudgePrompt, "turn", undefined, undefined, askedAt);
    if (first.end !== "silent" || !nudgeEnabled || scope.cancelReason) {
      return this.finish(first, first.end === "silent" ? "the turn ended without an answer" : undefined);
    }
    this.attempt.host.settle(first.operation, { kind: "unanswered", reason: "a nudge followed" });
    // The nudge is the engine's, but the workflow's agent.run asked for it: it keeps that site.
    const second = await this.operate(state, spec, n, true, scope, nudgePrompt, "turn", undefined, undefined, askedAt);
    return this.finish(second, "the agent did not answer, even after a nudge");
  }

  private finish(result: OperationResult, silentReason = "the turn ended without an answer"): Outcome {
    const outcome: Outcome = result.end === "silent" ? { kind: "unanswered", reason: silentReason } : result.end;
    this.attempt.host.settle(result.operation, outcome);
    return outcome;
  }

  /** @internal One operation through the host: a turn, its nudge, or (`kind`) a compaction. */
  async operate(
    state: AgentState,
    spec: TurnSpec,
    n: number,
    nudge: boolean,
    scope: Scope,
    nudgePrompt: string,
    kind: OperationKind = "turn",
    compactionId?: string,
    /** The message that woke the agent, for a `message` operation (messages.ts). */
    cause?: BusMessage,
    /** The workflow's call that asked it; a wake's is the call that asked the sender's turn. */
    asked?: CallCapture,
  ): Promise<OperationResult> {
    // A working operation keeps the run from idling; one waiting on a reply says so (idleWhile).
    const working = this.attempt.activity.busy();
    const askedAt = asked ?? cause?.sentAt;
    const asker = new OperationAsker(scope, askedAt);
    const messaging = this.messaging.forOperation(state, kind, asker, cause);
    // Made in its constructor, field by field in the order hosts always saw them: a literal of
    // optional spreads cost several times as much, and fields added after construction went to a
    // backing store grown (and copied) several times a turn. `signal`, `submit` and `idleWhile`
    // come from the operation's prototype (see OperationOfScope).
    const operation = new OperationOfScope(
      scope,
      messaging,
      this.attempt.activity,
      working,
      this.attempt.nextOperationId(),
      kind,
      compactionId,
      state,
      n,
      nudge,
      spec,
      nudgePrompt,
      askedAt,
    );
    asker.operation = operation;
    const logEnd = logOperation(this.attempt, operation);
    const host = this.attempt.host;
    const hostEnd: Promise<HostEnd> = SETTLED.then(() => host.run(operation)).catch(hostFailed);
    // Raced against the scope's cancel through one listener, which the end removes; the promises
    // are the ones an AbortSignal's race took, so work around the turn sees the same order.
    let stopListening = NOTHING_TO_STOP;
    const cancelled = scope.cancelReason;
    const aborted = cancelled ? Promise.resolve<unknown>(cancelled) : new Promise<unknown>((resolve) => (stopListening = scope.onCancel(resolve)));
    const raced = await Promise.race([hostEnd.then(asEnd), aborted.then(asAborted)]);
    stopListening();
    const answered = operation.close();
    logEnd("aborted" in raced ? outcomeOfCancel(raced.aborted) : raced.end, answered);
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

/** A settled promise the host's run is chained on: one hop, as a new settled promise per turn took. */
const SETTLED = Promise.resolve();
const NOTHING_TO_STOP = () => {};
// The race's steps, made once rather than as closures per turn.
const hostFailed = (error: unknown): HostEnd => ({ kind: "failed", reason: `the agent's host failed: ${messageOf(error)}` });
const asEnd = (end: HostEnd) => ({ end });
const asAborted = (reason: unknown) => ({ aborted: reason });

/** What an operation's `send` and `reply` wait as: its scope, and its `idleWhile` (a method, not a closure per turn). */
class OperationAsker implements Asker {
  operation!: TurnOperation;
  declare askedAt: CallCapture;
  constructor(
    readonly scope: Scope,
    askedAt: CallCapture | undefined,
  ) {
    if (askedAt) this.askedAt = askedAt;
  }
  idleWhile<T>(waiting: Promise<T>): Promise<T> {
    return this.operation.idleWhile(waiting);
  }
}

/**
 * What an operation is made from: its `signal` is its scope's, read only when the host asks, so a
 * turn answered without looking at it makes no AbortController. A getter on the prototype: one in
 * each operation's own fields made every operation several times dearer to make. `submit` and
 * `idleWhile` are methods over its private state for the same reason (as own closures they were
 * two closures and a backing store a turn).
 */
class OperationOfScope implements TurnOperation {
  readonly #scope: Scope;
  readonly #activity: Activity;
  /** Ends the operation's count as work; replaced while it waits idle (idleWhile). */
  #working: () => void;
  /** Set once the engine stopped listening to the host: later answers are refused. */
  #closed = false;
  /** The answer the engine accepted, once it has. */
  #answered: { value: unknown } | undefined = undefined;
  readonly #schema: TurnSpec["schema"];
  // `send`, `reply`, `tool` and `owes` are methods here too, over the operation's messaging: as own
  // closures they were five allocations a turn. Call them on the operation (a spread copy lacks them).
  readonly #messaging: OperationMessaging;
  // TurnOperation's fields, declared (not defined) so each is an own field only once assigned, in
  // the order and presence hosts always saw.
  declare id: number;
  declare kind: OperationKind;
  declare compactionId: string;
  declare agent: string;
  declare n: number;
  declare nudge: boolean;
  declare prompt: string;
  declare nudgePrompt: string;
  declare schema: TurnSpec["schema"];
  declare label: string;
  declare stage: string;
  declare cwd: string;
  declare execution: Execution;
  declare messages: OperationMessaging["messages"];
  declare cause: NonNullable<OperationMessaging["cause"]>;
  declare askedAt: CallCapture;

  constructor(
    scope: Scope,
    messaging: OperationMessaging,
    activity: Activity,
    working: () => void,
    id: number,
    kind: OperationKind,
    compactionId: string | undefined,
    state: AgentState,
    n: number,
    nudge: boolean,
    spec: TurnSpec,
    nudgePrompt: string,
    askedAt: CallCapture | undefined,
  ) {
    this.#scope = scope;
    this.#messaging = messaging;
    this.#activity = activity;
    this.#working = working;
    this.#schema = spec.schema;
    this.id = id;
    this.kind = kind;
    if (compactionId !== undefined) this.compactionId = compactionId;
    this.agent = state.opened.key;
    this.n = n;
    this.nudge = nudge;
    this.prompt = spec.prompt;
    if (nudge) this.nudgePrompt = nudgePrompt;
    if (spec.schema !== undefined) this.schema = spec.schema;
    if (spec.label !== undefined) this.label = spec.label;
    const stage = scope.stage;
    if (stage !== undefined) this.stage = stage;
    this.cwd = state.opened.cwd;
    this.execution = { ...state.execution };
    this.messages = messaging.messages;
    if (messaging.cause) this.cause = messaging.cause;
    if (askedAt) this.askedAt = askedAt;
  }
  get signal(): AbortSignal {
    return this.#scope.signal;
  }
  submit(raw: string): AnswerVerdict {
    if (this.#closed || this.#answered) return { accepted: false, error: "the turn has ended" };
    // `wf result` is refused while the agent owes a reply it was shown.
    const owing = this.kind === "turn" ? this.#messaging.refusesResult() : undefined;
    if (owing) return { accepted: false, error: owing };
    const verdict = checkAnswer(this.#schema, raw);
    if (verdict.accepted) this.#answered = { value: verdict.value };
    return verdict;
  }
  async idleWhile<T>(waiting: Promise<T>): Promise<T> {
    this.#working();
    try {
      return await waiting;
    } finally {
      if (!this.#closed) this.#working = this.#activity.busy();
    }
  }
  /** @internal The engine stopped listening to the host: no answer is taken after; the answer taken, if one was. */
  close(): { value: unknown } | undefined {
    this.#closed = true;
    this.#working();
    return this.#answered;
  }
  send(peer: string, text: string, options?: SendOptions): Promise<SendResult> {
    return this.#messaging.send(peer, text, options);
  }
  reply(peer: string, text: string, options?: SendOptions): Promise<SendResult> {
    return this.#messaging.reply(peer, text, options);
  }
  tool(name: string, input?: unknown): Promise<ToolResult> {
    return this.#messaging.tool(name, input);
  }
  owes(): string[] {
    return this.#messaging.owes();
  }
}

export interface OperationResult {
  operation: TurnOperation;
  end: Outcome | "silent";
}
