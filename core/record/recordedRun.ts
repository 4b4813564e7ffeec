// `turnlens record`'s reading of a run folder: its run.jsonl and in.jsonl (docs/data.md) as the
// turns each agent was asked, how each ended, and the events with the turn each came during or after.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readInLines, readRunLines } from "../workflow/runLog.ts";
import type { InLine, RunLine, TurnBegunLine, TurnEndedLine } from "../workflow/runLines.ts";
import type { JsonValue } from "../workflow/json.ts";

/** One operation on a turn: the turn itself, or its nudge. */
export interface RecordedEnd {
  nudge: boolean;
  end: TurnEndedLine["end"];
  reason?: string;
  answer?: JsonValue;
}

/** A turn as the run asked it, with how it and its nudge ended. */
export interface RecordedTurn {
  agent: string;
  n: number;
  prompt?: string;
  /** Absent for a turn that asks for text. */
  schema?: JsonValue;
  label?: string;
  stage?: string;
  ends: RecordedEnd[];
}

/** An event the test sends: during a turn, or after one ended. */
export interface RecordedEvent {
  name: string;
  data: JsonValue;
  eventId: string;
  when: "during" | "after";
  /** `agent#n`. */
  turn: string;
}

export interface RecordedRun {
  id?: string;
  args?: JsonValue;
  /** The event that started the run, read as `wf.event`. */
  startEvent?: { name: string; data: JsonValue; eventId: string };
  /** Every turn, in the order they began. */
  turns: RecordedTurn[];
  events: RecordedEvent[];
  /** The recorded operations, in order, for the check: agent, n, nudge. */
  operations: Array<{ agent: string; n: number; nudge: boolean }>;
  /** Each decision's provider answer by key, in the order they were decided: distributions, or an error's message. */
  decisions: Array<{ key: string; answers?: Record<string, JsonValue>; error?: string }>;
}

/** A run folder record cannot write a test of, and why (the message names the file and line). */
export class RecordError extends Error {
  override name = "RecordError";
}

/** Reads `folder`'s run.jsonl (needed) and in.jsonl (when there is one). */
export function readRunFolder(folder: string): { runLines: RunLine[]; inLines: InLine[] } {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new RecordError(`no such run folder: ${folder}`);
  const runFile = join(folder, "run.jsonl");
  if (!existsSync(runFile)) throw new RecordError(`${folder} has no run.jsonl: a run folder holds the run.jsonl and in.jsonl a run wrote`);
  const inFile = join(folder, "in.jsonl");
  try {
    return {
      runLines: readRunLines(readFileSync(runFile, "utf8"), runFile),
      inLines: existsSync(inFile) ? readInLines(readFileSync(inFile, "utf8"), inFile) : [],
    };
  } catch (error) {
    throw new RecordError((error as Error).message);
  }
}

