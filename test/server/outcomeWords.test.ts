// Every outcome × every view: a trace of each end a turn, a compaction, a message, a decision and a
// scripted event can have, scripted or not, in a passing or a failing test, and each view's text
// (the hint, the hover, the transcript, the timeline, the workflow hints) says it in the table's words.
import { expect, test } from "bun:test";
import { callSummary, type CallCoverage } from "../../core/coverage/outcomeCoverage.ts";
import { endedAs, hintWords, markedWords, OUTCOME_WORDS, type DecisionEnd, type EventEnd, type MessageEnd, type TurnEnd } from "../../core/testing/outcomeWords.ts";
import { buildTimeline } from "../../core/testing/timeline.ts";
import { renderMermaid } from "../../core/testing/timelineMermaid.ts";
import { renderTimelineSvg } from "../../core/testing/timelineSvg.ts";
import type { CompactionTrace, DecisionTrace, MessageTrace, RunTrace, TurnTrace } from "../../core/testing/trace.ts";
import { renderTranscript } from "../../core/testing/transcript.ts";
import { HINT_WIDTH } from "../../server/limits.ts";
import { scriptHint, turnHint } from "../../server/views/hintLabels.ts";
import { scriptMarkdown, turnsMarkdown } from "../../server/views/hoverMarkdown.ts";
import type { EventTrace } from "../../server/views/scriptViews.ts";

const TURN_ENDS = Object.keys(OUTCOME_WORDS.turn) as TurnEnd[];
const CONTEXTS = [
  { scripted: false, passed: true },
  { scripted: false, passed: false },
  { scripted: true, passed: true },
  { scripted: true, passed: false },
];

/** A traced turn that ended `end`, as the scripted host records each. */
function turnOf(end: TurnEnd, scripted: boolean): TurnTrace {
  const base: TurnTrace = { agent: "reader", n: 1, nudge: false, prompt: "Read it.", outcome: end };
  if (scripted) base.scripted = true;
  switch (end) {
    case "answered":
      return { ...base, answer: "done" };
    case "refused":
      // The engine records a refused answer as `cancelled`; the test's refusal is carried beside it.
      return { ...base, outcome: "cancelled", refused: 'agent "reader" turn 1: the schema refused its script\'s answer' };
    case "unanswered":
    case "blocked":
    case "failed":
    case "timed-out":
    case "cancelled":
    case "waiting":
    case "awaiting-reply":
      return { ...base, reason: "why it ended so" };
    default:
      return end satisfies never;
  }
}

/** A run of `parts`, each turn and compaction from 0 to 5 ms on the virtual clock. */
function runOf(parts: Partial<RunTrace>): RunTrace {
  const span = () => ({ started: { at: 0, step: 0 }, ended: { at: 5, step: 1 } });
  const run: RunTrace = { workflow: "read", entries: [], turns: [], compactions: [], decisions: [], problems: [], durationMs: 1, ...parts };
  run.moments = {
    start: "2026-01-01T00:00:00.000Z",
    turns: run.turns.map(span),
    compactions: run.compactions.map(span),
    decisions: [],
    messages: [],
    timers: [],
    events: [],
    ended: { at: 5, step: 2 },
  };
  return run;
}

for (const end of TURN_ENDS) {
  for (const context of CONTEXTS) {
    test(`a turn that ended ${end} (${context.scripted ? "scripted" : "unscripted"}, ${context.passed ? "passing" : "failing"} test) reads the table's words in every view`, () => {
      const turn = turnOf(end, context.scripted);
      const expected = endedAs("turn", end, context);
      const met = [{ kind: "turn" as const, turn, test: "t", ...context }];

      const hint = turnHint(met);
      expect(hint).toContain(hintWords(expected));
      expect(hint.length).toBeLessThanOrEqual(HINT_WIDTH);
      expect(turnsMarkdown(met)).toContain(markedWords(expected));
      const run = runOf({ turns: [turn] });
      expect(renderTranscript(run, { duration: false, passed: context.passed }).split("\n")).toContainEqual(
        expect.stringMatching(new RegExp(`^ {4}${escape(markedWords(expected))}( {2}|$)`)),
      );
      const timeline = buildTimeline(run, context.passed);
      expect(timeline.boxes[0]!.told).toEqual(expected);
      expect(renderMermaid(timeline)).toContain(markedWords(expected));
      // Red only for a failure: the box's tone is its colour.
      expect(renderTimelineSvg(timeline).includes("tone-failure")).toBe(expected.tone === "failure");

      // What a script asked for is never drawn as a failure; ✗ means a failing test's unscripted end.
      if (context.scripted || context.passed) expect(`${hint}${turnsMarkdown(met)}${renderMermaid(timeline)}`).not.toContain("✗");
    });
  }
}

