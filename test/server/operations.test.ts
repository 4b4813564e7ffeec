// What the editor shows beside the scripts that are not agents' turns: compactions, messages,
// participants, events and decisions. The static pass reads them; over the real protocol, hovers
// and inlay hints show what each met, and their problems land on the script that caused them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DiagnosticSeverity, type CodeAction, type Diagnostic, type Hover, type InlayHint, type Position, type Range } from "vscode-languageserver-protocol";
import { analyzeTestFile, entryByKey } from "../../server/analysis/analyzeTestFile.ts";
import { rangeOf, ROOT, SLOW, TestServer } from "./harness.ts";
import { rangeOf as rangeAfter } from "./textRanges.ts";

const FIXTURES = join(ROOT, "test", "server", "fixtures");
const WHOLE: Range = { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } };
const ERROR = DiagnosticSeverity.Error;
const WARNING = DiagnosticSeverity.Warning;

// Tests that pass: what each script met shows in its hint and its hover.
const SHOWN = `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import triage from "../../../examples/triage/workflow";
import { asking, compacting, consulting, listening } from "./operations";

test("the writer compacts once", async () => {
  const run = await testWorkflow(compacting, {
    agents: { writer: [answer("Draft."), answer("Final note.")] },
    compactions: { writer: answer("Outline: fixes, then features.") },
  });
  expect(run.value).toEqual({ summary: "Outline: fixes, then features.", note: "Final note." });
});

test("the planner replies to the reviewer", async () => {
  const run = await testWorkflow(asking, {
    agents: {
      reviewer: answer(async (turn) => {
        const asked = await turn.send("planner", "Which cache?", { awaitReply: true });
        return asked.kind === "replied" ? asked.text : asked.kind;
      }),
    },
    messages: { planner: (message) => message.reply("The read cache.") },
  });
  expect(run.value).toBe("The read cache.");
});

test("the coordinator answers the investigator", async () => {
  const run = await testWorkflow(consulting, {
    agents: {
      investigator: answer(async (turn) => {
        const asked = await turn.send("coordinator", "One incident or two?", { awaitReply: true });
        return asked.kind === "replied" ? asked.text : asked.kind;
      }),
    },
    participants: {
      coordinator: (event) => (event.kind === "message" && event.asks ? event.reply("Two.") : undefined),
    },
  });
  expect(run.value).toBe("Two.");
});

test("a note during the first turn gives a second", async () => {
  const run = await testWorkflow(listening, {
    agents: { investigator: [answer("read"), answer("noted")] },
    events: [{ during: "investigator#1", name: "note", data: { text: "check the index" } }],
  });
  expect(run.ending).toMatchObject({ kind: "parked" });
});

test("a ticket is routed by its decision", async () => {
  const run = await testWorkflow(triage, {
    args: { tickets: ["Refund charged twice"] },
    decisions: {
      "triage-1": { team: { payments: 0.95, accounts: 0.03, frontend: 0.02 }, bug: 0.97, urgency: [0.1, 0.3, 0.6] },
    },
  });
  expect(run.value[0]).toMatchObject({ team: "payments" });
});
`;

// Tests that fail, each on one mistake of the new kinds.
const FAILING = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { asking, compacting, consulting, listening } from "./operations";

test("a compaction list longer than the compactions asked", async () => {
  await testWorkflow(compacting, {
    agents: { writer: [answer("Draft."), answer("Final note.")] },
    compactions: { writer: [answer("Outline."), answer("Never asked.")] },
  });
});

test("a planner whose messages script throws", async () => {
  await testWorkflow(asking, {
    agents: { reviewer: answer(async (turn) => (await turn.send("planner", "Which cache?", { awaitReply: true })).kind) },
    messages: {
      planner: () => {
        throw new Error("no plan yet");
      },
    },
  });
});

test("a messages list longer than the wakes", async () => {
  await testWorkflow(asking, {
    agents: { reviewer: answer(async (turn) => (await turn.send("planner", "Which cache?", { awaitReply: true })).kind) },
    messages: { planner: [(message) => message.reply("The read cache."), (message) => message.reply("Never.")] },
  });
});

test("a message to an agent the messages option does not script", async () => {
  await testWorkflow(asking, {
    agents: { reviewer: answer(async (turn) => (await turn.send("planner", "Which cache?", { awaitReply: true })).kind) },
    messages: { reviewer: (message) => message.reply("Not me.") },
  });
});

