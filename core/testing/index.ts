// turnlens/testing (also served as agentswf/testing): what a workflow's test imports.

export { testWorkflow, type TestOptions } from "./testWorkflow.ts";
export { answer, noAnswer, type Answer, type NoAnswer, type Entry, type Script } from "./entries.ts";
export { TestRun } from "./testRun.ts";
export { TestWorkflowError } from "./problems.ts";
export type { Turn, TestTurn, TestOutcomeKind, TurnMessage, SendResult, ToolResult } from "./turn.ts";
export type { DecisionScript, DecisionAnswers, DecisionCall } from "./scriptedDecisions.ts";
export type { AgentRecord } from "./scriptedHost.ts";
