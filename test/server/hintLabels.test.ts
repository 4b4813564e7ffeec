// The words of a hint, as tables: outcome × count × passing/failing test → text, for turns and for
// the other scripts (compactions, wakes, events, decisions, participants). ✗ marks a failure only;
// a scripted `noAnswer` reads ", as scripted"; agents read in the order of their names, a glob's by
// its pattern; counts are words; every hint reads whole within VS Code's default 43 characters.
import { expect, test } from "bun:test";
import type { CompactionTrace, DecisionTrace, MessageTrace, ParticipantEventTrace, TurnTrace } from "../../core/testing/trace.ts";
import { scriptHint, turnHint } from "../../server/views/hintLabels.ts";
import type { EventTrace, Met, MetOf } from "../../server/views/scriptViews.ts";

interface Call {
  agent?: string;
  n?: number;
  outcome?: string;
  nudge?: boolean;
  test?: string;
  passed?: boolean;
  scripted?: boolean;
  pattern?: string;
  refused?: string;
}

function met(call: Call): MetOf<"turn"> {
  const turn: TurnTrace = { agent: call.agent ?? "reader", n: call.n ?? 1, nudge: call.nudge ?? false, prompt: "p", outcome: call.outcome ?? "answered" };
  if (call.pattern) turn.match = { option: "agents", key: call.pattern, pattern: call.pattern, index: null, nudge: false };
  if (call.refused) turn.refused = call.refused;
  return { kind: "turn", turn, test: call.test ?? "t", passed: call.passed ?? true, scripted: call.scripted ?? false };
}

const rows: Array<[string, Call[], string]> = [
  ["one answered turn", [{}], "reader · turn 1 answered"],
  ["one answered turn of a failing test", [{ passed: false }], "reader · turn 1 answered"],
  [
    "a scripted silence in a passing test, nudged",
    [
      { outcome: "unanswered", scripted: true },
      { outcome: "unanswered", nudge: true, scripted: true },
    ],
    "reader · turn 1 no answer, as scripted",
  ],
  ["a scripted silence in a failing test", [{ outcome: "unanswered", scripted: true, passed: false }], "reader · turn 1 no answer, as scripted"],
  ["a cancelled turn in a failing test", [{ agent: "writer", outcome: "cancelled", passed: false }], "writer · turn 1 ✗ cancelled"],
  ["a cancelled turn in a passing test (rejects.toThrow)", [{ agent: "writer", outcome: "cancelled" }], "writer · turn 1 cancelled"],
  ["a timed-out turn in a failing test", [{ outcome: "timed-out", passed: false }], "reader · turn 1 ✗ timed out"],
  ["three answered turns of one test", [{ n: 1 }, { n: 2 }, { n: 3 }], "reader · turns 1–3 answered"],
  [
    "two tests, answered then scripted silence",
    [
      { agent: "lead", n: 1, test: "a" },
      { agent: "lead", n: 2, test: "a", outcome: "unanswered", scripted: true },
      { agent: "lead", n: 1, test: "b" },
    ],
    "lead: answered, then no answer, as scripted",
  ],
  ["one test running the workflow twice", [{ n: 1 }, { n: 1 }], "reader · turn 1 in 2 runs: answered"],
  ["agents by name, whatever order they ran in", [{ agent: "writer" }, { agent: "checker" }], "checker, writer · turn 1 answered"],
  ["more than two agents, as a count", [{ agent: "d" }, { agent: "c" }, { agent: "b" }, { agent: "a" }], "4 agents · turn 1 answered"],
  [
    "a glob's agents, by its pattern",
    [
      { agent: "verifier-1", pattern: "verifier-*" },
      { agent: "verifier-2", pattern: "verifier-*" },
      { agent: "verifier-3", pattern: "verifier-*" },
    ],
    "verifier-* · turn 1 answered",
  ],
  ["a refused answer in a failing test", [{ agent: "writer", outcome: "cancelled", refused: "the schema refused it", passed: false }], "writer · turn 1 ✗ refused"],
];

for (const [name, calls, text] of rows) {
  test(`a turn hint reads as what happened: ${name}`, () => {
    const hint = turnHint(calls.map(met));
    expect(hint).toBe(text);
    expect(hint.length).toBeLessThanOrEqual(43);
  });
}

test("the agents' order does not depend on the order the runs finished in", () => {
  const one = [met({ agent: "writer" }), met({ agent: "checker" })];
  expect(turnHint(one)).toBe(turnHint([...one].reverse()));
});

// The other scripts' hints, as the same kind of table: kind × count × passing/failing test → text.
// Words, not marks: no `✓`, no `×N`; `✗` only for what went wrong in a failing test.

interface Other {
  test?: string;
  passed?: boolean;
}

function compaction(call: Other & { agent?: string; n?: number; outcome?: string; answer?: string }): MetOf<"compaction"> {
  const compaction: CompactionTrace = { agent: call.agent ?? "writer", n: call.n ?? 1, focus: "f", outcome: call.outcome ?? "answered" };
  if (call.answer !== undefined) compaction.answer = call.answer;
  return { kind: "compaction", compaction, test: call.test ?? "t", passed: call.passed ?? true };
}

function wake(call: Other & { to?: string; from?: string; end?: string }): MetOf<"wake"> {
  const message = { from: call.from ?? "reviewer", to: call.to ?? "planner", text: "x", awaitReply: true, end: call.end ?? "replied" } as MessageTrace;
  return { kind: "wake", message, test: call.test ?? "t", passed: call.passed ?? true };
}

