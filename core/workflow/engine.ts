// runWorkflow: one attempt of a workflow, from args to an Ending. Production and tests share
// it; only the edges differ (the agent host, the decision provider, the clocks).

import { AgentRegistry } from "./agents.ts";
import { Attempt, type AttemptSettings, type StageRecord } from "./attempt.ts";
import { decide } from "./decisions.ts";
import { DeadlineExceededError, messageOf, StopSignal } from "./errors.ts";
import type { DecisionRequest } from "./host.ts";
import { whyNotJson } from "./json.ts";
import { parallel } from "./parallel.ts";
import { CancelReason, inScope } from "./scope.ts";
import { stage, stop } from "./stages.ts";
import type { Ending, StageSummary, Workflow, WorkflowContext } from "./types.ts";

export interface RunOptions extends AttemptSettings {
  args: unknown;
  /** Aborting it gives up on the workflow: the run ends `cancelled` at once. */
  signal?: AbortSignal;
  onDecision?: (request: DecisionRequest) => void;
}

export interface RunResult<Result> {
  ending: Ending<Result>;
  /** What the workflow threw, for an ending other than completed. */
  error?: unknown;
  stages: StageRecord[];
  /** The run was given up on through `signal`. */
  abandoned: boolean;
}

function createContext(attempt: Attempt, registry: AgentRegistry, onDecision: RunOptions["onDecision"]): WorkflowContext {
  const { settings } = attempt;
  const decideCall: WorkflowContext["decide"] = (spec) => decide(attempt, spec, (request) => onDecision?.(request));
  return {
    runId: settings.runId,
    attempt: settings.attempt,
    cwd: settings.cwd,
    agents: registry,
    now: () => new Date(settings.clocks.run.now()),
    log(message, fields) {
      settings.onLog?.({ message: String(message), ...(fields !== undefined ? { fields } : {}) });
    },
    parallel: (items, work, options) => parallel(attempt, items, work, options),
    stage: ((name: string, optionsOrWork: never, work?: never) => stage(attempt, name, optionsOrWork, work)) as WorkflowContext["stage"],
    stop: (reason) => stop(attempt, reason),
    decide: decideCall,
    decisions: { decide: decideCall },
  };
}

export function stageSummaries(records: readonly StageRecord[]): StageSummary[] {
  return records.map((record) => ({
    name: record.name,
    outcome: record.outcome,
    attempt: record.attempt,
    source: "ran",
    ...(record.summary !== undefined ? { summary: record.summary } : {}),
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    ...(record.value !== undefined ? { value: record.value } : {}),
  }));
}

type Settled = { kind: "returned"; value: unknown } | { kind: "threw"; error: unknown } | { kind: "abandoned"; reason: string };

export async function runWorkflow<Args, Result>(workflow: Workflow<Args, Result>, options: RunOptions): Promise<RunResult<Result>> {
  const attempt = new Attempt(options);
  const registry = new AgentRegistry(attempt);
  const context = createContext(attempt, registry, options.onDecision);
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
  const settled = await Promise.race([ran, abandoned]);
  if (settled.kind !== "abandoned") attempt.root.cancel(new CancelReason("cancelled", "the attempt ended"));
  const stages = attempt.stages;
  const summaries = stageSummaries(stages);
  const continueCommand = `awf run ${workflow.name} --continue ${options.runId}`;
  const unsuccessful = (kind: "stopped" | "failed" | "timed-out" | "cancelled", reason: string, stageName?: string): Ending<Result> => ({
    kind,
    ...(stageName !== undefined ? { stage: stageName } : {}),
    reason,
    stages: summaries,
    continue: continueCommand,
  });
  const finish = (ending: Ending<Result>, error?: unknown): RunResult<Result> => ({
    ending,
    ...(error !== undefined ? { error } : {}),
    stages,
    abandoned: settled.kind === "abandoned",
  });

  if (settled.kind === "abandoned") return finish(unsuccessful("cancelled", settled.reason, attempt.openStage));
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
    return finish({ kind: "completed", value: settled.value as Result, stages: summaries });
  }
  const error = settled.error;
  if (attempt.ruleViolation) return finish(unsuccessful("failed", attempt.ruleViolation.message, attempt.failedStage), error);
  if (error instanceof StopSignal) return finish(unsuccessful("stopped", error.reason, error.stage), error);
  if (error instanceof DeadlineExceededError && error.runDeadline) {
    return finish(unsuccessful("timed-out", error.message, attempt.failedStage), error);
  }
  return finish(unsuccessful("failed", messageOf(error), attempt.failedStage), error);
}
