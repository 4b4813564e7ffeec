// turnlens/workflow (also served as agentswf/workflow): what a workflow file imports.

export { defineWorkflow, isWorkflow } from "./define.ts";
export { choice, score, yesNo } from "./decisions.ts";
export { StopSignal, DeadlineExceededError, DecisionError, WorkflowRuleError } from "./errors.ts";
export { parseDuration } from "./durations.ts";
export { DEFAULT_RUNTIMES } from "./runtimes.ts";
export { defineTool } from "./tools.ts";
export { Type } from "typebox";
export type * from "./types.ts";
/** run.jsonl and in.jsonl lines: what the run settled, and the events it was sent (docs/data.md). */
export type { RunLine, InLine } from "./runLines.ts";
export type { Static, TSchema } from "typebox";

import type { Outcome } from "./types.ts";

/** Narrows an outcome to `answered`. */
export function isAnswered<Value>(outcome: Outcome<Value>): outcome is Extract<Outcome<Value>, { kind: "answered" }> {
  return outcome.kind === "answered";
}
