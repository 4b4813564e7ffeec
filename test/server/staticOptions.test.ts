// The static pass's checks of `compactions`, `messages`, `participants`, `event`/`events`,
// `values` and `files`/`cwd`: each problem's range, code and message before any run, what the text
// cannot tell left to the run, the run saying the very same words, and the run's copy not repeated.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, Type } from "agentswf/workflow";
import { problemsOf, type ProblemTrace } from "turnlens/trace";
import type { FileReport } from "../../core/execution/report.ts";
import { analyzeTestFile } from "../../server/analysis/analyzeTestFile.ts";
import type { StaticProblem } from "../../server/analysis/model.ts";
import { checkDiagnostics } from "./check/checkDiagnostics.ts";
import { checkStaticProblems } from "./check/checkStaticProblems.ts";
import { openFixture } from "./check/openFixture.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";

const HEADER = `import { test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { flow } from "./flows";
`;

const staticProblems = (source: string): StaticProblem[] => analyzeTestFile("inline.test.ts", source).problems;

describe("compactions and messages", () => {
  test("an empty list is script-empty-list on the [], per compaction or per message", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, { compactions: { writer: [] }, messages: { "planner-*": [] } });
//                                          ^^ problem[script-empty-list, option "compactions", key "writer"]: compactions["writer"] is an empty list; a list has an entry per compaction
//                                                                         ^^ problem[script-empty-list, option "messages", key "planner-*"]: messages["planner-*"] is an empty list; a list has an entry per message
`);
  });

  test("a literal, template, plain object or function where a compaction entry goes is script-invalid on the script, a list naming its first bad index", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, {
  compactions: { a: "Outline.", b: \`Outline \${1}\`, c: { summary: "x" }, d: () => "Outline.", e: [answer("Outline."), 7, "x"] },
//                  ^^^^^^^^^^ problem[script-invalid, option "compactions", key "a"]: compactions["a"] must be answer(…), noAnswer.…() or a list of them, not "Outline."
//                                 ^^^^^^^^^^^^^^ problem[script-invalid, option "compactions", key "b"]: compactions["b"] must be answer(…), noAnswer.…() or a list of them, not \`Outline \${1}\`
//                                                    ^^^^^^^^^^^^^^^^ problem[script-invalid, option "compactions", key "c"]: compactions["c"] must be answer(…), noAnswer.…() or a list of them, not {"summary":"x"}
//                                                                         ^^^^^^^^^^^^^^^^ problem[script-invalid, option "compactions", key "d"]: compactions["d"] must be answer(…), noAnswer.…() or a list of them, not a function
//                                                                                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[script-invalid, option "compactions", key "e", index 1]: compactions["e"] must be answer(…), noAnswer.…() or a list of them, not [answer(…), 7, "x"]
});
`);
  });

  test("in messages a function or a noAnswer is an entry; answer(…), a literal or a plain object is script-invalid", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, {
  messages: {
    fine: [(message) => message.reply("x"), noAnswer.silent(), function (message) {}],
    asked: answer("The read cache."),
//         ^^^^^^^^^^^^^^^^^^^^^^^^^ problem[script-invalid, option "messages", key "asked"]: messages["asked"] must be (message) => …, noAnswer.…() or a list of them, not answer(…)
    listed: [(message) => message.reply("x"), { text: "x" }],
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[script-invalid, option "messages", key "listed", index 1]: messages["listed"] must be (message) => …, noAnswer.…() or a list of them, not [a function, {"text":"x"}]
  },
});
`);
  });

  test("a name, a call, a spread or a key a later spread may replace is left to the run", () => {
    checkStaticProblems(`${HEADER}
const shared = [];
const make = () => "x";
testWorkflow(flow, {
  compactions: { a: shared, b: make(), c: [shared, make(), ...shared], d: { ...answer("x") } },
  messages: { a: shared, b: make(), c: [make()], d: [] , ...shared },
});
testWorkflow(flow, { compactions: { a: [] }, ...{ compactions: { a: answer("x") } } });
`);
  });
});

describe("participants", () => {
  test("a participant's script that is not a function is script-invalid on the value", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, {
  participants: {
    coordinator: (event) => undefined,
    method(event) {},
    named: someFunction,
    made: makeOne(),
    text: "Two.",
//        ^^^^^^ problem[script-invalid, option "participants", key "text"]: participants["text"] must be (event) => …, not "Two."
    entry: answer("Two."),
//         ^^^^^^^^^^^^^^ problem[script-invalid, option "participants", key "entry"]: participants["entry"] must be (event) => …, not answer(…)
    listed: [() => "Two."],
//          ^^^^^^^^^^^^^^ problem[script-invalid, option "participants", key "listed"]: participants["listed"] must be (event) => …, not [a function]
    object: { reply: "Two." },
//          ^^^^^^^^^^^^^^^^^ problem[script-invalid, option "participants", key "object"]: participants["object"] must be (event) => …, not {"reply":"Two."}
    nothing: undefined,
//           ^^^^^^^^^ problem[script-invalid, option "participants", key "nothing"]: participants["nothing"] must be (event) => …, not undefined
  },
});
`);
  });
});

