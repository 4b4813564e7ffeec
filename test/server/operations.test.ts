// What the editor shows beside the scripts that are not agents' turns: compactions, messages,
// participants, events and decisions. The static pass reads them; over the real protocol, hovers
// and inlay hints show what each met, and their problems land on the script that caused them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { analyzeTestFile, entryByKey } from "../../server/analysis/analyzeTestFile.ts";
import type { StaticEventElement } from "../../server/analysis/model.ts";
import { checkActionResult, checkActions } from "./check/checkActions.ts";
import { checkDiagnostics } from "./check/checkDiagnostics.ts";
import { checkHints } from "./check/checkHints.ts";
import { checkHovers } from "./check/checkHovers.ts";
import { openFixture, type OpenedFixture } from "./check/openFixture.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";
import { rangeOf } from "./textRanges.ts";

const FIXTURES = join(ROOT, "test", "server", "fixtures");

// Tests that pass: what each script met shows in its hint and its hover.
const SHOWN = `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import triage from "../../../examples/triage/workflow";
import { asking, compacting, consulting, listening } from "./operations";

test("the writer compacts once", async () => {
  const run = await testWorkflow(compacting, {
    agents: { writer: [answer("Draft."), answer("Final note.")] },
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: writer · turns 1–2 answered
    compactions: { writer: answer("Outline: fixes, then features.") },
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: writer · compaction 1 answered "Outline: …"
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **writer · compaction 1 answered "Outline: fixes, then features."**
//                         |
//                         | ---
//                         |
//                         | **writer** compaction 1 · ✓ answered
//                         | > Keep the outline; drop the drafts.
//                         |
//                         | Summary: \`Outline: fixes, then features.\`
  });
  expect(run.value).toEqual({ summary: "Outline: fixes, then features.", note: "Final note." });
});

test("the planner replies to the reviewer", async () => {
  const run = await testWorkflow(asking, {
    agents: {
      reviewer: answer(async (turn) => {
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: reviewer · turn 1 answered
        const asked = await turn.send("planner", "Which cache?", { awaitReply: true });
        return asked.kind === "replied" ? asked.text : asked.kind;
      }),
    },
    messages: { planner: (message) => message.reply("The read cache.") },
//                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: planner · woken by reviewer: replied
//                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **planner · woken by reviewer: replied**
//                       |
//                       | ---
//                       |
//                       | **planner** woken by **reviewer** · ✓ replied
//                       | > Which cache?
//                       |
//                       | It awaited a reply.
  });
  expect(run.value).toBe("The read cache.");
});

test("the coordinator answers the investigator", async () => {
  const run = await testWorkflow(consulting, {
    agents: {
      investigator: answer(async (turn) => {
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: investigator · turn 1 answered
        const asked = await turn.send("coordinator", "One incident or two?", { awaitReply: true });
        return asked.kind === "replied" ? asked.text : asked.kind;
      }),
    },
    participants: {
      coordinator: (event) => (event.kind === "message" && event.asks ? event.reply("Two.") : undefined),
//    | hint: coordinator · 2 calls
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **coordinator · 2 calls: route with investigator, message from investigator → {"id":"m2"}**
//    |
//    | ---
//    |
//    | **coordinator** · route with **investigator** (both)
//    | > questions about the incident
//    |
//    | ---
//    |
//    | **coordinator** · message from **investigator** · id \`m1\`
//    | > One incident or two?
//    |
//    | Returned: \`{"id":"m2"}\`
    },
  });
  expect(run.value).toBe("Two.");
});

test("a note during the first turn gives a second", async () => {
  const run = await testWorkflow(listening, {
    agents: { investigator: [answer("read"), answer("noted")] },
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: investigator · turns 1–2 answered
    events: [{ during: "investigator#1", name: "note", data: { text: "check the index" } }],
//           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: sent during investigator's turn 1
//           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **sent during investigator's turn 1**
//           |
//           | ---
//           |
//           | **note** · ✓ sent during investigator#1 · id \`awf.test.1\` · at <time>
  });
  expect(run.ending).toMatchObject({ kind: "parked" });
});

test("a ticket is routed by its decision", async () => {
  const run = await testWorkflow(triage, {
    args: { tickets: ["Refund charged twice"] },
    decisions: {
      "triage-1": { team: { payments: 0.95, accounts: 0.03, frontend: 0.02 }, bug: 0.97, urgency: [0.1, 0.3, 0.6] },
//    | hint: triage-1 · answered 3 questions
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **triage-1 · answered team: payments (0.95) and 2 more**
//    |
//    | ---
//    |
//    | **triage-1** · ✓ answered
//    | - team: payments (0.95)
//    | - bug: yes (0.97)
//    | - urgency: high (0.6)
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
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: writer · turns 1–2 answered
    compactions: { writer: [answer("Outline."), answer("Never asked.")] },
//                                              ^^^^^^^^^^^^^^^^^^^^^^ warning[entry-never-reached, unnecessary]: agent "writer" was asked 1 compaction; its compaction script has 2: this entry is never reached
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: writer · compaction 1 answered "Outline."
  });
});

test("a planner whose messages script throws", async () => {
  await testWorkflow(asking, {
    agents: { reviewer: answer(async (turn) => (await turn.send("planner", "Which cache?", { awaitReply: true })).kind) },
//                            | hint: reviewer · turn 1 ✗ cancelled
    messages: {
      planner: () => {
//    ^^^^^^^^^^^^^^^^ hint: planner · woken by reviewer: ✗ failed
        throw new Error("no plan yet");
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[message-script-threw]: agent "planner" message 1: its messages script threw: no plan yet. It was sent by "reviewer": Which cache?
      },
    },
  });
});

test("a messages list longer than the wakes", async () => {
  await testWorkflow(asking, {
    agents: { reviewer: answer(async (turn) => (await turn.send("planner", "Which cache?", { awaitReply: true })).kind) },
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: reviewer · turn 1 answered
    messages: { planner: [(message) => message.reply("The read cache."), (message) => message.reply("Never.")] },
//                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[entry-never-reached, unnecessary]: agent "planner" was woken by 1 message; its messages script has 2: this entry is never reached
//                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action[preferred]: Remove this entry never reached
//                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Remove every entry never reached in this file
//                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Fix all Turnlens problems in this file
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: planner · woken by reviewer: replied
  });
});

test("a message to an agent the messages option does not script", async () => {
  await testWorkflow(asking, {
    agents: { reviewer: answer(async (turn) => (await turn.send("planner", "Which cache?", { awaitReply: true })).kind) },
//                            | hint: reviewer · turn 1 ✗ cancelled
    messages: { reviewer: (message) => message.reply("Not me.") },
//            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[message-unscripted]: agent "planner" message 1: a message woke it, and "messages" has no script for it; scripted: "reviewer". It was sent by "reviewer": Which cache?
  });
});

test("a participant the participants option does not script", async () => {
  await testWorkflow(consulting, {
    agents: { investigator: answer("Nothing to ask.") },
    participants: { dispatcher: () => undefined },
//                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[participant-unscripted]: participant "coordinator": no script for it; scripted: "dispatcher". A route opened with "investigator" (both), for: questions about the incident
  });
});

test("a note for a turn that never comes is never sent", async () => {
  await testWorkflow(listening, {
    agents: { investigator: [answer("read"), answer("noted")] },
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: investigator · turns 1–2 answered
    events: [
      { during: "investigator#1", name: "note", data: { text: "check the index" } },
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: sent during investigator's turn 1
      { during: "investigator#5", name: "note", data: { text: "too late" } },
//      ^^^^^^ error[event-never-sent]: event "note" (during investigator#5): agent "investigator" never had turn 5
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: ✗ never sent
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **✗ never sent (due during investigator's turn 5)**
//    |
//    | ---
//    |
//    | **note** · ✗ never sent (during investigator#5) · id \`awf.test.2\`
    ],
  });
});

test("a note whose data does not fit is refused", async () => {
  await testWorkflow(listening, {
    agents: { investigator: [answer("read"), answer("noted")] },
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: investigator · turn 1 ✗ cancelled
    events: [{ during: "investigator#1", name: "note", data: { text: 3 } }],
//           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[event-refused]: event "note" (during investigator#1): event "note"'s data does not fit its schema: /text is 3; allowed: a string
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: ✗ refused
  });
});

test("an event id given twice", async () => {
  await testWorkflow(listening, {
    agents: { investigator: [answer("read"), answer("noted")] },
    events: [
      { during: "investigator#1", name: "note", data: { text: "one" }, eventId: "n-1" },
      { during: "investigator#2", name: "note", data: { text: "two" }, eventId: "n-1" },
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[event-id-reused]: event id "n-1" is given twice: events[0] and events[1]
    ],
  });
});
`;