function event(call: Other & { sent?: boolean; refused?: boolean; when?: "during" | "after"; n?: number }): MetOf<"event"> {
  const traced: EventTrace = { index: 1, name: "note", eventId: "e", when: call.when ?? "during", agent: "investigator", n: call.n ?? 1, sent: call.sent ?? true };
  return { kind: "event", event: traced, refused: call.refused ?? false, test: call.test ?? "t", passed: call.passed ?? true };
}

function decision(call: Other & { key?: string; answers?: Record<string, number>; error?: string }): MetOf<"decision"> {
  const answers = call.answers ?? { team: 0.95 };
  const traced: DecisionTrace = {
    key: call.key ?? "triage-1",
    answered: call.error === undefined,
    ...(call.error === undefined
      ? { answers: Object.fromEntries(Object.entries(answers).map(([id, probability]) => [id, { answer: `${id}-answer`, probability }])) }
      : { error: call.error }),
  };
  return { kind: "decision", decision: traced, test: call.test ?? "t", passed: call.passed ?? true };
}

function participant(call: Other & { returned?: unknown }): MetOf<"participant"> {
  const traced: ParticipantEventTrace = {
    participant: "coordinator",
    kind: "message",
    from: "investigator",
    ...(call.returned !== undefined ? { returned: call.returned } : {}),
  };
  return { kind: "participant", call: traced, test: call.test ?? "t", passed: call.passed ?? true };
}

const otherRows: Array<[string, Met[], string]> = [
  ["one compaction answered, with its summary", [compaction({ answer: "Plan: fixes first, then features." })], 'writer · compaction 1 answered "Plan: fix…"'],
  ["one compaction answered with no summary", [compaction({})], "writer · compaction 1 answered"],
  ["one compaction timed out in a failing test", [compaction({ outcome: "timed-out", passed: false })], "writer · compaction 1 ✗ timed out"],
  ["one compaction failed in a passing test (rejects.toThrow)", [compaction({ outcome: "failed" })], "writer · compaction 1 failed"],
  ["two compactions of one run", [compaction({ n: 1 }), compaction({ n: 2 })], "writer · compactions 1–2 answered"],
  ["one compaction in 2 tests", [compaction({ test: "a" }), compaction({ test: "b" })], "writer · compaction 1 in 2 tests: answered"],
  ["one compaction in 2 runs of one test", [compaction({}), compaction({})], "writer · compaction 1 in 2 runs: answered"],
  [
    "compactions answered, then failed, in a failing test",
    [compaction({ n: 1, passed: false }), compaction({ n: 2, outcome: "failed", passed: false })],
    "writer: answered, then ✗ failed",
  ],
  ["one wake replied", [wake({})], "planner · woken by reviewer: replied"],
  ["one wake still pending (no failure)", [wake({ end: "pending", passed: false })], "planner · woken by reviewer: still pending"],
  ["one wake failed in a failing test", [wake({ end: "failed", passed: false })], "planner · woken by reviewer: ✗ failed"],
  ["one wake undelivered in a passing test", [wake({ end: "undelivered" })], "planner · woken by reviewer: undelivered"],
  ["two wakes in one test, by two senders", [wake({ from: "reviewer" }), wake({ from: "lead", end: "delivered" })], "planner · woken: replied, then delivered"],
  ["one wake in each of 2 tests", [wake({ test: "a" }), wake({ test: "b" })], "planner · woken by reviewer: replied"],
  ["an event sent", [event({})], "sent during investigator's turn 1"],
  ["an event sent after a turn, in 2 tests", [event({ when: "after", test: "a" }), event({ when: "after", test: "b" })], "sent after investigator's turn 1 in 2 tests"],
  ["an event sent in 1 of 2 runs", [event({}), event({ sent: false })], "sent in 1 of 2 runs"],
  ["an event never sent in a failing test", [event({ sent: false, n: 5, passed: false })], "✗ never sent"],
  ["an event refused in a failing test", [event({ sent: false, refused: true, passed: false })], "✗ refused"],
  ["an event refused in a passing test", [event({ sent: false, refused: true })], "refused"],
  ["a decision answered one question", [decision({})], "triage-1 · answered team: team-answer"],
  ["a decision answered three questions", [decision({ answers: { team: 0.95, bug: 0.97, urgency: 0.6 } })], "triage-1 · answered 3 questions"],
  ["a decision whose script threw, in a failing test", [decision({ error: "provider unavailable", passed: false })], "triage-1 · ✗ rejected: provider unavailable"],
  ["a decision whose script threw, in a passing test (rejects.toThrow)", [decision({ error: "provider unavailable" })], "triage-1 · rejected: provider unavailable"],
  ["two keys asked 3 times in one test", [decision({}), decision({ key: "triage-2" }), decision({})], "triage-1, triage-2 · asked: answered"],
  [
    "a key answered in one test and rejected in another, failing",
    [decision({ test: "a" }), decision({ test: "b", error: "down", passed: false })],
    "triage-1 · asked: answered, then ✗ rejected",
  ],
  ["one participant call", [participant({ returned: { id: "m2" } })], "coordinator: message from investigator"],
  ["three participant calls", [participant({}), participant({}), participant({})], "coordinator · 3 calls"],
];

for (const [name, met, text] of otherRows) {
  test(`an other script's hint reads as what happened: ${name}`, () => {
    const hint = scriptHint(met[0]!.kind, met);
    expect(hint).toBe(text);
    expect(hint).not.toMatch(/✓|×\d/);
    expect(hint.length).toBeLessThanOrEqual(43);
  });
}