describe("events", () => {
  test("an element with neither or both of during and after is option-invalid, naming its index: on the element, or on the second of both", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, { events: [{ name: "note", data: { text: "x" } }, { during: "writer#1", after: "writer#1", name: "note", data: { text: "y" } }] });
//                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[option-invalid, option "events", index 0]: events[0] ("note") needs one of during or after, naming an agent's turn as "agent#n"
//                                                                                         ^^^^^ problem[option-invalid, option "events", index 1]: events[1] ("note") needs one of during or after, naming an agent's turn as "agent#n"
`);
  });

  test('a during or after that is not "agent#n" is option-invalid on that during or after', () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, { events: [{ during: "writer", name: "note", data: {} }, { after: "writer#0", name: "note", data: {} }, { after: 2, name: "note", data: {} }, { during: "writer-2#12", name: "note", data: {} }] });
//                              ^^^^^^ problem[option-invalid, option "events", index 0]: events[0]'s during must name an agent's turn as "agent#n", not "writer"
//                                                                            ^^^^^ problem[option-invalid, option "events", index 1]: events[1]'s after must name an agent's turn as "agent#n", not "writer#0"
//                                                                                                                           ^^^^^ problem[option-invalid, option "events", index 2]: events[2]'s after must name an agent's turn as "agent#n", not 2
`);
  });

  test("two equal eventIds are event-id-reused on the element that gives it again, naming where it was given first", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, { events: [{ during: "writer#1", name: "note", data: {}, eventId: "n-1" }, { during: "writer#2", name: "note", data: {}, eventId: "n-1" }] });
//                                                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[event-id-reused, option "events", index 1]: event id "n-1" is given twice: events[0] and events[1]
`);
  });

  test("an id is given twice against the starting event's eventId, and against awf's defaults awf.start and awf.test.{n}", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, { event: { name: "case.changed", data: {}, eventId: "e-1" }, events: [{ during: "writer#1", name: "note", data: {}, eventId: "e-1" }] });
//                                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[event-id-reused, option "events", index 0]: event id "e-1" is given twice: event and events[0]
testWorkflow(flow, { event: { name: "case.changed", data: {} }, events: [{ during: "writer#1", name: "note", data: {}, eventId: "awf.start" }] });
//                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[event-id-reused, option "events", index 0]: event id "awf.start" is given twice: event and events[0]
testWorkflow(flow, { events: [{ during: "writer#1", name: "note", data: {}, eventId: "awf.test.2" }, { during: "writer#2", name: "note", data: {} }] });
//                                                                                                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[event-id-reused, option "events", index 1]: event id "awf.test.2" is given twice: events[0] and events[1]
`);
  });

  test("an element the run refuses claims no id, so an id it repeats is not given twice", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, {
  events: [
    { during: "writer", name: "note", data: {}, eventId: "n-1" },
//    ^^^^^^ problem[option-invalid, option "events", index 0]: events[0]'s during must name an agent's turn as "agent#n", not "writer"
    { during: "writer#1", name: 3, data: {}, eventId: "n-1" },
    { during: "writer#1", name: "note", data: {}, eventId: "n-1" },
  ],
});
`);
  });

  test("what the text cannot tell is left to the run: a name, a spread, an earlier attempt, an id or a turn it cannot read", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, { events: [{ name: noteName, data: {} }, { during: turn, name: "note", data: {} }, { ...base, name: "note" }, someEvent] });
testWorkflow(flow, { events: [{ name: "note", data: {} }], ...more });
testWorkflow(flow, { events: [...more, { name: "note", data: {} }] });
testWorkflow(flow, { event: { name: "case.changed", data: {}, eventId: "e-1" }, earlier: {}, events: [{ during: "writer#1", name: "note", data: {}, eventId: "e-1" }] });
testWorkflow(flow, { events: [{ during: "writer#1", name: "note", data: {}, eventId: someId }, { during: "writer#1", name: "note", data: {}, eventId: "n-1" }, { during: "writer#1", name: "note", data: {}, eventId: "n-1" }] });
testWorkflow(flow, { event: startEvent, events: [{ during: "writer#1", name: "note", data: {}, eventId: "awf.start" }] });
testWorkflow(flow, { ...shared, events: [{ during: "writer#1", name: "note", data: {}, eventId: "awf.start" }] });
`);
  });

  test("an events list in a const, given to two calls, is checked once, on the const's element", () => {
    checkStaticProblems(`${HEADER}
test("one", () => testWorkflow(flow, { events: sent }));
test("two", () => testWorkflow(flow, { events: sent }));
const sent = [{ name: "note", data: {} }];
//            ^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[option-invalid, option "events", index 0]: events[0] ("note") needs one of during or after, naming an agent's turn as "agent#n"
`);
  });
});