let server: TestServer;
let shown: OpenedFixture;
let failing: OpenedFixture;
beforeAll(async () => {
  server = await TestServer.started();
  shown = await openFixture(server, join(FIXTURES, "virtual-shown.test.ts"), SHOWN);
  failing = await openFixture(server, join(FIXTURES, "virtual-failing.test.ts"), FAILING);
}, SLOW);
afterAll(() => server.dispose());

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
      ["answer", 0, rangeOf(source, 'answer("Outline.")')],
      ["noAnswer.silent", 1, rangeOf(source, "noAnswer.silent()")],
    ]);
    expect(entryByKey(call!, "compactions", "writer", 1)?.entry).toBe(writer.entries[1]);
  });

  test("a messages function is an entry of its own, in a list or alone, and a noAnswer beside it too", () => {
    const [planner, review] = call!.messages!.scripts;
    expect(planner!.entries.map((entry) => [entry.kind, entry.index, entry.range])).toEqual([
      ["function", 0, rangeOf(source, '(message) => message.reply("Yes.")')],
      ["noAnswer.failed", 1, rangeOf(source, "noAnswer.failed()")],
    ]);
    expect([review!.key, review!.shape, review!.entries.map((entry) => [entry.kind, entry.index])]).toEqual(["review*", "entry", [["function", null]]]);
    expect(entryByKey(call!, "messages", "review*", null)?.entry).toBe(review!.entries[0]);
  });

  test("each participants key is read with its range, a method as well as a function", () => {
    expect(call!.participants!.scripts.map((script) => [script.key, script.keyRange, script.shape])).toEqual([
      ["coordinator", rangeOf(source, "coordinator"), "entry"],
      ["thread", rangeOf(source, "thread"), "entry"],
    ]);
  });

  test("each events element is read in order with its range, turn, name and keys, through a const as well", () => {
    // The keys, each with its name's range, are where a problem about the element goes (its `during`, a misspelled key).
    expect(call!.events!.elements.map((element) => element.keys?.map((written) => [written.key, written.range.start.character]))).toEqual([
      [
        ["during", 15],
        ["name", 41],
        ["data", 55],
      ],
      [
        ["after", 80],
        ["name", 105],
        ["data", 120],
      ],
    ]);
    const withoutKeys = (elements: StaticEventElement[]) => elements.map(({ keys: _keys, ...element }) => element);
    expect(withoutKeys(call!.events!.elements)).toEqual([
      { index: 0, range: rangeOf(source, '{ during: "investigator#1", name: "note", data: { text: "x" } }'), when: "during", turn: "investigator#1", name: "note" },
      { index: 1, range: rangeOf(source, '{ after: "investigator#2", name: "close", data: {} }'), when: "after", turn: "investigator#2", name: "close" },
    ]);
    expect(withoutKeys(second!.events!.elements)).toEqual([
      { index: 0, range: rangeOf(source, '{ after: "planner#1", name: "note", data: {} }'), when: "after", turn: "planner#1", name: "note" },
    ]);
  });
});

