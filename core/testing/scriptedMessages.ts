// The `messages` option: each message that wakes an agent is met by the agent's messages script
// (`(message) => …`, or a list, one per message), walked like `agents`; and the `wfa` calls a
// script makes (`turn.send`, `reply`, `tool`), a turn reading `awaiting-reply` while one waits.

import { refuseUnknownOptions } from "../workflow/unknownOptions.ts";
import { messageOf } from "../workflow/errors.ts";
import type { HostEnd, TurnOperation } from "../workflow/host.ts";
import { firstLine } from "../workflow/json.ts";
import type { SendOptions, SendResult, ToolResult } from "../workflow/messageTypes.ts";
import { firstUserFrame } from "./callSite.ts";
import { describe, functionEntry, isAnswer, isEntry, isNoAnswer, type Entry, type NoAnswer } from "./entries.ts";
import { plural, quoted } from "./problems.ts";
import { isObjectValue, isOpaque, mayHoldMore } from "./notKnown.ts";
import { emptyScriptList, globToRegExp, scriptLabel, ScriptError, type ScriptBook, type ScriptRefusal, type ScriptSlot } from "./scripts.ts";
import type { MatchTrace, ProblemTrace, SourceSite, TurnTrace } from "./trace.ts";
import type { TestTurn, Turn } from "./turn.ts";

type Awaitable<T> = T | Promise<T>;

/** A message that woke an agent, as its messages script gets it. */
export interface ScriptMessage {
  from: string;
  text: string;
  /** It awaits a reply: the agent owes one. */
  asks: boolean;
  /** It is the reply to a question the agent asked. */
  answers: boolean;
  /** The wake as a turn: its `messages`, `cause`, `n` (the agent's last turn's), `nudge` for the one reminder. */
  turn: Turn;
  /** Replies to the message's sender, as `wfa reply`. */
  reply(text: string, options?: SendOptions): Promise<SendResult>;
  send(peer: string, text: string, options?: SendOptions): Promise<SendResult>;
  tool(name: string, input?: unknown): Promise<ToolResult>;
}

/**
 * What it returns ends the wake: a noAnswer ends it that way; anything else (nothing, text, what
 * `message.reply` resolved to) ends it as the agent stopping, its reply sent or not.
 */
export type MessageFunction = (message: ScriptMessage) => Awaitable<unknown>;

/** A messages script: one function (or noAnswer) for every message that wakes the agent, or a list, one per message. */
export type MessageScript = MessageFunction | NoAnswer | readonly (MessageFunction | NoAnswer)[];

const never = new Promise<never>(() => {});

function scriptError(code: ProblemTrace["code"], message: string, key?: string): ScriptError {
  return new ScriptError({ code, message, option: "messages", ...(key !== undefined ? { key } : {}) });
}

/** The words for a `messages` script that is not a function or a noAnswer. */
const notAMessageScript = (label: string, written: string): string => `${label} must be (message) => …, noAnswer.…() or a list of them, not ${written}`;

/**
 * Every refusal of the `messages` option: the map's, or each key's (a function, a noAnswer, or a
 * non-empty list of them). The run throws the first; the editor shows them all before the run.
 */
export function messageScriptRefusals(map: unknown): ScriptRefusal[] {
  if (map === undefined) return [];
  const isObject = isObjectValue(map);
  if (isObject === undefined) return [];
  if (!isObject) {
    return [{ problem: scriptError("script-invalid", `messages must map an agent's key to a script for the messages that wake it, not ${describe(map)}`).problem }];
  }
  return Object.entries(map as Record<string, unknown>).flatMap(([key, script]) => {
    const label = scriptLabel("messages", key);
    if (Array.isArray(script) && script.length === 0) return [{ problem: scriptError("script-empty-list", emptyScriptList(label, "message"), key).problem }];
    const given = Array.isArray(script) ? script : [script];
    // A hole is skipped, as the run's map skips it.
    const bad = given.findIndex((entry, index) => index in given && isMessageEntry(entry) === false);
    if (bad < 0) return [];
    return [{ problem: scriptError("script-invalid", notAMessageScript(label, describe(script)), key).problem, ...(Array.isArray(script) ? { index: bad } : {}) }];
  });
}