describe("options the run refuses together", () => {
  test("values without fromStage is option-invalid on values, and files with cwd on files", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, { values: { draft: "x" } });
//                   ^^^^^^ problem[option-invalid, option "values"]: values give the stages before fromStage: give fromStage too
testWorkflow(flow, { files: { "notes.md": "x" }, cwd: "/tmp/work" });
//                   ^^^^^ problem[option-invalid, option "files"]: testWorkflow takes "files" or "cwd", not both: files are laid out in a directory the test makes
`);
  });

  test("fromStage given, either one undefined, a name that may be undefined or a spread that may give it leaves them to the run", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(flow, { fromStage: "review", values: { draft: "x" } });
testWorkflow(flow, { values: undefined, files: {}, cwd: undefined });
testWorkflow(flow, { values: given, files: tree, cwd: folder });
testWorkflow(flow, { ...continuing, values: { draft: "x" } });
`);
  });
});

// The run's own refusal of the same options: the static message is the run's, word for word.
const withEvents = defineWorkflow({
  name: "with-events",
  description: "A writer, fed notes.",
  events: { "case.changed": Type.Object({ case: Type.String() }), note: Type.Object({ text: Type.String() }) },
  starts: ["case.changed"],
  async run(wf) {
    return wf.event?.name ?? null;
  },
});
const plain = defineWorkflow({
  name: "plain",
  description: "Does nothing.",
  async run() {
    return null;
  },
});

/** Options written once: the static pass reads the text, the run gets the value the same text makes. */
const SAME_WORDS: Array<[string, "plain" | "events", string]> = [
  ["an empty compactions list", "plain", `{ compactions: { writer: [] } }`],
  ["a compactions list holding a number", "plain", `{ compactions: { writer: [answer("Outline."), 7] } }`],
  ["a compactions function", "plain", `{ compactions: { writer: () => "Outline." } }`],
  ["a compactions string", "plain", `{ compactions: { writer: "Outline." } }`],
  ["an empty messages list", "plain", `{ messages: { planner: [] } }`],
  ["answer(…) in messages", "plain", `{ messages: { planner: answer("x") } }`],
  ["a messages list holding an object", "plain", `{ messages: { planner: [(message) => message.reply("x"), noAnswer.silent(), { text: "x" }] } }`],
  ["a participant's text", "plain", `{ participants: { coordinator: "Two." } }`],
  ["a participant's list", "plain", `{ participants: { coordinator: [() => "Two.", noAnswer.hang()] } }`],
  ["an events element with neither", "events", `{ events: [{ name: "note", data: { text: "x" } }] }`],
  ["an events element with both", "events", `{ events: [{ during: "writer#1", after: "writer#1", name: "note", data: { text: "x" } }] }`],
  ["a during that is no turn", "events", `{ events: [{ during: "writer", name: "note", data: { text: "x" } }] }`],
  ["an after that is a number", "events", `{ events: [{ after: 2, name: "note", data: { text: "x" } }] }`],
  [
    "an eventId given twice",
    "events",
    `{ events: [{ during: "writer#1", name: "note", data: { text: "x" }, eventId: "n-1" }, { during: "writer#2", name: "note", data: { text: "y" }, eventId: "n-1" }] }`,
  ],
  [
    "the starting event's eventId given again",
    "events",
    `{ event: { name: "case.changed", data: { case: "c" }, eventId: "e-1" }, events: [{ during: "writer#1", name: "note", data: { text: "x" }, eventId: "e-1" }] }`,
  ],
  [
    "awf.start given again",
    "events",
    `{ event: { name: "case.changed", data: { case: "c" } }, events: [{ during: "writer#1", name: "note", data: { text: "x" }, eventId: "awf.start" }] }`,
  ],
  [
    "awf.test.2 given before its element",
    "events",
    `{ events: [{ during: "writer#1", name: "note", data: { text: "x" }, eventId: "awf.test.2" }, { during: "writer#2", name: "note", data: { text: "y" } }] }`,
  ],
  ["values without fromStage", "plain", `{ values: { draft: "x" } }`],
  ["files and cwd", "plain", `{ files: { "notes.md": "x" }, cwd: "/tmp/work" }`],
];

