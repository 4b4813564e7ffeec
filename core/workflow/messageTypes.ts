// The workflow API's public types for messages: routes between agents and participants, the
// calls an agent makes (`wfa send`, `reply`, `tool`), and the tools a workflow gives its agents.

import type { Static, TSchema } from "typebox";
import type { JsonValue } from "./json.ts";

/** One end of a route: an agent or a participant, by its ref or its key. */
export type RouteEnd = string | { readonly key: string };

/** One way (`from` → `to`) or both ways (`between`), for a purpose the agents are told. */
export type RouteSpec = { from: RouteEnd; to: RouteEnd; purpose: string } | { between: readonly [RouteEnd, RouteEnd]; purpose: string };

export interface WorkflowMessages {
  /**
   * Lets messages go between two ends for a purpose. The same route again is the same route;
   * the same ends with another purpose reject.
   */
  allow(route: RouteSpec): Promise<void>;
}

export interface ParticipantSpec {
  key: string;
  labels?: Record<string, JsonValue>;
}

/** A session the engine did not start, such as a coordinator: it is messaged and replies. */
export interface ParticipantRef {
  readonly key: string;
  readonly labels?: Record<string, JsonValue>;
}

export interface WorkflowParticipants {
  /** Connects a participant, or returns the one connected under `key` when its labels match. */
  connect(spec: ParticipantSpec): Promise<ParticipantRef>;
}

/** How a route looks from a participant: messages go both ways, only to it, or only from it. */
export type RouteDirection = "both" | "to-participant" | "from-participant";

export interface SendOptions {
  /** Waits for the peer's reply; the peer owes one, and may send it back even on a one-way route. */
  awaitReply?: boolean;
  /** How long a question waits for its reply: a duration such as "2d", or an ISO time. */
  timeout?: string | Date;
}

/** Why a send or reply never left: values to act on, not throws. */
export type SendRefusal =
  | "no-route"
  | "unknown-peer"
  | "self"
  | "peer-ended"
  | "no-question"
  | "empty-text"
  | "invalid-timeout"
  | "attempt-ended"
  /** The sender's harness, where it runs, cannot block on a reply (harnesses.ts); `reason` says why. */
  | "cannot-await";

/** What a send or reply comes to, as `wfa send` prints it. */
export type SendResult =
  | { kind: "sent" }
  | { kind: "replied"; text: string }
  | { kind: "failed"; reason: string }
  | { kind: "refused"; code: SendRefusal; reason?: string };

/** A message as an agent is shown it. */
export interface AgentMessage {
  /** Unique in the run: `m1`, `m2`, … */
  id: string;
  from: string;
  text: string;
  /** It awaits a reply: the agent owes one. */
  asks: boolean;
  /** It is the reply to a question the agent asked. */
  answers: boolean;
}

/** How a message ended for its recipient (`run.messagesOf`). */
export type MessageEndState = "replied" | "failed" | "delivered" | "undelivered" | "pending";

/** Every message of a run, as the engine keeps it. */
export interface MessageRecord {
  id: string;
  from: string;
  to: string;
  text: string;
  awaitReply: boolean;
  /** The question it answers, for a reply. */
  answers?: string;
  end: MessageEndState;
  reason?: string;
}

// Tools ------------------------------------------------------------------------------------------

export interface ToolContext {
  /** The agent that called the tool. */
  agent: string;
  /** Where that agent works. */
  cwd: string;
  /** Aborted when the agent's operation is cancelled. */
  signal: AbortSignal;
}

/** A tool a workflow declares: agents it is granted to call it with input its schema accepts. */
export interface ToolSpec<S extends TSchema = TSchema, Output = unknown> {
  description: string;
  input: S;
  run(input: Static<S>, context: ToolContext): Output | Promise<Output>;
}

export type ToolRefusal = "unknown-tool" | "not-granted" | "input-refused";

/** What a tool call comes to, as `wfa tool` prints it. */
export type ToolResult =
  | { kind: "result"; output: JsonValue }
  | { kind: "failed"; outcome: "failed" | "cancelled" | "timed-out"; error: string }
  | { kind: "refused"; code: ToolRefusal; error: string };
