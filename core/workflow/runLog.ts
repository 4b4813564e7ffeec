// The run's two logs: the helpers that append run.jsonl's lines (their types are in runLines.ts)
// and the readers a continue checks run.jsonl and in.jsonl with. docs/data.md describes every line.

import type { Attempt } from "./attempt.ts";
import type { HostEnd, OpenedAgent, TurnOperation } from "./host.ts";
import { whyNotJson, type JsonValue } from "./json.ts";
import { plainRecord } from "./plainRecords.ts";
import { LOG_VERSION, type InLine, type RunLine, type StageLine, type StageRecord, type TurnBegunLine, type TurnEndedLine, type UnstampedRunLine } from "./runLines.ts";
import type { Outcome, ReceivedEvent } from "./types.ts";

// Writing ----------------------------------------------------------------------------------------

/** Appends a line the attempt settled to its run.jsonl. */
export function appendRunLine(attempt: Attempt, line: UnstampedRunLine, about = attempt.settings.attempt): void {
  attempt.runLog.push({ v: LOG_VERSION, attempt: about, ...line } as RunLine);
}

export function stageLine(record: StageRecord, waits: number): RunLine {
  return { v: LOG_VERSION, kind: "stage", ...record, ...(record.provided ? { provided: true } : {}), waits } as StageLine;
}

/** The record a stage line holds, as `run.stages` shows it. */
export function recordOfStageLine(line: StageLine): StageRecord {
  const { v: _v, kind: _kind, waits: _waits, provided, ...record } = line;
  return { ...record, ...(provided ? { provided: true } : {}) };
}

/** An agent's session was opened: its harness and model. */
export function logSession(attempt: Attempt, agent: OpenedAgent): void {
  appendRunLine(attempt, { kind: "session", agent: agent.key, harness: agent.execution.harness, model: agent.execution.model, at: attempt.nowIso() });
}

/**
 * Writes an operation's begun line; the returned function writes its ended line from how its host
 * ended it (`submitted` with an accepted answer is `answered`, without one `silent`) or how it was cut short.
 */
export function logOperation(attempt: Attempt, operation: TurnOperation): (end: HostEnd | Outcome, answered: { value: unknown } | undefined) => void {
  const schema = operation.schema === undefined ? undefined : schemaAsJson(operation.schema);
  const attemptNumber = attempt.settings.attempt;
  attempt.runLog.push(new TurnBegun(attemptNumber, operation, attempt.nowIso(), schema));
  return (end, answered) => {
    const kind: TurnEndedLine["end"] = end.kind === "submitted" ? (answered !== undefined ? "answered" : "silent") : end.kind === "unanswered" ? "silent" : end.kind;
    const reason = "reason" in end ? end.reason : undefined;
    const at = attempt.nowIso();
    const answer = kind === "answered" && answered !== undefined ? parsedAsJson(answered.value) : undefined;
    attempt.runLog.push(new TurnEnded(attemptNumber, operation, kind, reason, at, answer));
  };
}

// Each line is made once, field by field in the order the lines always had, by a constructor of
// plain objects (plainRecords.ts): a run keeps two lines a turn until it ends, and they were most
// of what a 1,000-turn run's young collections copied.
const TurnBegun = plainRecord(function (this: TurnBegunLine, attempt: number, operation: TurnOperation, at: string, schema: JsonValue | undefined) {
  this.v = LOG_VERSION;
  this.attempt = attempt;
  this.kind = "turn-begun";
  this.op = operation.id;
  this.agent = operation.agent;
  this.operation = operation.kind ?? "turn";
  this.n = operation.n;
  this.nudge = operation.nudge;
  if (operation.stage !== undefined) this.stage = operation.stage;
  if (operation.label !== undefined) this.label = operation.label;
  this.at = at;
  if (!operation.nudge) this.prompt = operation.prompt;
  if (schema !== undefined) this.schema = schema;
});

const TurnEnded = plainRecord(function (
  this: TurnEndedLine,
  attempt: number,
  operation: TurnOperation,
  end: TurnEndedLine["end"],
  reason: string | undefined,
  at: string,
  answer: JsonValue | undefined,
) {
  this.v = LOG_VERSION;
  this.attempt = attempt;
  this.kind = "turn-ended";
  this.op = operation.id;
  this.agent = operation.agent;
  this.n = operation.n;
  this.end = end;
  if (reason !== undefined) this.reason = reason;
  this.at = at;
  if (answer !== undefined) this.answer = answer;
});

// A workflow asks many turns of the same few schemas: each one's JSON is made once.
const schemaJson = new WeakMap<object, JsonValue | null>();
function schemaAsJson(schema: object): JsonValue | undefined {
  let json = schemaJson.get(schema);
  if (json === undefined) schemaJson.set(schema, (json = deepFreeze(asJson(schema) ?? null)));
  return json ?? undefined;
}

