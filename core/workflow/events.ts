// Events: what a run is sent (its in.jsonl), the waits that take them by name, wf.emit to other
// runs, and the keep-alive window a run stays live in for events before it parks.

import { checkOptions } from "./callOptions.ts";
import { nearestOr } from "./unknownOptions.ts";
import type { TSchema } from "typebox";
import { AGENT_ENDED, PARTICIPANT_REPLY } from "./builtInEvents.ts";
import { checkAnswer } from "./answerCheck.ts";
import { durationToMilliseconds } from "./durations.ts";
import { whyNotJson, type JsonValue } from "./json.ts";
import { appendRunLine } from "./runLog.ts";
import type { Moment } from "./clock.ts";
import { untilToTime, waitOn, type WaitingAttempt } from "./waits.ts";
import type { EmitRecord, EventRef, EventWaitOptions, EventWaitResult, KeepAliveOptions, ReceivedEvent } from "./types.ts";

export type EventSender = "outside" | "engine";

export interface EventToSend {
  name: string;
  data: unknown;
  eventId?: string;
}

export type Delivery = { ok: true; event: ReceivedEvent } | { ok: false; code: EventRefusal; message: string };
export type EventRefusal = "undeclared" | "engine-only" | "data-refused" | "duplicate-id" | "not-json";

interface Waiter {
  names: ReadonlySet<string>;
  take: (event: ReceivedEvent) => void;
}

const DEFAULT_KEEP_ALIVE_MS = 3_600_000;

export class EventInbox {
  /** Every event the run was sent, in order: its in.jsonl. */
  readonly lines: ReceivedEvent[] = [];
  /** When each of `lines` this attempt received came, by event id: the timeline's. */
  readonly moments = new Map<string, Moment>();
  /** How many run.jsonl lines the run had as each event arrived (an in.jsonl line's `runLines`). */
  readonly arrivedAfter = new WeakMap<ReceivedEvent, number>();
  /** Events no wait has taken yet, oldest first. */
  private readonly unread: ReceivedEvent[] = [];
  private readonly waiters: Waiter[] = [];
  readonly emits: EmitRecord[] = [];
  /** Participant keys whose `{key}:reply` the run takes; the messages part registers them. */
  readonly participants = new Set<string>();
  keepAlive: { windowMs: number; onTimeout?: KeepAliveOptions["onTimeout"] } | undefined;
  /** Offered each event first; true when it took the event (a participant's reply to a question, messages.ts). */
  claim: ((event: ReceivedEvent) => boolean) | undefined;

  constructor(
    private readonly attempt: WaitingAttempt,
    private readonly declared: Readonly<Record<string, TSchema>>,
  ) {}

  /** The schema an event name carries, or why the run takes no such event from this sender. */
  schemaOf(name: string, sender: EventSender): { schema: TSchema } | { code: EventRefusal; message: string } {
    const declared = this.declared[name];
    if (declared) return { schema: declared };
    const [key, suffix] = splitEventName(name);
    if (suffix === "ended" && key) {
      return sender === "engine"
        ? { schema: AGENT_ENDED }
        : { code: "engine-only", message: `"${name}" is awf's own event, sent when agent "${key}" ends; nobody else sends it` };
    }
    if (suffix === "reply" && key && this.participants.has(key)) return { schema: PARTICIPANT_REPLY };
    const known = [...Object.keys(this.declared), ...[...this.participants].map((participant) => `${participant}:reply`)];
    return {
      code: "undeclared",
      message: `the workflow declares no event "${name}"; ${nearestOr(name, known, `it takes ${known.length ? known.map((known) => `"${known}"`).join(", ") : "none"}`)}`,
    };
  }

  /** Checks an event as `awf emit` would, records it in in.jsonl, and hands it to the oldest wait for its name. */
  receive(sent: EventToSend, sender: EventSender, defaultId: () => string): Delivery {
    const schema = this.schemaOf(sent.name, sender);
    if ("code" in schema) return { ok: false, ...schema };
    const why = whyNotJson(sent.data === undefined ? null : sent.data);
    if (why) return { ok: false, code: "not-json", message: `event "${sent.name}"'s data is not JSON: ${why}` };
    const data = JSON.parse(JSON.stringify(sent.data ?? null)) as JsonValue;
    const verdict = checkAnswer(schema.schema, JSON.stringify(data));
    if (!verdict.accepted) return { ok: false, code: "data-refused", message: `event "${sent.name}"'s data does not fit its schema: ${verdict.error}` };
    const eventId = sent.eventId ?? defaultId();
    if (this.lines.some((line) => line.eventId === eventId)) {
      return { ok: false, code: "duplicate-id", message: `event id "${eventId}" was already sent to this run` };
    }
    const event: ReceivedEvent = { eventId, name: sent.name, data, at: this.attempt.nowIso() };
    this.lines.push(event);
    this.moments.set(eventId, this.attempt.moment());
    this.arrivedAfter.set(event, this.attempt.runLog.length);
    this.deliver(event);
    return { ok: true, event };
  }

