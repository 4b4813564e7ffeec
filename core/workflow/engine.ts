// runWorkflow: one attempt of a workflow, from args to an Ending. Production and tests share
// it; only the edges differ (the agent host, the decision provider, the clocks).

import { compactAgent, forkAgent, setAgent } from "./agentOperations.ts";
import { AgentRegistry, type AgentOperations } from "./agents.ts";
import { allowanceOf } from "./allowance.ts";
import type { AttemptSettings } from "./attempt.ts";
import { AttemptWithParts } from "./attemptWithParts.ts";
import type { StageRecord } from "./runLines.ts";
import { decide } from "./decisions.ts";
import { DeadlineExceededError, messageOf, StopSignal } from "./errors.ts";
import type { DecisionRequest } from "./host.ts";
import { whyNotJson } from "./json.ts";
import { checkOptions, shown } from "./callOptions.ts";
import { nearestOr } from "./unknownOptions.ts";
import { parallel } from "./parallel.ts";
import { inScope } from "./scope.ts";
import { attemptAfter } from "./runLog.ts";
import { callerAgent, forkCallerAgent } from "./callingSession.ts";
import { ATTEMPT_ENDED, stage, stop } from "./stages.ts";
import type { Delivery, EventSender, EventToSend } from "./events.ts";
import { installIdleHandling, type IdlePolicy } from "./idle.ts";
import { MessageBus } from "./messages.ts";
import { sleep, waitUntil } from "./waits.ts";
import type { Ending, ReceivedEvent, StageSummary, Workflow, WorkflowContext } from "./types.ts";

export interface RunOptions extends AttemptSettings {
  args: unknown;
  /** Aborting it gives up on the workflow: the run ends `cancelled` at once. */
  signal?: AbortSignal;
  onDecision?: (request: DecisionRequest) => void;
  /** The event that starts (or wakes) this attempt, checked against the workflow's `starts`. */
  startEvent?: EventToSend;
  /** A test's say when the run is idle, before it waits in a keep-alive window or parks. */
  idlePolicy?: IdlePolicy;
  /** Called once the attempt exists, with what its environment may do to it while it runs. */
  onStart?: (control: RunControl) => void;
}

/** What the outside may do to a running attempt. */
export interface RunControl {
  /** Sends the run an event, as `awf emit` would; refused ones are not recorded. */
  receive(event: EventToSend, sender?: EventSender, defaultId?: () => string): Delivery;
  attempt: AttemptWithParts;
  /** The run's message bus: its messages, participants and tools. */
  messages: MessageBus;
}

export interface RunResult<Result> {
  ending: Ending<Result>;
  /** What the workflow threw, for an ending other than completed. */
  error?: unknown;
  stages: StageRecord[];
  /** The run was given up on through `signal`. */
  abandoned: boolean;
}

function createContext(
  attempt: AttemptWithParts,
  registry: AgentRegistry,
  bus: MessageBus,
  onDecision: RunOptions["onDecision"],
  startEvent: ReceivedEvent | null,
): WorkflowContext {
  const { settings } = attempt;
  const host = attempt.host;
  // Its own call is skipped in a captured stack, so the site is the workflow's `wf.decide(...)`.
  const decideCall: WorkflowContext["decide"] = (spec) => decide(attempt, spec, (request) => onDecision?.(request), host.captureCall?.(decideCall));
  return {
    runId: settings.runId,
    attempt: settings.attempt,
    get cwd() {
      settings.onCwdUsed?.(settings.cwd);
      return settings.cwd;
    },
    agents: registry,
    now: () => new Date(settings.clocks.run.now()),
    log(message, fields) {
      if (fields !== undefined && (typeof fields !== "object" || fields === null || Array.isArray(fields))) {
        throw new TypeError(`wf.log's fields must be a JSON object such as { ticket: "T-1" }, not ${shown(fields)}`);
      }
      // A line from work still running after the attempt ended (a stage cut short) is no line of the attempt's.
      if (attempt.isAbandoned) return;
      settings.onLog?.({ message: String(message), ...(fields !== undefined ? { fields } : {}) });
    },
    parallel: (items, work, options) => parallel(attempt, items, work, options),
    stage: ((name: string, optionsOrWork: never, work?: never) => stage(attempt, name, optionsOrWork, work)) as WorkflowContext["stage"],
    stop: (reason) => stop(attempt, reason),
    decide: decideCall,
    decisions: { decide: decideCall },
    allowance: (harness) => allowanceOf(attempt, harness),
    sleep: (duration, waitOptions) => sleep(attempt, duration, waitOptions),
    waitUntil: (time, waitOptions) => waitUntil(attempt, time, waitOptions),
    event: startEvent,
    events: { wait: (names, waitOptions) => attempt.inbox.wait(names, waitOptions) },
    async emit(ref, name, data, emitOptions) {
      // Its options are checked before the first await, so a refusal's stack starts at the workflow's call.
      checkOptions("wf.emit", "wf.emit", emitOptions, true);
      await attempt.unlessAbandoned();
      attempt.inbox.emit(ref, name, data, emitOptions);
    },
    keepAlive: (keepOptions) => attempt.inbox.setKeepAlive(keepOptions, settings.defaultKeepAliveMs),
    messages: { allow: (route) => bus.allow(route) },
    participants: { connect: (spec) => bus.participants.connect(spec) },
    sandboxes: { open: (spec) => attempt.sandboxes.open(spec) },
  };
}