/** Whether a value is a messages entry (a function or a noAnswer); undefined when the text cannot tell. */
function isMessageEntry(value: unknown): boolean | undefined {
  if (typeof value === "function" || isNoAnswer(value)) return true;
  return isOpaque(value) || (mayHoldMore(value) && !isEntry(value)) ? undefined : false;
}

/** Checks the `messages` option: each key or glob to a function, a noAnswer, or a non-empty list of them. */
export function readMessageScripts(map: unknown): ScriptSlot[] {
  const [refused] = messageScriptRefusals(map);
  if (refused) throw new ScriptError(refused.problem);
  if (map === undefined) return [];
  const toEntry = (value: unknown): Entry => (typeof value === "function" ? functionEntry(value as MessageFunction) : (value as NoAnswer));
  return Object.entries(map as Record<string, unknown>).map(([key, script]) => ({
    key,
    entries: (Array.isArray(script) ? script : [script]).map(toEntry),
    isList: Array.isArray(script),
    ...(key.includes("*") ? { glob: globToRegExp(key) } : {}),
  }));
}

/** `agent "<k>" message <m>[ (reminder)]: <why>. It was sent by "<peer>": <first line>`, with its data. */
export function messageProblem(code: ProblemTrace["code"], operation: TurnOperation, wake: number, why: string, extra: Partial<ProblemTrace> = {}): ProblemTrace {
  const cause = operation.cause;
  const head = `agent "${operation.agent}" message ${wake}${operation.nudge ? " (reminder)" : ""}: ${why}`;
  return {
    code,
    message: cause ? `${head}. It was sent by "${cause.from}": ${firstLine(cause.text)}` : head,
    option: "messages",
    agent: operation.agent,
    wake,
    nudge: operation.nudge,
    ...(cause ? { from: cause.from, prompt: cause.text } : {}),
    ...extra,
  };
}

/** The record of an operation a script's `wfa` calls mark while a reply is awaited. */
export interface AwaitingRecord {
  turn: TestTurn;
  trace: TurnTrace;
}

/**
 * The agent's `wfa` calls as a script makes them, through the engine's operation. While a reply
 * is awaited the turn reads `awaiting-reply`; every call that ends counts as activity.
 */
export function agentCalls(operation: TurnOperation, record: AwaitingRecord | undefined, activity: () => void): Pick<Turn, "send" | "reply" | "tool"> {
  const awaiting = async (call: () => Promise<SendResult>, awaits: boolean | undefined): Promise<SendResult> => {
    if (!awaits || !record) return call().finally(activity);
    const before = record.turn.outcome;
    record.turn.outcome = "awaiting-reply";
    record.trace.outcome = "awaiting-reply";
    try {
      return await call();
    } finally {
      // The engine may have settled the turn meanwhile, or be about to cancel it: its outcome stands.
      if (record.turn.outcome === "awaiting-reply" && !operation.signal.aborted) {
        record.turn.outcome = before;
        record.trace.outcome = before;
      }
      activity();
    }
  };
  return {
    // `wfa send` refuses a flag it doesn't know; a script's misspelt option is its mistake, by name.
    send: async (peer, text, options) => {
      refuseUnknownOptions("turn.send", options, SEND_OPTIONS);
      return awaiting(() => operation.send(peer, text, options), options?.awaitReply);
    },
    reply: async (peer, text, options) => {
      refuseUnknownOptions("turn.reply", options, SEND_OPTIONS);
      return awaiting(() => operation.reply(peer, text, options), options?.awaitReply);
    },
    tool: (name, input) => operation.tool(name, input).finally(activity),
  };
}

const SEND_OPTIONS = ["awaitReply", "timeout"] as const;

export class ScriptedMessages {
  /** The messages entry that met each message's wake, by message id. */
  readonly matches = new Map<string, MatchTrace>();
  /** Wakes per agent, reminders not counted: a list's position. */
  private readonly wakes = new Map<string, number>();

  constructor(
    private readonly book: ScriptBook,
    private readonly fail: (problem: ProblemTrace) => void,
  ) {}

  leftovers(): ProblemTrace[] {
    return this.book.leftovers();
  }