test("a participant the participants option does not script", async () => {
  await testWorkflow(consulting, {
    agents: { investigator: answer("Nothing to ask.") },
    participants: { dispatcher: () => undefined },
  });
});

test("a note for a turn that never comes is never sent", async () => {
  await testWorkflow(listening, {
    agents: { investigator: [answer("read"), answer("noted")] },
    events: [
      { during: "investigator#1", name: "note", data: { text: "check the index" } },
      { during: "investigator#5", name: "note", data: { text: "too late" } },
    ],
  });
});

test("a note whose data does not fit is refused", async () => {
  await testWorkflow(listening, {
    agents: { investigator: [answer("read"), answer("noted")] },
    events: [{ during: "investigator#1", name: "note", data: { text: 3 } }],
  });
});

test("an event id given twice", async () => {
  await testWorkflow(listening, {
    agents: { investigator: [answer("read"), answer("noted")] },
    events: [
      { during: "investigator#1", name: "note", data: { text: "one" }, eventId: "n-1" },
      { during: "investigator#2", name: "note", data: { text: "two" }, eventId: "n-1" },
    ],
  });
});
`;

interface Opened {
  uri: string;
  text: string;
  diagnostics: Diagnostic[];
}

let server: TestServer;
let shown: Opened;
let failing: Opened;
beforeAll(async () => {
  server = await TestServer.started();
  const first = await server.openAndRun(join(FIXTURES, "virtual-shown.test.ts"), SHOWN);
  shown = { uri: first.uri, text: SHOWN, diagnostics: first.diagnostics.diagnostics };
  const second = await server.openAndRun(join(FIXTURES, "virtual-failing.test.ts"), FAILING);
  failing = { uri: second.uri, text: FAILING, diagnostics: second.diagnostics.diagnostics };
}, SLOW);
afterAll(() => server.dispose());

async function hints(opened: Opened): Promise<Array<[number, string]>> {
  const found = await server.request<InlayHint[]>("textDocument/inlayHint", { textDocument: { uri: opened.uri }, range: WHOLE });
  return found.map((hint) => [hint.position.line, hint.label as string]);
}

/** The line of `needle` (outside comments), where its hint goes. */
function lineOf(text: string, needle: string, occurrence = 1): number {
  return rangeOf(text, needle, occurrence).start.line;
}

async function hover(opened: Opened, at: Position): Promise<{ range: Range | undefined; value: string } | null> {
  const found = await server.request<Hover | null>("textDocument/hover", { textDocument: { uri: opened.uri }, position: at });
  return found ? { range: found.range, value: (found.contents as { value: string }).value } : null;
}

/** Inside the needle: a few characters past its start. */
function inside(text: string, needle: string, occurrence = 1): Position {
  const { start } = rangeOf(text, needle, occurrence);
  return { line: start.line, character: start.character + 2 };
}

function diagnosticsOf(opened: Opened, code: string): Diagnostic[] {
  return opened.diagnostics.filter((diagnostic) => diagnostic.code === code);
}

function expected(range: Range, code: string, message: string, severity: DiagnosticSeverity = ERROR): Diagnostic {
  return { range, severity, source: "turnlens", code, message };
}

describe("the static pass reads the scripts that are not agents'", () => {
  const source = `import { test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { asking } from "./operations";

const later = [{ after: "planner#1", name: "note", data: {} }];

test("reads them", async () => {
  await testWorkflow(asking, {
    compactions: { writer: [answer("Outline."), noAnswer.silent()] },
    messages: { planner: [(message) => message.reply("Yes."), noAnswer.failed()], "review*": function (message) { return message.reply("No."); } },
    participants: { coordinator(event) { return undefined; }, thread: () => undefined },
    events: [{ during: "investigator#1", name: "note", data: { text: "x" } }, { after: "investigator#2", name: "close", data: {} }],
  });
  await testWorkflow(asking, { events: later });
});
`;
  const model = analyzeTestFile("inline.test.ts", source);
  const [call, second] = model.calls;

  test("an entry under compactions is read as an agents entry, by key and list position", () => {
    const writer = call!.compactions!.scripts[0]!;
    expect(writer.entries.map((entry) => [entry.kind, entry.index, entry.range])).toEqual([
      ["answer", 0, rangeAfter(source, 'answer("Outline.")')],
      ["noAnswer.silent", 1, rangeAfter(source, "noAnswer.silent()")],
    ]);
    expect(entryByKey(call!, "compactions", "writer", 1)?.entry).toBe(writer.entries[1]);
  });

  test("a messages function is an entry of its own, in a list or alone, and a noAnswer beside it too", () => {
    const [planner, review] = call!.messages!.scripts;
    expect(planner!.entries.map((entry) => [entry.kind, entry.index, entry.range])).toEqual([
      ["function", 0, rangeAfter(source, '(message) => message.reply("Yes.")')],
      ["noAnswer.failed", 1, rangeAfter(source, "noAnswer.failed()")],
    ]);
    expect([review!.key, review!.shape, review!.entries.map((entry) => [entry.kind, entry.index])]).toEqual(["review*", "entry", [["function", null]]]);
    expect(entryByKey(call!, "messages", "review*", null)?.entry).toBe(review!.entries[0]);
  });

  test("each participants key is read with its range, a method as well as a function", () => {
    expect(call!.participants!.scripts.map((script) => [script.key, script.keyRange, script.shape])).toEqual([
      ["coordinator", rangeAfter(source, "coordinator"), "entry"],
      ["thread", rangeAfter(source, "thread"), "entry"],
    ]);
  });

  test("each events element is read in order with its range, turn and name, through a const as well", () => {
    expect(call!.events!.elements).toEqual([
      { index: 0, range: rangeAfter(source, '{ during: "investigator#1", name: "note", data: { text: "x" } }'), when: "during", turn: "investigator#1", name: "note" },
      { index: 1, range: rangeAfter(source, '{ after: "investigator#2", name: "close", data: {} }'), when: "after", turn: "investigator#2", name: "close" },
    ]);
    expect(second!.events!.elements).toEqual([
      { index: 0, range: rangeAfter(source, '{ after: "planner#1", name: "note", data: {} }'), when: "after", turn: "planner#1", name: "note" },
    ]);
  });
});

describe("what the scripts met, over the protocol", () => {
  test("the tests that pass leave no diagnostic", () => {
    expect(shown.diagnostics).toEqual([]);
  });

  test("an entry under compactions shows the compaction it met: the agent, its number and the summary", async () => {
    const entry = 'answer("Outline: fixes, then features.")';
    expect((await hints(shown)).filter(([line]) => line === lineOf(SHOWN, entry))).toEqual([
      [lineOf(SHOWN, entry), 'writer compaction #1 ✓ "Outline: fixes, then fea…"'],
    ]);
    expect(await hover(shown, inside(SHOWN, entry))).toEqual({
      range: rangeOf(SHOWN, entry),
      value: ["Turnlens · 1 compaction", "---", "**writer** compaction 1 · ✓ answered\n> Keep the outline; drop the drafts.\n\nSummary: `Outline: fixes, then features.`"].join("\n\n"),
    });
  });

  test("an entry under messages shows the wake it met: who was woken, by whom, and how the message ended", async () => {
    const entry = '(message) => message.reply("The read cache.")';
    expect((await hints(shown)).filter(([line]) => line === lineOf(SHOWN, entry))).toEqual([[lineOf(SHOWN, entry), "planner woken by reviewer ✓ replied"]]);
    expect(await hover(shown, inside(SHOWN, entry))).toEqual({
      range: rangeOf(SHOWN, entry),
      value: ["Turnlens · 1 wake", "---", "**planner** woken by **reviewer** · ✓ replied\n> Which cache?\n\nIt awaited a reply."].join("\n\n"),
    });
  });

  test("a participants key shows each call of its script, the route and the message, and what it returned", async () => {
    const key = "coordinator: (event) =>";
    const property = 'coordinator: (event) => (event.kind === "message" && event.asks ? event.reply("Two.") : undefined)';
    expect((await hints(shown)).filter(([line]) => line === lineOf(SHOWN, key))).toEqual([
      [lineOf(SHOWN, key), 'coordinator ×2: route with investigator, message from investigator → {"id":"m2"}'],
    ]);
    expect(await hover(shown, inside(SHOWN, key))).toEqual({
      range: rangeOf(SHOWN, property),
      value: [
        "Turnlens · 2 calls",
        "---",
        "**coordinator** · route with **investigator** (both)\n> questions about the incident",
        "---",
        '**coordinator** · message from **investigator** · id `m1`\n> One incident or two?\n\nReturned: `{"id":"m2"}`',
      ].join("\n\n"),
    });
  });

  test("an events element shows that it was sent and during which turn", async () => {
    const element = '{ during: "investigator#1", name: "note", data: { text: "check the index" } }';
    expect((await hints(shown)).filter(([line]) => line === lineOf(SHOWN, element))).toEqual([[lineOf(SHOWN, element), "sent during investigator#1"]]);
    const shownHover = await hover(shown, inside(SHOWN, element));
    expect(shownHover?.range).toEqual(rangeOf(SHOWN, element));
    // The time it was sent is on the run's virtual clock, which starts at the real time.
    expect(shownHover?.value).toMatch(/^Turnlens · scripted event, in 1 run\n\n---\n\n\*\*note\*\* · ✓ sent during investigator#1 · id `awf\.test\.1` · at \d{4}-\d\d-\d\dT[\d:.]+Z$/);
  });

  test("a decisions key shows the answers its decision got: the first in the hint, every one in the hover", async () => {
    const key = '"triage-1":';
    const property = '"triage-1": { team: { payments: 0.95, accounts: 0.03, frontend: 0.02 }, bug: 0.97, urgency: [0.1, 0.3, 0.6] }';
    expect((await hints(shown)).filter(([line]) => line === lineOf(SHOWN, key))).toEqual([[lineOf(SHOWN, key), "triage-1 → team: payments (0.95) +2"]]);
    expect(await hover(shown, inside(SHOWN, key))).toEqual({
      range: rangeOf(SHOWN, property),
      value: ["Turnlens · 1 decision", "---", "**triage-1** · ✓ answered\n- team: payments (0.95)\n- bug: yes (0.97)\n- urgency: high (0.6)"].join("\n\n"),
    });
  });

  test("turns keep their hints beside the new ones, one per line", async () => {
    expect(await hints(shown)).toEqual([
      [lineOf(SHOWN, 'writer: [answer("Draft.")'), "writer #1–2 ×2 ✓"],
      [lineOf(SHOWN, 'answer("Outline: fixes, then features.")'), 'writer compaction #1 ✓ "Outline: fixes, then fea…"'],
      [lineOf(SHOWN, "reviewer: answer(async (turn) => {"), "reviewer #1 ✓"],
      [lineOf(SHOWN, '(message) => message.reply("The read cache.")'), "planner woken by reviewer ✓ replied"],
      [lineOf(SHOWN, "investigator: answer(async (turn) => {"), "investigator #1 ✓"],
      [lineOf(SHOWN, "coordinator: (event) =>"), 'coordinator ×2: route with investigator, message from investigator → {"id":"m2"}'],
      [lineOf(SHOWN, 'investigator: [answer("read")'), "investigator #1–2 ×2 ✓"],
      [lineOf(SHOWN, '{ during: "investigator#1"'), "sent during investigator#1"],
      [lineOf(SHOWN, '"triage-1":'), "triage-1 → team: payments (0.95) +2"],
    ]);
  });
});

describe("the problems of the new kinds, over the protocol", () => {
  test("an event never sent is an error on its events element, whose hint says so beside the one that was sent", async () => {
    const late = '{ during: "investigator#5", name: "note", data: { text: "too late" } }';
    expect(diagnosticsOf(failing, "event-never-sent")).toEqual([
      expected(rangeOf(FAILING, late), "event-never-sent", 'event "note" (during investigator#5): agent "investigator" never had turn 5'),
    ]);
    const hinted = await hints(failing);
    expect(hinted.filter(([line]) => line === lineOf(FAILING, late))).toEqual([[lineOf(FAILING, late), "never sent"]]);
    expect(hinted.filter(([line]) => line === lineOf(FAILING, '{ during: "investigator#1", name: "note", data: { text: "check the index" } }'))).toEqual([
      [lineOf(FAILING, '{ during: "investigator#1", name: "note", data: { text: "check the index" } }'), "sent during investigator#1"],
    ]);
    const lateHover = await hover(failing, inside(FAILING, late));
    expect(lateHover).toEqual({ range: rangeOf(FAILING, late), value: "Turnlens · scripted event, in 1 run\n\n---\n\n**note** · ✗ never sent (during investigator#5) · id `awf.test.2`" });
  });

  test("an event the run refused is an error on its element, whose hint reads refused", async () => {
    const element = '{ during: "investigator#1", name: "note", data: { text: 3 } }';
    expect(diagnosticsOf(failing, "event-refused")).toEqual([
      expected(rangeOf(FAILING, element), "event-refused", 'event "note" (during investigator#1): event "note"\'s data does not fit its schema: /text must be string'),
    ]);
    expect((await hints(failing)).filter(([line]) => line === lineOf(FAILING, element))).toEqual([[lineOf(FAILING, element), "refused"]]);
  });

  test("an event id given twice is an error on the element that gave it again", () => {
    expect(diagnosticsOf(failing, "event-id-reused")).toEqual([
      expected(rangeOf(FAILING, '{ during: "investigator#2", name: "note", data: { text: "two" }, eventId: "n-1" }'), "event-id-reused", 'event id "n-1" is given twice: events[0] and events[1]'),
    ]);
  });

  test("a messages script that throws is an error on its throw, and its function shows the wake that failed", async () => {
    expect(diagnosticsOf(failing, "message-script-threw")).toEqual([
      expected(
        rangeOf(FAILING, 'throw new Error("no plan yet");'),
        "message-script-threw",
        'agent "planner" message 1: its messages script threw: no plan yet. It was sent by "reviewer": Which cache?',
      ),
    ]);
    expect((await hints(failing)).filter(([line]) => line === lineOf(FAILING, "planner: () => {"))).toEqual([[lineOf(FAILING, "planner: () => {"), "planner woken by reviewer ✗ failed"]]);
  });

  test("a messages function never reached is a warning on that function, found by its list position, and the quick fix removes it", async () => {
    const first = '(message) => message.reply("The read cache.")';
    const never = '(message) => message.reply("Never.")';
    const [diagnostic, ...rest] = diagnosticsOf(failing, "entry-never-reached").filter((found) => found.range.start.line === lineOf(FAILING, never));
    expect(rest).toEqual([]);
    expect(diagnostic).toEqual({
      ...expected(rangeOf(FAILING, never), "entry-never-reached", 'agent "planner" was woken by 1 message; its messages script has 2: this entry is never reached', WARNING),
      tags: [1],
    });
    const actions = await server.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: failing.uri }, range: diagnostic!.range, context: { diagnostics: [] } });
    expect(actions[0]).toMatchObject({
      title: "Remove this entry never reached",
      isPreferred: true,
      edit: { changes: { [failing.uri]: [{ range: { start: rangeOf(FAILING, first).end, end: rangeOf(FAILING, never).end }, newText: "" }] } },
    });
  });

  test("a compactions entry never reached is a warning on that entry, and the entry that met the compaction shows it", async () => {
    const never = 'answer("Never asked.")';
    expect(diagnosticsOf(failing, "entry-never-reached").filter((found) => found.range.start.line === lineOf(FAILING, never))).toEqual([
      {
        ...expected(rangeOf(FAILING, never), "entry-never-reached", 'agent "writer" was asked 1 compaction; its compaction script has 2: this entry is never reached', WARNING),
        tags: [1],
      },
    ]);
    expect((await hints(failing)).filter(([line]) => line === lineOf(FAILING, never))).toEqual([[lineOf(FAILING, never), 'writer compaction #1 ✓ "Outline."']]);
  });

  test("a message to an agent with no messages script is an error on the messages object", () => {
    expect(diagnosticsOf(failing, "message-unscripted")).toEqual([
      expected(
        rangeOf(FAILING, '{ reviewer: (message) => message.reply("Not me.") }'),
        "message-unscripted",
        'agent "planner" message 1: a message woke it, and "messages" has no script for it; scripted: "reviewer". It was sent by "reviewer": Which cache?',
      ),
    ]);
  });

  test("a participant with no script is an error on the participants object", () => {
    expect(diagnosticsOf(failing, "participant-unscripted")).toEqual([
      expected(
        rangeOf(FAILING, "{ dispatcher: () => undefined }"),
        "participant-unscripted",
        'participant "coordinator": no script for it; scripted: "dispatcher". A route opened with "investigator" (both), for: questions about the incident',
      ),
    ]);
  });

  test("the failing tests give these problems and no others", () => {
    // The static pass sees the event id given twice, and its diagnostics come first; the run's copy is left out.
    expect(failing.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "event-id-reused",
      "entry-never-reached",
      "message-script-threw",
      "entry-never-reached",
      "message-unscripted",
      "participant-unscripted",
      "event-never-sent",
      "event-refused",
    ]);
  });
});