describe("what the scripts met, over the protocol", () => {
  test("the tests that pass leave no diagnostic", () => {
    checkDiagnostics(shown);
  });

  test("an entry under compactions shows the compaction it met: the agent, its number and the summary", async () => {
    await checkHints(shown, { test: "the writer compacts once" });
    await checkHovers(shown, { test: "the writer compacts once" });
  });

  test("an entry under messages shows the wake it met: who was woken, by whom, and how the message ended", async () => {
    await checkHints(shown, { test: "the planner replies to the reviewer" });
    await checkHovers(shown, { test: "the planner replies to the reviewer" });
  });

  test("a participants key shows each call of its script, the route and the message, and what it returned", async () => {
    await checkHints(shown, { test: "the coordinator answers the investigator" });
    await checkHovers(shown, { test: "the coordinator answers the investigator" });
  });

  test("an events element shows that it was sent and during which turn", async () => {
    await checkHints(shown, { test: "a note during the first turn gives a second" });
    // The time it was sent is on the run's virtual clock, which starts at the real time.
    await checkHovers(shown, {
      test: "a note during the first turn gives a second",
      normalize: (text) => text.replace(/ · at \d{4}-\d\d-\d\dT[\d:.]+Z$/, " · at <time>"),
    });
  });

  test("a decisions key shows the answers its decision got: the first in the hint, every one in the hover", async () => {
    await checkHints(shown, { test: "a ticket is routed by its decision" });
    await checkHovers(shown, { test: "a ticket is routed by its decision" });
  });

  test("turns keep their hints beside the new ones, one per line", async () => {
    await checkHints(shown);
  });
});

