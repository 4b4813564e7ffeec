// The edge the engine drives agents through. A real run plugs in pane and headless hosts; a
// test plugs in the scripted host. The engine owns nudges, order, deadlines and outcomes.

import type { TSchema } from "typebox";
import type { AnswerVerdict } from "./answerCheck.ts";
import type { Execution, JsonValue, LoginNeeded, Outcome, Skill, Question } from "./types.ts";

export interface OpenedAgent {
  key: string;
  execution: Execution;
  instructions?: string;
  skills?: Skill[];
  labels?: Record<string, JsonValue>;
  cwd: string;
}

/** One operation on an agent: a turn, or the nudge that follows a turn with no answer. */
export interface TurnOperation {
  /** Unique in the run; the engine settles each operation once through `settle`. */
  id: number;
  agent: string;
  /** 1-based in the agent's session; a nudge keeps its turn's number. */
  n: number;
  nudge: boolean;
  /** The prompt as the workflow wrote it (for a nudge, the turn's prompt). */
  prompt: string;
  /** What the agent is sent for a nudge. */
  nudgePrompt?: string;
  schema?: TSchema;
  label?: string;
  stage?: string;
  cwd: string;
  execution: Execution;
  /** Aborted when the engine cancels the operation; its reason is a CancelReason. */
  signal: AbortSignal;
  /** Hands the engine an answer (JSON text for a schema, else the text); the real check judges it. */
  submit(raw: string): AnswerVerdict;
}

/** How the host says an operation ended, when it ended without an accepted answer. */
export type HostEnd =
  | { kind: "submitted" }
  | { kind: "silent" }
  | { kind: "blocked"; reason: string }
  | { kind: "failed"; reason: string; login?: LoginNeeded }
  | { kind: "timed-out"; reason: string }
  | { kind: "cancelled"; reason: string };

export interface AgentHost {
  /** An agent was opened; a host may throw to refuse it. */
  opened(agent: OpenedAgent): void;
  /** Runs one operation. The engine races it against `operation.signal`. */
  run(operation: TurnOperation): Promise<HostEnd>;
  /** What the engine recorded for an operation: `unanswered` for one a nudge followed. */
  settle(operation: TurnOperation, outcome: Outcome): void;
}

export interface DecisionRequest {
  key: string;
  model: string;
  questions: Record<string, Question>;
  state?: JsonValue;
}

/** Per question: a choice's probability per option, a score's per level, a yes-no's of yes. */
export type QuestionDistribution = Record<string, number> | number[] | number;

export interface DecisionProvider {
  readonly name: string;
  /** Resolves to a distribution per question, or an Error the workflow's decide rejects with. */
  decide(request: DecisionRequest, signal: AbortSignal): Promise<Record<string, QuestionDistribution> | Error>;
}