export function stageSummaries(records: readonly StageRecord[], reused?: { has(record: StageRecord): boolean }): StageSummary[] {
  return records.map((record) => ({
    name: record.name,
    outcome: record.outcome,
    attempt: record.attempt,
    source: reused?.has(record) ? "reused" : record.provided ? "provided" : "ran",
    ...(record.summary !== undefined ? { summary: record.summary } : {}),
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    ...(record.value !== undefined ? { value: record.value } : {}),
  }));
}

type Settled =
  | { kind: "returned"; value: unknown }
  | { kind: "threw"; error: unknown }
  | { kind: "abandoned"; reason: string }
  | { kind: "parked"; label: string; until?: string };

/** Checks a starting event against `starts` and the declared schemas; returns why it is refused. */
export function startEventRefusal(workflow: Workflow<unknown, unknown>, event: EventToSend): string | undefined {
  const starts = workflow.starts ?? [];
  if (!starts.includes(event.name)) {
    const otherwise = starts.length ? `its starts are ${starts.map((name) => `"${name}"`).join(", ")}` : "no event starts it";
    return `event "${event.name}" does not start ${workflow.name}; ${nearestOr(event.name, starts, otherwise)}`;
  }
  return undefined;
}

// The operations sit above the registry and use it; handed in here, the registry imports none of them.
const AGENT_OPERATIONS: AgentOperations = { compact: compactAgent, set: setAgent, fork: forkAgent, caller: callerAgent, forkCaller: forkCallerAgent };