/** Frozen, since every line of the schema shares the one copy. */
function deepFreeze<Value>(value: Value): Value {
  if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** What a copy of a parsed value stops at: a number JSON has no text for. */
const NOT_JSON = Symbol("not JSON");

/**
 * What asJson gives for a value JSON.parse made (an accepted answer: its text parsed, or the text
 * itself), made in one walk rather than a check, a stringify and a parse on every answered turn.
 * Such a value is plain data already; what asJson changes in one is kept: -0 is written 0, and a
 * number out of range (`1e400` parses to Infinity) makes it no JSON.
 */
function parsedAsJson(value: unknown): JsonValue | undefined {
  const copy = copyOfParsed(value);
  return copy === NOT_JSON ? undefined : copy;
}

function copyOfParsed(value: unknown): JsonValue | typeof NOT_JSON {
  if (typeof value === "number") return Number.isFinite(value) ? value + 0 : NOT_JSON;
  if (typeof value !== "object" || value === null) return value as JsonValue;
  if (Array.isArray(value)) {
    const copy: JsonValue[] = [];
    for (const item of value) {
      const itemCopy = copyOfParsed(item);
      if (itemCopy === NOT_JSON) return NOT_JSON;
      copy.push(itemCopy);
    }
    return copy;
  }
  const copy: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value)) {
    const child = copyOfParsed((value as Record<string, unknown>)[key]);
    if (child === NOT_JSON) return NOT_JSON;
    // A key "__proto__" is an own field of what JSON.parse made; an assignment would set the prototype.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: child, enumerable: true, writable: true, configurable: true });
    else copy[key] = child;
  }
  return copy;
}

/** `value` as plain JSON, or undefined when it is none (a schema with a function in it, a cycle). */
export function asJson(value: unknown): JsonValue | undefined {
  if (value === undefined || whyNotJson(value)) return undefined;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** An event as in.jsonl has it; `runLines` is how many run.jsonl lines the run had when it arrived. */
export function toInLine(event: ReceivedEvent, runLines?: number): InLine {
  return { v: LOG_VERSION, kind: "event", ...event, ...(runLines !== undefined ? { runLines } : {}) };
}

export function fromInLine(line: InLine): ReceivedEvent {
  return { eventId: line.eventId, name: line.name, data: line.data, at: line.at };
}

// Reading ----------------------------------------------------------------------------------------

/** A line a reader refused: its message names the file, the line (0 for the whole input) and what is wrong. */
export class LogLineError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    why: string,
  ) {
    super(line === 0 ? `${file}: ${why}` : `${file} line ${line}: ${why}`);
    this.name = "LogLineError";
  }
}

type FieldCheck = (value: unknown) => string | undefined;

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const show = (value: unknown) => (value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value)));

const text: FieldCheck = (value) => (typeof value === "string" && value !== "" ? undefined : `must be text, not ${show(value)}`);
const anyText: FieldCheck = (value) => (typeof value === "string" ? undefined : `must be text, not ${show(value)}`);
const count: FieldCheck = (value) =>
  typeof value === "number" && Number.isInteger(value) && value >= 1 ? undefined : `must be a whole number from 1, not ${show(value)}`;
const countFromZero: FieldCheck = (value) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 ? undefined : `must be a whole number, not ${show(value)}`;
const time: FieldCheck = (value) =>
  typeof value === "string" && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : `must be an ISO time, not ${show(value)}`;
const flag: FieldCheck = (value) => (typeof value === "boolean" ? undefined : `must be true or false, not ${show(value)}`);
const yes: FieldCheck = (value) => (value === true ? undefined : `is only ever true, not ${show(value)}`);
const json: FieldCheck = (value) => {
  const why = whyNotJson(value);
  return why ? `is not JSON: ${why.replace(/^\$/, "the value")}` : undefined;
};
const oneOf =
  (...allowed: string[]): FieldCheck =>
  (value) =>
    typeof value === "string" && allowed.includes(value) ? undefined : `must be one of ${allowed.map((name) => `"${name}"`).join(", ")}, not ${show(value)}`;
const took: FieldCheck = (value) =>
  value === "timeout" || (typeof value === "object" && value !== null && typeof (value as { eventId?: unknown }).eventId === "string")
    ? undefined
    : `must be { eventId } or "timeout", not ${show(value)}`;

/** Each kind's fields: required ones, then optional ones (a trailing `?`). */
const RUN_LINE_FIELDS: Record<RunLine["kind"], Record<string, FieldCheck>> = {
  attempt: { at: time, "event?": text, "starts?": yes, "fromStage?": text, "id?": text, "args?": json },
  stage: {
    name: text,
    outcome: oneOf("succeeded", "stopped", "failed"),
    started: time,
    at: time,
    waits: countFromZero,
    "summary?": anyText,
    "reason?": anyText,
    "value?": json,
    "provided?": yes,
  },
  timer: { wait: count, label: anyText, due: time, state: oneOf("pending", "fired", "cancelled") },
  wait: { wait: count, label: anyText, took },
  session: { agent: text, harness: text, model: anyText, at: time },
  "turn-begun": {
    op: count,
    agent: text,
    operation: text,
    n: count,
    nudge: flag,
    at: time,
    "stage?": text,
    "label?": anyText,
    "prompt?": anyText,
    "schema?": json,
  },
  "turn-ended": {
    op: count,
    agent: text,
    n: count,
    end: oneOf("answered", "silent", "blocked", "failed", "timed-out", "cancelled"),
    at: time,
    "reason?": anyText,
    "answer?": json,
  },
  decision: { key: text, at: time, "answers?": json, "error?": anyText },
};

