// The turn a script function gets (`Turn`) and the record a run keeps of it (`TestTurn`).

import type { TSchema } from "typebox";

export interface TurnMessage {
  from: string;
  text: string;
  asks: boolean;
}

export type SendResult =
  | { kind: "sent" }
  | { kind: "replied"; text: string }
  | { kind: "failed"; reason: string }
  | { kind: "refused"; code: string };

export type ToolResult =
  | { kind: "result"; output: unknown }
  | { kind: "failed"; outcome: string; error: string }
  | { kind: "refused"; code: string; error: string };

/** A turn as the workflow asked it, given to a script function. */
export interface Turn<S extends TSchema | undefined = TSchema | undefined> {
  agent: string;
  /** 1-based in the agent's session; a nudge keeps its turn's number. */
  n: number;
  nudge: boolean;
  prompt: string;
  schema?: S;
  label?: string;
  stage?: string;
  cwd: string;
  model: string;
  effort?: string;
  /** The messages shown to the agent in this turn. */
  messages: TurnMessage[];
  /** The message that woke the agent; absent for the workflow's own run. */
  cause?: TurnMessage;
  /** Aborted when the engine cancels the turn. */
  signal: AbortSignal;
  send(peer: string, text: string, options?: { awaitReply?: boolean; timeout?: string }): Promise<SendResult>;
  reply(peer: string, text: string, options?: { awaitReply?: boolean; timeout?: string }): Promise<SendResult>;
  tool(name: string, input?: unknown): Promise<ToolResult>;
}

export type TestOutcomeKind =
  | "answered"
  | "unanswered"
  | "blocked"
  | "failed"
  | "timed-out"
  | "cancelled"
  | "waiting"
  | "awaiting-reply";

/** A turn as the run recorded it. */
export interface TestTurn {
  agent: string;
  n: number;
  nudge: boolean;
  prompt: string;
  schema?: TSchema;
  label?: string;
  stage?: string;
  cwd: string;
  model: string;
  effort?: string;
  cause?: TurnMessage;
  messages: TurnMessage[];
  outcome: TestOutcomeKind;
}
