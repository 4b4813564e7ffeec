// turnlens record's reading of run lines (core/record/recordedRun.ts): the turns and their ends,
// each event placed during or after a turn, and the runs it refuses by name.
import { describe, expect, test } from "bun:test";
import { RecordError, recordedRun } from "../../core/record/recordedRun.ts";
import type { InLine, RunLine } from "../../core/workflow/runLines.ts";

const AT = "2026-01-05T09:00:00.000Z";
const attempt = (fields: Partial<RunLine> = {}): RunLine => ({ v: 1, kind: "attempt", attempt: 1, at: AT, ...fields }) as RunLine;
const begun = (op: number, agent: string, n: number, fields: Record<string, unknown> = {}): RunLine =>
  ({ v: 1, kind: "turn-begun", attempt: 1, op, agent, operation: "turn", n, nudge: false, at: AT, prompt: `${agent} ${n}`, ...fields }) as RunLine;
const ended = (op: number, agent: string, n: number, end: string, fields: Record<string, unknown> = {}): RunLine =>
  ({ v: 1, kind: "turn-ended", attempt: 1, op, agent, n, end, at: AT, ...fields }) as RunLine;
const event = (eventId: string, runLines?: number, name = "note"): InLine => ({
  v: 1,
  kind: "event",
  eventId,
  name,
  data: {},
  at: AT,
  ...(runLines !== undefined ? { runLines } : {}),
});

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof RecordError) return error.message;
    throw error;
  }
  return "no refusal";
};

describe("reading run lines for turnlens record", () => {
  test("a turn and its nudge are one turn with two ends; the attempt line gives the id and args", () => {
    const run = recordedRun(
      [
        attempt({ id: "run-1", args: { file: "a.md" } } as Partial<RunLine>),
        begun(1, "reader", 1, { schema: { type: "string" } }),
        ended(1, "reader", 1, "silent"),
        begun(2, "reader", 1, { nudge: true, prompt: undefined }),
        ended(2, "reader", 1, "answered", { answer: "late" }),
      ],
      [],
    );
    expect(run).toEqual({
      id: "run-1",
      args: { file: "a.md" },
      turns: [
        {
          agent: "reader",
          n: 1,
          prompt: "reader 1",
          schema: { type: "string" },
          ends: [
            { nudge: false, end: "silent" },
            { nudge: true, end: "answered", answer: "late" },
          ],
        },
      ],
      events: [],
      operations: [
        { agent: "reader", n: 1, nudge: false },
        { agent: "reader", n: 1, nudge: true },
      ],
      decisions: [],
    });
  });

  test("an event is sent during the latest turn in flight where it arrived, else after the turn that ended last", () => {
    const lines = [attempt(), begun(1, "a", 1), begun(2, "b", 1), ended(2, "b", 1, "answered", { answer: "x" }), ended(1, "a", 1, "answered", { answer: "y" })];
    const placed = recordedRun(lines, [event("awf.test.1", 2), event("awf.test.2", 3), event("awf.test.3", 4), event("own-id", 5)]).events;
    expect(placed.map(({ when, turn, eventId }) => `${when} ${turn} ${eventId}`)).toEqual([
      "during a#1 awf.test.1",
      "during b#1 awf.test.2",
      "during a#1 awf.test.3",
      "after a#1 own-id",
    ]);
  });

  test("the starting event is the run's event, and the engine's own {agent}:ended events are left out", () => {
    const run = recordedRun(
      [attempt({ event: "awf.start", starts: true } as Partial<RunLine>), begun(1, "a", 1), ended(1, "a", 1, "failed", { reason: "crashed" })],
      [event("awf.start", 0, "go"), event("awf.2", 3, "a:ended")],
    );
    expect(run.startEvent).toEqual({ name: "go", data: {}, eventId: "awf.start" });
    expect(run.events).toEqual([]);
  });

  test("a participant's reply to an agent's message is left out (the asking turn's answer holds it); one with no `to` is an event like any other", () => {
    const reply = (eventId: string, runLines: number, data: Record<string, unknown>): InLine => ({ ...event(eventId, runLines, "coordinator:reply"), data }) as InLine;
    const run = recordedRun(
      [attempt(), begun(1, "responder", 1), ended(1, "responder", 1, "answered", { answer: "Keep two." })],
      [reply("awf.1", 2, { text: "Keep two.", to: "m1" }), reply("awf.2", 3, { text: "Also page the DBA." })],
    );
    expect(run.events).toEqual([{ name: "coordinator:reply", data: { text: "Also page the DBA." }, eventId: "awf.2", when: "after", turn: "responder#1" }]);
  });

  test("refuses by name what a test cannot replay", () => {
    expect(refusal(() => recordedRun([attempt(), attempt({ attempt: 2 } as Partial<RunLine>)], []))).toBe(
      "run.jsonl holds 2 attempts; record writes a test of a run's first attempt (a continue's test gives earlier: { run, events } instead)",
    );
    expect(refusal(() => recordedRun([attempt(), begun(1, "a", 1, { operation: "message" })], []))).toBe(
      'run.jsonl line 2: agent "a" was woken by a message; record does not write messages scripts yet',
    );
    expect(refusal(() => recordedRun([attempt(), begun(1, "a", 1, { prompt: undefined })], []))).toBe(
      'run.jsonl line 2: the turn has no "prompt"; a Turnlens older than record wrote these lines, and they cannot be replayed',
    );
    expect(refusal(() => recordedRun([attempt(), begun(1, "a", 1), ended(1, "a", 1, "answered")], []))).toBe(
      'run.jsonl line 3: the answered turn has no "answer"; a Turnlens older than record wrote these lines, and they cannot be replayed',
    );
    expect(refusal(() => recordedRun([attempt(), begun(1, "a", 1)], []))).toBe('run.jsonl: agent "a" turn 1 never ended; record writes a test of a run that ended');
    expect(refusal(() => recordedRun([attempt()], [event("awf.1", 1)]))).toBe(
      'in.jsonl: event "note" (awf.1) arrived before any turn began; a test sends events during or after a turn',
    );
    const decided = (answers: Record<string, number>) => ({ v: 1, kind: "decision", attempt: 1, key: "ship", answers, at: AT }) as RunLine;
    expect(refusal(() => recordedRun([attempt(), decided({ ready: 0.9 }), decided({ ready: 0.1 })], []))).toBe(
      'run.jsonl line 3: decision "ship" was decided again with another answer; a decisions script gives a key one answer',
    );
  });
});