  /** Meets a `message` operation with the agent's messages script. */
  async meet(
    operation: TurnOperation,
    turn: Turn,
    trace: TurnTrace,
    noAnswer: (entry: NoAnswer, at: Partial<ProblemTrace>) => Promise<HostEnd> | HostEnd,
  ): Promise<HostEnd> {
    const agent = operation.agent;
    const wake = operation.nudge ? (this.wakes.get(agent) ?? 1) : (this.wakes.get(agent) ?? 0) + 1;
    this.wakes.set(agent, wake);
    const found = this.book.find(agent);
    if (!found.found) {
      if (found.code === "glob-conflict") return this.failWith(messageProblem("glob-conflict", operation, wake, found.why, { patterns: found.patterns! }));
      const scripted = this.book.slots.map((slot) => slot.key);
      const why = `a message woke it, and "messages" has no script for it${scripted.length ? `; scripted: ${quoted(scripted)}` : ""}`;
      return this.failWith(messageProblem("message-unscripted", operation, wake, why));
    }
    const { slot, pattern } = found;
    const walked = this.book.entryFor(agent, slot, pattern, wake);
    if (!walked) {
      const sites = slot.entries.map((entry) => entry.site).filter((site): site is SourceSite => !!site);
      return this.failWith(
        messageProblem("list-exhausted", operation, wake, `its messages script${pattern ? ` ("${pattern}")` : ""} has ${plural(slot.entries.length, "message")}`, {
          key: slot.key,
          ...(pattern ? { pattern } : {}),
          index: wake - 1,
          sites,
          ...(sites.length ? { site: sites[sites.length - 1]! } : {}),
        }),
      );
    }
    const { entry, index } = walked;
    const match: MatchTrace = {
      option: "messages",
      key: slot.key,
      ...(pattern ? { pattern } : {}),
      index,
      nudge: operation.nudge,
      ...(entry.site ? { site: entry.site } : {}),
    };
    trace.match = match;
    if (operation.cause) this.matches.set(operation.cause.id, match);
    const at: Partial<ProblemTrace> = { key: slot.key, ...(pattern ? { pattern } : {}), index, ...(entry.site ? { site: entry.site } : {}) };
    if (isNoAnswer(entry)) return noAnswer(entry, at);
    if (!isAnswer(entry) || !entry.respond)
      return this.failWith(messageProblem("script-invalid", operation, wake, `its messages script is not a function: ${describe(entry)}`, at));

    const cause = operation.cause!;
    const message: ScriptMessage = {
      from: cause.from,
      text: cause.text,
      asks: cause.asks,
      answers: cause.answers,
      turn,
      reply: (text, options) => turn.reply(cause.from, text, options),
      send: (peer, text, options) => turn.send(peer, text, options),
      tool: (name, input) => turn.tool(name, input),
    };
    const aborted = new Promise<"aborted">((resolve) => {
      if (operation.signal.aborted) resolve("aborted");
      operation.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
    });
    let returned: unknown;
    try {
      const raced = await Promise.race([Promise.resolve((entry.respond as unknown as MessageFunction)(message)).then((given) => ({ given })), aborted]);
      if (raced === "aborted") return { kind: "cancelled", reason: "the engine cancelled the wake" };
      returned = raced.given;
    } catch (error) {
      const thrownAt = error instanceof Error ? firstUserFrame(error) : undefined;
      return this.failWith(
        messageProblem("message-script-threw", operation, wake, `its messages script threw: ${messageOf(error)}`, { ...at, ...(thrownAt ? { thrownAt } : {}) }),
      );
    }
    if (isNoAnswer(returned)) return noAnswer(returned, at);
    if (isEntry(returned)) {
      return this.failWith(
        messageProblem("message-script-returned", operation, wake, "its messages script returned answer(…); a wake ends with nothing or a noAnswer", at),
      );
    }
    // A wake's own result is the engine's, never the workflow's: text is kept, anything else ends it.
    if (typeof returned === "string") {
      operation.submit(returned);
      return { kind: "submitted" };
    }
    return { kind: "silent" };
  }

  private failWith(problem: ProblemTrace): Promise<never> {
    this.fail(problem);
    return never;
  }
}