export async function runWorkflow<Args, Result>(workflow: Workflow<Args, Result>, options: RunOptions): Promise<RunResult<Result>> {
  if (options.values !== undefined && options.fromStage === undefined) throw new TypeError("values give the stages before fromStage: give fromStage too");
  const attempt = new AttemptWithParts({
    ...options,
    // A continue is the attempt after the latest its earlier run lines name.
    ...(options.earlier ? { attempt: attemptAfter(options.earlier.runLines ?? []) } : {}),
    ...(workflow.events ? { declaredEvents: workflow.events } : {}),
    ...(workflow.stages ? { declaredStages: workflow.stages } : {}),
    // A stopped agent's messages end, and the run is sent its `{key}:ended` event.
    onAgentEnded: (key, reason) => {
      bus.agentEnded(key, reason);
      options.onAgentEnded?.(key, reason);
    },
  });
  const registry = new AgentRegistry(attempt, AGENT_OPERATIONS);
  const bus = new MessageBus(attempt, registry, workflow.tools);
  registry.messaging = bus;
  installIdleHandling(attempt, options.idlePolicy);
  attempt.continuation.restore();
  const continuing = attempt.continuation.isContinue;
  let startEvent: ReceivedEvent | null = null;
  if (options.startEvent) {
    // A first attempt's event must be one that starts the run; a continue's is any it takes.
    const refusal = continuing ? undefined : startEventRefusal(workflow as Workflow<unknown, unknown>, options.startEvent);
    if (refusal) throw new TypeError(refusal);
    const delivery = attempt.inbox.receive(options.startEvent, "outside", () => "awf.start");
    if (!delivery.ok) throw new TypeError(delivery.message);
    // A starting event is in in.jsonl, but no wait takes it: the run reads it as wf.event. The
    // event that wakes a continue is also left for the wait it parked at.
    if (!continuing) attempt.inbox.markRead(delivery.event);
    startEvent = delivery.event;
  }
  attempt.continuation.begin(startEvent, !continuing, options.args);
  options.onStart?.({
    attempt,
    messages: bus,
    receive: (event, sender = "outside", defaultId = () => `awf.${attempt.inbox.lines.length + 1}`) => attempt.inbox.receive(event, sender, defaultId),
  });
  const context = createContext(attempt, registry, bus, options.onDecision, startEvent);
  const parked = new Promise<Settled>((resolve) => attempt.onPark((at) => resolve({ kind: "parked", ...at })));
  const abandoned = new Promise<Settled>((resolve) => {
    const onAbort = () => {
      const reason = messageOf(options.signal!.reason);
      attempt.abandon(reason);
      resolve({ kind: "abandoned", reason });
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
  const ran = Promise.resolve()
    .then(() => inScope(attempt.root, () => workflow.run(context, options.args as Args)))
    .then(
      (value): Settled => ({ kind: "returned", value }),
      (error): Settled => ({ kind: "threw", error }),
    );
  const settled = await Promise.race([ran, abandoned, parked]);
  attempt.activity.stop();
  bus.attemptEnded();
  // A stage still open as the attempt ends (a parallel sibling threw, stopped or broke a rule) is
  // the stage it ended in, and is recorded so; a parked attempt leaves it for the continue to redo.
  // A reused stage held open as it is entered (stages.ts) has no work to close: it is none.
  const openAtEnd = settled.kind === "parked" || !attempt.closeOpenStage ? undefined : attempt.openStage;
  // Whatever the workflow still has pending never settles, so none of its code runs after the end.
  if (settled.kind !== "abandoned" && settled.kind !== "parked") attempt.abandon(ATTEMPT_ENDED);
  const stages = attempt.stages;
  const summaries = () => stageSummaries(stages, attempt.continuation.reused);
  const continueCommand = `awf run ${workflow.name} --continue ${options.runId}`;
  const unsuccessful = (kind: "stopped" | "failed" | "timed-out" | "cancelled", reason: string, stageName?: string): Ending<Result> => {
    if (openAtEnd !== undefined) attempt.closeOpenStage?.(kind === "stopped" ? "stopped" : "failed", reason);
    const ended = stageName ?? openAtEnd;
    return {
      kind,
      ...(ended !== undefined ? { stage: ended } : {}),
      reason,
      stages: summaries(),
      continue: continueCommand,
    };
  };
  const finish = (ending: Ending<Result>, error?: unknown): RunResult<Result> => {
    // Every agent still open ends with the attempt; its pane stays or goes by how the attempt ended.
    registry.endAll(ending.kind);
    return {
      ending,
      ...(error !== undefined ? { error } : {}),
      stages,
      abandoned: settled.kind === "abandoned",
    };
  };

  if (settled.kind === "parked") {
    return finish({
      kind: "parked",
      label: settled.label,
      ...(settled.until !== undefined ? { until: settled.until } : {}),
      reason: `the run parked ${settled.label}${settled.until !== undefined ? ` until ${settled.until}` : ""}`,
      stages: summaries(),
      continue: continueCommand,
    });
  }
  if (settled.kind === "abandoned") return finish(unsuccessful("cancelled", settled.reason));
  if (settled.kind === "returned") {
    if (attempt.ruleViolation) {
      return finish(unsuccessful("failed", attempt.ruleViolation.message, attempt.failedStage), attempt.ruleViolation);
    }
    if (attempt.stopRequested) {
      const error = new Error(`stop was caught: ${attempt.stopRequested.reason}`);
      return finish(unsuccessful("failed", error.message, attempt.stopRequested.stage), error);
    }
    const why = whyNotJson(settled.value === undefined ? null : settled.value);
    if (why) {
      const error = new Error(`the workflow's result is not JSON: ${why}`);
      return finish(unsuccessful("failed", error.message), error);
    }
    const unreached = attempt.continuation.fromStageUnreached();
    if (unreached) return finish(unsuccessful("stopped", unreached));
    if (openAtEnd !== undefined) attempt.closeOpenStage?.("failed");
    return finish({ kind: "completed", value: settled.value as Result, stages: summaries() });
  }
  const error = settled.error;
  if (attempt.ruleViolation) return finish(unsuccessful("failed", attempt.ruleViolation.message, attempt.failedStage), error);
  if (error instanceof StopSignal) return finish(unsuccessful("stopped", error.reason, error.stage), error);
  if (error instanceof DeadlineExceededError && error.runDeadline) {
    return finish(unsuccessful("timed-out", error.message, attempt.failedStage), error);
  }
  return finish(unsuccessful("failed", messageOf(error), attempt.failedStage), error);
}