const IN_LINE_FIELDS: Record<string, Record<string, FieldCheck>> = {
  event: { eventId: text, name: text, data: json, at: time, "runLines?": countFromZero },
};

/** JSONL text or a list of parsed lines, as (line number, value) pairs; a torn last line of text is skipped. */
function entriesOf(input: unknown, file: string): Array<[number, unknown]> {
  if (typeof input === "string") {
    const rows = input.split("\n");
    const torn = !input.endsWith("\n");
    const entries: Array<[number, unknown]> = [];
    rows.forEach((row, index) => {
      if (row.trim() === "") return;
      try {
        entries.push([index + 1, JSON.parse(row)]);
      } catch (error) {
        // A crash mid-write leaves the last line torn; everything before it is whole.
        if (torn && index === rows.length - 1) return;
        throw new LogLineError(file, index + 1, `not JSON: ${(error as Error).message}`);
      }
    });
    return entries;
  }
  if (!Array.isArray(input)) throw new LogLineError(file, 0, `the lines must be a list (or JSONL text), not ${show(input)}`);
  return input.map((value, index) => [index + 1, value]);
}

const article = (word: string) => (/^[aeiou]/.test(word) ? "an" : "a");

function checkLine(file: string, number: number, value: unknown, kinds: Record<string, Record<string, FieldCheck>>): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new LogLineError(file, number, `a line is an object, not ${show(value)}`);
  const line = value as Record<string, unknown>;
  if (!("v" in line)) throw new LogLineError(file, number, `"v" is missing: every line has its version, ${LOG_VERSION}`);
  if (line.v !== LOG_VERSION) throw new LogLineError(file, number, `version ${show(line.v)} is not one this Turnlens reads; it reads version ${LOG_VERSION}`);
  const names = Object.keys(kinds);
  if (typeof line.kind !== "string" || !(line.kind in kinds)) {
    throw new LogLineError(file, number, `kind ${show(line.kind)} is not a line of ${file}; its kinds are ${names.map((name) => `"${name}"`).join(", ")}`);
  }
  for (const [field, check] of Object.entries(kinds[line.kind]!)) {
    const optional = field.endsWith("?");
    const name = optional ? field.slice(0, -1) : field;
    if (line[name] === undefined) {
      if (optional) continue;
      throw new LogLineError(file, number, `${article(line.kind)} ${line.kind} line needs "${name}"`);
    }
    const why = check(line[name]);
    if (why) throw new LogLineError(file, number, `"${name}" of ${article(line.kind)} ${line.kind} line ${why}`);
  }
  return line.kind;
}

/**
 * Reads run.jsonl lines (parsed, or as JSONL text), checking each: its version, its kind, and the
 * fields that kind has. Throws a LogLineError naming the first line that is wrong and why.
 */
export function readRunLines(input: unknown, file = "run.jsonl"): RunLine[] {
  const lines: RunLine[] = [];
  for (const [number, value] of entriesOf(input, file)) {
    checkLine(file, number, value, RUN_LINE_FIELDS);
    const line = value as Record<string, unknown>;
    const why = count(line.attempt);
    if (line.attempt === undefined) throw new LogLineError(file, number, `${article(String(line.kind))} ${line.kind} line needs "attempt"`);
    if (why) throw new LogLineError(file, number, `"attempt" of ${article(String(line.kind))} ${line.kind} line ${why}`);
    lines.push(line as unknown as RunLine);
  }
  return lines;
}

/** Reads in.jsonl lines as readRunLines does; an event id on two lines is refused too. */
export function readInLines(input: unknown, file = "in.jsonl"): InLine[] {
  const lines: InLine[] = [];
  const seen = new Map<string, number>();
  for (const [number, value] of entriesOf(input, file)) {
    checkLine(file, number, value, IN_LINE_FIELDS);
    const line = value as InLine;
    const earlier = seen.get(line.eventId);
    if (earlier !== undefined) throw new LogLineError(file, number, `event id "${line.eventId}" is on line ${earlier} too; an id names one event`);
    seen.set(line.eventId, number);
    lines.push(line);
  }
  return lines;
}

/** The attempt a continue over these lines is: one more than the latest they name, or 2. */
export function attemptAfter(lines: readonly RunLine[]): number {
  let latest = 1;
  for (const line of lines) latest = Math.max(latest, line.attempt);
  return latest + 1;
}