/** What the two share: an events element's problem names its index; a script list's static problem adds the first bad one, the run's names none. */
const comparable = (problem: Pick<ProblemTrace, "message" | "option" | "key" | "index"> & { code: string }) => ({
  code: problem.code,
  message: problem.message,
  option: problem.option,
  key: problem.key,
  ...(problem.option === "events" ? { index: problem.index } : {}),
});

describe("the run says the same", () => {
  for (const [name, kind, options] of SAME_WORDS) {
    test(`${name}: the static problem is the run's refusal, word for word`, async () => {
      const found = staticProblems(`${HEADER}\ntestWorkflow(flow, ${options});\n`).map(comparable);
      expect(found.length).toBe(1);
      const value: unknown = new Function("answer", "noAnswer", `return (${options});`)(answer, noAnswer);
      let refused: unknown;
      try {
        await (kind === "events" ? testWorkflow(withEvents, value as never) : testWorkflow(plain, value as never));
      } catch (error) {
        refused = error;
      }
      expect((problemsOf(refused) ?? []).map(comparable)).toEqual(found);
    });
  }
});

describe("in the editor", () => {
  const FILE = join(ROOT, "test", "server", "fixtures", "virtual-static-options.test.ts");
  const TEXT = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { compacting, listening } from "./operations";

test("an empty compactions list", async () => {
  await testWorkflow(compacting, { agents: { writer: answer("Draft.") }, compactions: { writer: [] } });
//                                                                                              ^^ error[script-empty-list]: compactions["writer"] is an empty list; a list has an entry per compaction
});

test("a participant given text", async () => {
  await testWorkflow(compacting, { agents: { writer: answer("Draft.") }, participants: { coordinator: "Two." } });
//                                                                                                    ^^^^^^ error[script-invalid]: participants["coordinator"] must be (event) => …, not "Two."
});

test("an event naming no turn", async () => {
  await testWorkflow(listening, { agents: { investigator: answer("read") }, events: [{ during: "investigator", name: "note", data: { text: "x" } }] });
//                                                                                     ^^^^^^ error[option-invalid]: events[0]'s during must name an agent's turn as "agent#n", not "investigator"
});

test("an event id given twice", async () => {
  await testWorkflow(listening, {
    agents: { investigator: answer("read") },
    events: [{ during: "investigator#1", name: "note", data: { text: "x" }, eventId: "awf.test.2" }, { during: "investigator#2", name: "note", data: { text: "y" } }],
//                                                                                                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[event-id-reused]: event id "awf.test.2" is given twice: events[0] and events[1]
  });
});

test("values without fromStage", async () => {
  await testWorkflow(compacting, { agents: { writer: answer("Draft.") }, values: { draft: "x" } });
//                                                                       ^^^^^^ error[option-invalid]: values give the stages before fromStage: give fromStage too
});
`;

  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.started();
  });
  afterAll(() => server.dispose());

  test(
    "the run refuses the same options, and each problem shows once: the static diagnostic",
    async () => {
      const opened = await openFixture(server, FILE, TEXT);
      checkDiagnostics(opened);
      const { uri, diagnostics: statics } = opened;
      // The run did refuse each one, in the same words: only its copy is left out.
      const report: FileReport = server.server.state.currentResults(uri)!.report;
      // A refused call's problems are on its run, and again on the test's error.
      const refusals = report.tests.flatMap((test) => test.runs.flatMap((run) => run.problems));
      expect(report.tests.map((test) => test.status)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
      expect(refusals.map((problem) => [problem.code, problem.message])).toEqual(statics.map((diagnostic) => [diagnostic.code, diagnostic.message]));
      await server.close(uri);
    },
    SLOW,
  );
});