  /** Takes an event out of the unread ones without a wait (the starting event, which the run reads as wf.event). */
  markRead(event: ReceivedEvent): void {
    const index = this.unread.indexOf(event);
    if (index >= 0) this.unread.splice(index, 1);
  }

  /** Lays out events an earlier attempt was sent, already taken or not, without delivering them again. */
  restore(lines: readonly ReceivedEvent[], unread: readonly ReceivedEvent[]): void {
    this.lines.push(...lines);
    this.unread.push(...unread);
  }

  private deliver(event: ReceivedEvent): void {
    if (this.claim?.(event)) return;
    const index = this.waiters.findIndex((waiter) => waiter.names.has(event.name));
    if (index >= 0) {
      const [waiter] = this.waiters.splice(index, 1);
      waiter!.take(event);
    } else this.unread.push(event);
  }

  wait(names: string | readonly string[], options: EventWaitOptions = {}): Promise<EventWaitResult> {
    const attempt = this.attempt;
    const wanted = new Set(typeof names === "string" ? [names] : names);
    if (wanted.size === 0) throw new TypeError("wf.events.wait needs an event name");
    checkOptions("wf.events.wait", "wf.events.wait", options);
    for (const name of wanted) {
      const schema = this.schemaOf(name, "engine");
      if ("code" in schema) throw attempt.violate(`wf.events.wait: ${schema.message}`);
    }
    const label = options.label ?? `waiting for ${[...wanted].map((name) => `"${name}"`).join(" or ")}`;
    const until = options.until === undefined ? undefined : untilToTime(attempt, options.until, "wf.events.wait's until");
    let waiter: Waiter | undefined;
    return waitOn<EventWaitResult>(attempt, {
      kind: "event",
      label,
      ...(until !== undefined ? { until, onUntil: () => ({ kind: "timeout" as const, until: new Date(until).toISOString() }) } : {}),
      start: (settle, sequence) => {
        const take = (event: ReceivedEvent) => {
          appendRunLine(attempt, { kind: "wait", wait: sequence, label, took: { eventId: event.eventId } });
          settle({ kind: "event", ...event });
        };
        const index = this.unread.findIndex((event) => wanted.has(event.name));
        if (index >= 0) return take(this.unread.splice(index, 1)[0]!);
        waiter = { names: wanted, take };
        this.waiters.push(waiter);
      },
      cleanup: () => {
        const index = waiter ? this.waiters.indexOf(waiter) : -1;
        if (index >= 0) this.waiters.splice(index, 1);
      },
      replayTake: (eventId) => {
        const event = this.lines.find((line) => line.eventId === eventId);
        if (!event) return { why: `took event "${eventId}" in the run's lines, but the run's in.jsonl has no such event` };
        if (!wanted.has(event.name)) return { why: `took event "${eventId}" ("${event.name}") in the run's lines, but in this attempt it is ${label}` };
        return { value: { kind: "event", ...event } };
      },
    });
  }

  emit(ref: EventRef, name: string, data: unknown, options: { eventId?: string } = {}): void {
    // An object names its run by both fields; anything else would read "undefined/undefined".
    const target = typeof ref === "string" ? ref : typeof ref?.workflow === "string" && typeof ref.id === "string" ? `${ref.workflow}/${ref.id}` : undefined;
    if (typeof target !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(target)) {
      throw new TypeError(`wf.emit needs a run, "workflow/id" or { workflow, id }, not ${JSON.stringify(ref)}`);
    }
    if (typeof name !== "string" || name === "") throw new TypeError("wf.emit needs an event name");
    checkOptions("wf.emit", "wf.emit", options, true);
    const why = whyNotJson(data === undefined ? null : data);
    if (why) throw new TypeError(`wf.emit: event "${name}"'s data is not JSON: ${why}`);
    this.emits.push({
      ref: target,
      name,
      data: JSON.parse(JSON.stringify(data ?? null)) as JsonValue,
      ...(options.eventId !== undefined ? { eventId: options.eventId } : {}),
    });
  }

  setKeepAlive(options: KeepAliveOptions = {}, defaultWindowMs = DEFAULT_KEEP_ALIVE_MS): void {
    checkOptions("wf.keepAlive", "wf.keepAlive", options);
    if (options.onTimeout !== undefined) checkOptions("wf.keepAlive's onTimeout", "onTimeout", options.onTimeout);
    const windowMs = options.window === undefined ? defaultWindowMs : durationToMilliseconds(options.window, "keepAlive's window");
    this.keepAlive = { windowMs, ...(options.onTimeout ? { onTimeout: options.onTimeout } : {}) };
  }
}

/** "reviewer:ended" → ["reviewer", "ended"]; the key may itself hold colons. */
export function splitEventName(name: string): [string | undefined, string | undefined] {
  const at = name.lastIndexOf(":");
  return at <= 0 ? [undefined, undefined] : [name.slice(0, at), name.slice(at + 1)];
}