/** `run.jsonl` and `in.jsonl` lines as the turns and events a test replays. Throws a RecordError for a run it cannot replay. */
export function recordedRun(runLines: readonly RunLine[], inLines: readonly InLine[], file = "run.jsonl"): RecordedRun {
  const attempts = new Set(runLines.filter((line) => line.kind === "attempt").map((line) => line.attempt));
  if (attempts.size > 1) {
    throw new RecordError(
      `${file} holds ${attempts.size} attempts; record writes a test of a run's first attempt (a continue's test gives earlier: { run, events } instead)`,
    );
  }
  const first = runLines.find((line) => line.kind === "attempt");
  const run: RecordedRun = { turns: [], events: [], operations: [], decisions: [] };
  if (first?.id !== undefined) run.id = first.id;
  if (first?.args !== undefined) run.args = first.args;
  const byOp = new Map<number, { line: TurnBegunLine; turn: RecordedTurn }>();
  const turnOf = new Map<string, RecordedTurn>();
  // Where each op began and ended, by line index, for placing the events among them.
  const begunAt = new Map<number, number>();
  const endedAt = new Map<number, number>();
  runLines.forEach((line, index) => {
    if (line.kind === "turn-begun") {
      if (line.operation === "compact") return; // a compaction with no script answers "", as it did
      if (line.operation !== "turn") {
        throw new RecordError(`${file} line ${index + 1}: agent "${line.agent}" was woken by a message; record does not write messages scripts yet`);
      }
      const key = `${line.agent}#${line.n}`;
      let turn = turnOf.get(key);
      if (!turn) {
        turn = { agent: line.agent, n: line.n, ends: [] };
        if (line.prompt !== undefined) turn.prompt = line.prompt;
        if (line.schema !== undefined) turn.schema = line.schema;
        if (line.label !== undefined) turn.label = line.label;
        if (line.stage !== undefined) turn.stage = line.stage;
        turnOf.set(key, turn);
        run.turns.push(turn);
      }
      if (!line.nudge && line.prompt === undefined) {
        throw new RecordError(`${file} line ${index + 1}: the turn has no "prompt"; a Turnlens older than record wrote these lines, and they cannot be replayed`);
      }
      byOp.set(line.op, { line, turn });
      begunAt.set(line.op, index);
      run.operations.push({ agent: line.agent, n: line.n, nudge: line.nudge });
    } else if (line.kind === "decision") {
      const earlier = run.decisions.find((decision) => decision.key === line.key);
      const given = { key: line.key, ...(line.answers !== undefined ? { answers: line.answers } : {}), ...(line.error !== undefined ? { error: line.error } : {}) };
      // A test's decisions script answers a key the same way each time it is decided.
      if (earlier && JSON.stringify(earlier) !== JSON.stringify(given)) {
        throw new RecordError(`${file} line ${index + 1}: decision "${line.key}" was decided again with another answer; a decisions script gives a key one answer`);
      }
      if (!earlier) run.decisions.push(given);
    } else if (line.kind === "turn-ended") {
      const begun = byOp.get(line.op);
      if (!begun) return;
      endedAt.set(line.op, index);
      if (line.end === "answered" && line.answer === undefined) {
        throw new RecordError(
          `${file} line ${index + 1}: the answered turn has no "answer"; a Turnlens older than record wrote these lines, and they cannot be replayed`,
        );
      }
      const end: RecordedEnd = { nudge: begun.line.nudge, end: line.end };
      if (line.reason !== undefined) end.reason = line.reason;
      if (line.answer !== undefined) end.answer = line.answer;
      begun.turn.ends.push(end);
    }
  });
  for (const [op, { turn, line }] of byOp) {
    if (!endedAt.has(op))
      throw new RecordError(`${file}: agent "${turn.agent}" turn ${turn.n}${line.nudge ? " (nudge)" : ""} never ended; record writes a test of a run that ended`);
  }
  const startId = first?.starts ? first.event : undefined;
  for (const event of inLines) {
    if (event.eventId === startId) {
      run.startEvent = { name: event.name, data: event.data, eventId: event.eventId };
      continue;
    }
    // The engine sends `{agent}:ended` itself; a replay sends it again.
    if (event.name.endsWith(":ended")) continue;
    // A participant's reply to an agent's message (`to` names it) went to that agent: the bus takes
    // it only while the question is open, so within the asking turn, whose recorded answer holds
    // it, or as a wake, refused above. The replay's participants say nothing (recordReplay.ts), so
    // it is left out. A `{key}:reply` with no `to` is the participant speaking to the workflow: an
    // event like any other, sent where it arrived.
    if (event.name.endsWith(":reply") && typeof (event.data as { to?: unknown } | null)?.to === "string") continue;
    const position = event.runLines ?? positionByTime(runLines, event.at);
    const placed = placeEvent(position, byOp, begunAt, endedAt);
    if (!placed) throw new RecordError(`in.jsonl: event "${event.name}" (${event.eventId}) arrived before any turn began; a test sends events during or after a turn`);
    run.events.push({ name: event.name, data: event.data, eventId: event.eventId, ...placed });
  }
  return run;
}

/** Lines written before `at`, for an in.jsonl line without `runLines`. */
function positionByTime(lines: readonly RunLine[], at: string): number {
  const time = Date.parse(at);
  let position = 0;
  lines.forEach((line, index) => {
    const lineAt = "at" in line ? Date.parse(line.at) : Number.NaN;
    if (lineAt <= time) position = index + 1;
  });
  return position;
}

/** During the latest turn in flight at `position`, else after the latest one that ended before it. */
function placeEvent(
  position: number,
  byOp: ReadonlyMap<number, { turn: RecordedTurn }>,
  begunAt: ReadonlyMap<number, number>,
  endedAt: ReadonlyMap<number, number>,
): { when: "during" | "after"; turn: string } | undefined {
  let during: { op: number; at: number } | undefined;
  let after: { op: number; at: number } | undefined;
  for (const [op, begun] of begunAt) {
    if (begun >= position) continue;
    const ended = endedAt.get(op) ?? Number.POSITIVE_INFINITY;
    if (ended >= position) {
      if (!during || begun > during.at) during = { op, at: begun };
    } else if (!after || ended > after.at) after = { op, at: ended };
  }
  const chosen = during ?? after;
  if (!chosen) return undefined;
  const turn = byOp.get(chosen.op)!.turn;
  return { when: during ? "during" : "after", turn: `${turn.agent}#${turn.n}` };
}
