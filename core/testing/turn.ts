// The turn a script function gets (`Turn`) and the record a run keeps of it (`TestTurn`).

import type { TSchema } from "typebox";
import type { SendOptions, SendResult, ToolResult } from "../workflow/messageTypes.ts";

export type { SendResult, ToolResult };

/** A message as an agent was shown it. */
export interface TurnMessage {
  from: string;
  text: string;
  /** It awaits a reply: the agent owes one. */
  asks: boolean;
  /** It is the reply to a question the agent asked. */
  answers: boolean;
}

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
  /** `wfa send`: resolves to `sent`, `replied` with `text`, `failed` with a `reason`, or `refused` with a `code`. */
  send(peer: string, text: string, options?: SendOptions): Promise<SendResult>;
  /** `wfa reply`: answers the oldest question from `peer` among the messages the agent was shown. */
  reply(peer: string, text: string, options?: SendOptions): Promise<SendResult>;
  tool(name: string, input?: unknown): Promise<ToolResult>;
}

export type TestOutcomeKind = "answered" | "unanswered" | "blocked" | "failed" | "timed-out" | "cancelled" | "waiting" | "awaiting-reply";

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
