// What the message bus (messages.ts) and the agent registry (agents.ts) share: a message as the
// bus keeps it, and the messaging half of an operation. The bus sits above the registry and wakes
// its agents; with these types below both, the registry names them without importing the bus.

import type { Moment } from "./clock.ts";
import type { CallCapture, TurnOperation } from "./host.ts";
import type { MessageRecord, SendResult } from "./messageTypes.ts";
import type { Scope } from "./scope.ts";

/** @internal A message as the bus keeps it: its public record, and where its question stands. */
export interface BusMessage {
  record: MessageRecord;
  /** A question still waiting for its reply. */
  open: boolean;
  /** Its recipient was shown it (an agent) or it was handed over (a participant). */
  shown: boolean;
  /** Settles the asker's wait, while one awaits the reply. */
  settle?: (result: SendResult) => void;
  /** The workflow's call that asked the turn whose agent sent it, when the host captures calls. */
  sentAt?: CallCapture;
  /** When it was sent, reached its recipient (shown, handed over), and ended (replied, failed): the timeline's. */
  moments: { sent: Moment; reached?: Moment; ended?: Moment };
}

/** What an operation's `send` and `reply` need of it: where it runs, and how it waits without working. */
export interface Asker {
  scope: Scope;
  idleWhile<T>(waiting: Promise<T>): Promise<T>;
  /** The workflow's call that asked the operation, which what it sends carries (`sentAt`). */
  askedAt?: CallCapture;
}

/**
 * @internal The messaging half of a TurnOperation, and the rule its result is checked by: one
 * object a turn, whose methods the operation's `send`, `reply`, `tool` and `owes` call (closures
 * per operation were several allocations a turn, each kept as long as the run's records).
 */
export interface OperationMessaging {
  /** The messages shown to the agent in this operation, and the one that woke it. */
  readonly messages: TurnOperation["messages"];
  readonly cause: TurnOperation["cause"];
  send: TurnOperation["send"];
  reply: TurnOperation["reply"];
  tool: TurnOperation["tool"];
  owes: TurnOperation["owes"];
  /** Why a result is refused now: the agent owes a reply. */
  refusesResult(): string | undefined;
}
