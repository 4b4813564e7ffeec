// The lines of the run's two logs as types: run.jsonl (what the run settled, in order) and
// in.jsonl (the events it was sent), and what an earlier attempt left for a continue (continues.ts).
// runLog.ts writes and reads them; docs/data.md describes each line.

import type { ReceivedEvent } from "./eventTypes.ts";
import type { JsonValue } from "./json.ts";
import type { Outcome, StageOutcome } from "./types.ts";

/** A stage's record: `run.stages` in a test, and a stage line of run.jsonl. */
export interface StageRecord {
  name: string;
  outcome: StageOutcome;
  attempt: number;
  /** ISO time on the run's clock. */
  started: string;
  /** ISO time it ended. */
  at: string;
  summary?: string;
  reason?: string;
  value?: JsonValue;
  /** The value was given (`values`) rather than made by the stage's work. */
  provided?: true;
}

/** The version every line this Turnlens writes carries, and the only one it reads. */
export const LOG_VERSION = 1;

interface RunLineBase {
  v: typeof LOG_VERSION;
  /** The attempt the line is about: the one that wrote it, or for a turn's end, the turn's own. */
  attempt: number;
}

/** An attempt began: the first line each attempt writes. */
export interface AttemptLine extends RunLineBase {
  kind: "attempt";
  at: string;
  /** The id of the event that started or woke it. */
  event?: string;
  /** The event started the run: the run reads it as `wf.event`, and no wait takes it. */
  starts?: true;
  fromStage?: string;
  /** The run's id (`wf.runId`). */
  id?: string;
  /** The args the attempt ran with, when they are JSON and not null: what `turnlens record` writes as a test's `args`. */
  args?: JsonValue;
}

/** A stage's record, as `run.stages` reads it, and how many waits it made. */
export interface StageLine extends RunLineBase, Omit<StageRecord, "attempt"> {
  kind: "stage";
  /** The waits made while it was open; a continue that reuses it skips their numbers. */
  waits: number;
}

/** A wait's timer: written `pending` when set, with its due time, and again when it fired or was cancelled. */
export interface TimerLine extends RunLineBase {
  kind: "timer";
  /** The wait's number in the run: waits are numbered in call order, the same on every attempt. */
  wait: number;
  label: string;
  due: string;
  state: "pending" | "fired" | "cancelled";
}

/** What an event wait took. */
export interface WaitLine extends RunLineBase {
  kind: "wait";
  wait: number;
  label: string;
  took: { eventId: string } | "timeout";
}

/** An agent's session was opened. */
export interface SessionLine extends RunLineBase {
  kind: "session";
  agent: string;
  harness: string;
  model: string;
  at: string;
}

/** An operation on an agent (a turn, its nudge, a compaction) was handed to its host. */
export interface TurnBegunLine extends RunLineBase {
  kind: "turn-begun";
  /** The operation's id, unique in its attempt. */
  op: number;
  agent: string;
  operation: string;
  n: number;
  nudge: boolean;
  stage?: string;
  label?: string;
  at: string;
  /** The prompt as the workflow wrote it (a compaction's focus); a nudge's is its turn's, so a nudge line has none. */
  prompt?: string;
  /** The JSON Schema the answer was checked against; absent for a turn that asks for text. */
  schema?: JsonValue;
}

/** How an operation ended, as its host ended it; `silent` is an end with no answer, before any nudge. */
export interface TurnEndedLine extends RunLineBase {
  kind: "turn-ended";
  op: number;
  agent: string;
  n: number;
  end: "answered" | "silent" | Exclude<Outcome["kind"], "answered" | "unanswered">;
  reason?: string;
  at: string;
  /** The answer the engine accepted (the value, or a text turn's text), on an `answered` line. */
  answer?: JsonValue;
}

/** What a decision's provider answered: a distribution per question, or the error the workflow's decide rejected with. */
export interface DecisionLine extends RunLineBase {
  kind: "decision";
  key: string;
  /** The provider's distributions by question id, as a test's `decisions` script gives them. */
  answers?: Record<string, JsonValue>;
  /** The provider's error message, when it failed. */
  error?: string;
  at: string;
}

/** One line of run.jsonl. */
export type RunLine = AttemptLine | StageLine | TimerLine | WaitLine | SessionLine | TurnBegunLine | TurnEndedLine | DecisionLine;

/** A run line before the attempt stamps it with `v` and its number. */
export type UnstampedRunLine = RunLine extends infer Line ? (Line extends RunLine ? Omit<Line, "v" | "attempt"> : never) : never;

/** One line of in.jsonl: an event the run was sent. */
export interface InLine extends ReceivedEvent {
  v: typeof LOG_VERSION;
  kind: "event";
  /** How many run.jsonl lines the run had when the event arrived: where it falls among them. */
  runLines?: number;
}

/** What an earlier attempt left, for an attempt that continues it. */
export interface EarlierAttempt {
  /** Succeeded stage records beyond those its run lines hold (a test's `earlier.stages`); these win. */
  stages?: readonly StageRecord[];
  /** Its run.jsonl lines, as readRunLines checked them. */
  runLines?: readonly RunLine[];
  /** Its in.jsonl: the events it was sent, in order. */
  events?: readonly ReceivedEvent[];
}
