// turnlens/testing (also served as agentswf/testing): what a workflow's test imports.

export { testWorkflow, type TestOptions } from "./testWorkflow.ts";
export { answer, noAnswer, type Answer, type NoAnswer, type Entry, type Script } from "./entries.ts";
export { TestRun } from "./testRun.ts";
export { TestWorkflowError } from "./problems.ts";
export type { Turn, TestTurn, TestOutcomeKind, TurnMessage, SendResult, ToolResult } from "./turn.ts";
export { answersTo, type DecisionScript, type DecisionAnswers, type DecisionCall, type AnswerShorthand } from "./scriptedDecisions.ts";
export type { AgentRecord, SetRecord } from "./scriptedHost.ts";
export type { CompactionRecord } from "./scriptedCompactions.ts";
export type { TestMessage } from "./testRun.ts";
export type { MessageScript, MessageFunction, ScriptMessage } from "./scriptedMessages.ts";
export type {
  ParticipantScript,
  ParticipantEvent,
  ParticipantRouteEvent,
  ParticipantMessageEvent,
  ParticipantCallResult,
} from "./scriptedParticipants.ts";
export {
  fakeClient,
  FakeClientError,
  type FakeClient,
  type FakeClientCall,
  type FakeClientScript,
  type ScriptedEmit,
  type ScriptedRest,
  type ScriptedStart,
  type EmitSeen,
  type StartSeen,
  type InboxSeen,
} from "./fakeClient.ts";