describe("the problems of the new kinds, over the protocol", () => {
  test("an event never sent is an error on its events element's during, whose hint says so beside the one that was sent", async () => {
    const scope = { test: "a note for a turn that never comes is never sent" };
    checkDiagnostics(failing, scope);
    await checkHints(failing, scope);
    await checkHovers(failing, scope);
  });

  test("an event the run refused is an error on its element, whose hint reads refused", async () => {
    checkDiagnostics(failing, { test: "a note whose data does not fit is refused" });
    await checkHints(failing, { test: "a note whose data does not fit is refused" });
  });

  test("an event id given twice is an error on the element that gave it again", () => {
    checkDiagnostics(failing, { test: "an event id given twice" });
  });

  test("a messages script that throws is an error on its throw, and its function shows the wake that failed", async () => {
    checkDiagnostics(failing, { test: "a planner whose messages script throws" });
    await checkHints(failing, { test: "a planner whose messages script throws" });
  });

  test("a messages function never reached is a warning on that function, found by its list position, and the quick fix removes it", async () => {
    const scope = { test: "a messages list longer than the wakes" };
    checkDiagnostics(failing, scope);
    await checkActions(failing, scope);
    await checkActionResult(
      failing,
      "Remove this entry never reached",
      failing.fixture.text.replace(
        '[(message) => message.reply("The read cache."), (message) => message.reply("Never.")]',
        '[(message) => message.reply("The read cache.")]',
      ),
    );
  });

  test("a compactions entry never reached is a warning on that entry, and the entry that met the compaction shows it", async () => {
    checkDiagnostics(failing, { test: "a compaction list longer than the compactions asked" });
    await checkHints(failing, { test: "a compaction list longer than the compactions asked" });
  });

  test("a message to an agent with no messages script is an error on the messages object", () => {
    checkDiagnostics(failing, { test: "a message to an agent the messages option does not script" });
  });

  test("a participant with no script is an error on the participants object", () => {
    checkDiagnostics(failing, { test: "a participant the participants option does not script" });
  });

  test("the failing tests give these problems and no others", () => {
    checkDiagnostics(failing);
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