test("a compaction's end reads the table's words in its hint, hover, transcript and timeline", () => {
  for (const end of ["answered", "failed", "timed-out"] as const) {
    for (const context of CONTEXTS) {
      const compaction: CompactionTrace = { agent: "writer", n: 1, focus: "Keep the plan.", outcome: end, ...(context.scripted ? { scripted: true as const } : {}) };
      const expected = endedAs("turn", end, context);
      const met = [{ kind: "compaction" as const, compaction, test: "t", passed: context.passed }];
      expect(scriptHint("compaction", met)).toContain(hintWords(expected));
      expect(scriptMarkdown({ kind: "compaction", range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, line: 0, met })).toContain(
        markedWords(expected),
      );
      const run = runOf({ turns: [turnOf("answered", false)], compactions: [compaction] });
      expect(renderTranscript(run, { duration: false, passed: context.passed })).toContain(`    ${markedWords(expected)}`);
      expect(buildTimeline(run, context.passed).boxes.find((box) => box.kind === "compaction")!.told).toEqual(expected);
    }
  }
});

const RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

test("a message's end reads the table's words in its wake hint, hover and transcript", () => {
  for (const end of Object.keys(OUTCOME_WORDS.message) as MessageEnd[]) {
    for (const passed of [true, false]) {
      const message: MessageTrace = { id: "m1", from: "reviewer", to: "planner", text: "Look.", end } as MessageTrace;
      const expected = endedAs("message", end, { passed });
      const met = [{ kind: "wake" as const, message, test: "t", passed }];
      expect(scriptHint("wake", met)).toContain(hintWords(expected));
      expect(scriptMarkdown({ kind: "wake", range: RANGE, line: 0, met })).toContain(markedWords(expected));
      expect(renderTranscript(runOf({ messages: [message] }), { duration: false, passed })).toContain(`    ${markedWords(expected)}`);
    }
  }
});

test("a decision's end reads the table's words in its hint, hover, transcript and the workflow hints", () => {
  for (const end of Object.keys(OUTCOME_WORDS.decision) as DecisionEnd[]) {
    for (const passed of [true, false]) {
      const decision: DecisionTrace = { key: "triage", answered: end === "answered", ...(end === "rejected" ? { error: "no route" } : {}) };
      const expected = endedAs("decision", end, { passed });
      const met = [{ kind: "decision" as const, decision, test: "t", passed }];
      expect(scriptHint("decision", met)).toContain(hintWords(expected));
      expect(scriptMarkdown({ kind: "decision", range: RANGE, line: 0, met })).toContain(markedWords(expected));
      expect(renderTranscript(runOf({ decisions: [decision] }), { duration: false, passed })).toContain(`decision triage ${markedWords(expected)}`);
    }
  }
  // Outcome coverage counts a decision as answered, failed (its script threw) or unanswered: in words, the decision's.
  const call = (kind: CallCoverage["kind"], outcome: string): CallCoverage => ({
    site: { file: "w.ts", line: 1, column: 1 },
    kind,
    reached: [{ test: { file: "t.ts", id: "t", name: "t", path: ["t"] }, turns: [] }],
    outcomes: [{ outcome, turns: 1 }],
  });
  expect(callSummary(call("decision", "failed"))).toBe(`in 1 test: ${OUTCOME_WORDS.decision.rejected.words} 1`);
  expect(callSummary(call("decision", "unanswered"))).toBe(`in 1 test: ${OUTCOME_WORDS.decision["not-answered"].words} 1`);
});

test("a scripted event's end reads the table's words in its hint, hover and transcript", () => {
  for (const end of Object.keys(OUTCOME_WORDS.event) as EventEnd[]) {
    for (const passed of [true, false]) {
      const event: EventTrace = { index: 1, name: "note", eventId: "e1", when: "during", agent: "writer", n: 1, sent: end === "sent" };
      const expected = endedAs("event", end, { passed });
      const refused = end === "refused";
      const met = [{ kind: "event" as const, event, refused, test: "t", passed }];
      expect(scriptHint("event", met)).toContain(hintWords(expected));
      expect(scriptMarkdown({ kind: "event", range: RANGE, line: 0, met })).toContain(markedWords(expected));
      const problems = refused ? [{ code: "event-refused" as const, message: "refused", option: "events", index: 0 }] : [];
      expect(renderTranscript(runOf({ events: [event], problems }), { duration: false, passed })).toContain(markedWords(expected));
    }
  }
});

test("every engine outcome kind a workflow hint counts reads the table's words", () => {
  for (const end of TURN_ENDS) {
    const summary = callSummary({
      site: { file: "w.ts", line: 1, column: 1 },
      kind: "turn",
      reached: [{ test: { file: "t.ts", id: "t", name: "t", path: ["t"] }, turns: [] }],
      outcomes: [{ outcome: end, turns: 2 }],
    });
    expect(summary).toBe(`in 1 test: ${OUTCOME_WORDS.turn[end].words} 2`);
  }
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
