// Each examples/mistakes file opened in the editor: the exact diagnostics (range, code, message,
// severity), the quick fixes' edits, the inlay hints, the code lenses and the hovers, written as
// annotations in a copy of the file (which must stay the file's text, annotations taken out): one
// table row a file.
import { describe, expect, test } from "bun:test";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { join } from "node:path";
import { parseFixture } from "./check/annotations.ts";
import { checkActionResult, checkActions, rewritten } from "./check/checkActions.ts";
import { checkDiagnostics } from "./check/checkDiagnostics.ts";
import { fixtureTests, serverForFile, type FixtureRow } from "./check/fixtureTests.ts";
import { MISTAKES, mistake, SLOW } from "./harness.ts";

const server = serverForFile();

/** A duration made constant. */
const milliseconds = (text: string) => text.replace(/\d+ ms/g, "N ms");
/** The list turn-past-list's fixes extend, and the agents object unscripted-agent's fixes add to. */
const LIST = "[answer(STEP, { done: false })]";
const AGENTS = '{ reader: answer(NOTE, { title: "Release 1.2" }) }';

const MISTAKE_FILES: FixtureRow[] = [
  {
    name: "an entry never reached is a warning on that entry, removable by a quick fix, and the entry that met the turn shows it",
    path: mistake("entry-never-reached").path,
    onDisk: true,
    checks: ["diagnostics", "actions", "hints", "lenses", "hovers"],
    fixes: [["Remove this entry never reached", [', answer(NOTE, { title: "Release 1.3" })', ""]]],
    fixture: `// A list is strict: an entry no turn reached fails the test. The writer is asked once; its
| lens[turnlens.runFile]: ▶ Run file
// script has two entries. Fails with: agent "writer" was asked 1 turn; its script has 2
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a list entry never reached", async () => {
^^^^ lens[turnlens.runTest]: ▶ Run
^^^^ lens: ✗ 1 problem
  await testWorkflow(note, {
    agents: { writer: [answer(NOTE, { title: "Release 1.2" }), answer(NOTE, { title: "Release 1.3" })] },
//                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[entry-never-reached, unnecessary]: agent "writer" was asked 1 turn; its script has 2: this entry is never reached
//                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action[preferred]: Remove this entry never reached
//                           | hint: writer · turn 1 answered
//                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **writer · turn 1 answered**
//                     |
//                     | ---
//                     |
//                     | **writer** turn 1 · ✓ answered
//                     | > Title the release note.
//                     |
//                     | Answer: \`{"title":"Release 1.2"}\`
  });
});
`,
  },
  {
    name: "an answer the schema refuses is an error on the value, with the validator's path",
    path: mistake("refused-answer").path,
    onDisk: true,
    checks: ["diagnostics", "hints"],
    fixture: `// A script's answer goes through the real validator, which checks what types can't: NOTE's title
// has at least 3 characters. Fails with:
// agent "writer" turn 1: the schema refused its script's answer: /title is "v2", 2 characters; allowed: at least 3 characters
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("an answer the schema refuses", async () => {
  await testWorkflow(note, {
    agents: { writer: answer(NOTE, { title: "v2" }) },
//                                 ^^^^^^^^^^^^^^^ error[answer-refused]: agent "writer" turn 1: the schema refused its script's answer: /title is "v2", 2 characters; allowed: at least 3 characters
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: writer · turn 1 ✗ refused
  });
});
`,
  },
  {
    name: "a schema mismatch is an error on the schema argument naming both schemas, where they differ and what each wants there, with each schema in words in its detail, and the quick fix names the turn's schema",
    path: mistake("schema-mismatch").path,
    onDisk: true,
    checks: ["diagnostics", "actions"],
    fixes: [
      [
        "Answer with NOTE",
        ['import { note, STEP } from "./workflows";', 'import { note, STEP, NOTE } from "./workflows";'],
        ["answer(STEP, { done: true })", "answer(NOTE, { done: true })"],
      ],
    ],
    fixture: `// An answer's schema must be the turn's. The writer is asked for NOTE; its script answers STEP.
// Fails with: agent "writer" turn 1: it asks for NOTE; its script answers STEP: at /title NOTE
// wants a string, STEP has no title. It was asked: Title the release note.
// (Each schema named as ./workflows exports it; the report's detail shows both whole.)
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, STEP } from "./workflows";

test("an answer for another schema", async () => {
  await testWorkflow(note, {
    agents: { writer: answer(STEP, { done: true }) },
//                           ^^^^ error[schema-mismatch]: agent "writer" turn 1: it asks for NOTE; its script answers STEP: at /title NOTE wants a string, STEP has no title
//                           ^^^^ related[schema-mismatch]: the turn's schema (NOTE): an object with title (a string)
//                           ^^^^ related[schema-mismatch]: the script's schema (STEP): an object with done (a boolean)
//                           ^^^^ action[preferred]: Answer with NOTE
  });
});
`,
  },
  {
    name: "a script that threw is an error at the throw",
    path: mistake("script-threw").path,
    onDisk: true,
    checks: ["diagnostics"],
    fixture: `// A script function that throws fails the test, not the workflow.
// Fails with: agent "writer" turn 1: its script threw: no title yet. It was asked: Title the release note.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a script that throws", async () => {
  await testWorkflow(note, {
    agents: {
      writer: answer(NOTE, () => {
        throw new Error("no title yet");
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[script-threw]: agent "writer" turn 1: its script threw: no title yet. It was asked: Title the release note.
      }),
    },
  });
});
`,
  },
  {
    name: "a stall is an error on the entry whose turn was in flight",
    path: mistake("stall").path,
    onDisk: true,
    checks: ["diagnostics", "hints"],
    fixture: `// noAnswer.hang() holds until the engine cancels the turn; here nothing does (no deadline, no
// sibling), so the stall guard fails the test after \`stall\`.
// Fails with: the run stalled: nothing started or ended for 200 ms; in flight: "writer" turn 1
import { test } from "bun:test";
import { noAnswer, testWorkflow } from "agentswf/testing";
import { note } from "./workflows";

test("a turn nobody ends", async () => {
  await testWorkflow(note, {
    agents: { writer: noAnswer.hang() },
//                    ^^^^^^^^^^^^^^^ error[stall]: the run stalled: nothing started or ended for 200 ms; in flight: "writer" turn 1
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: writer · turn 1 ✗ cancelled
    stall: "200ms",
  });
});
`,
  },
  {
    name: "too many turns is an error on the maxTurns option, and the entry's hint counts the turns it met",
    path: mistake("too-many-turns").path,
    onDisk: true,
    checks: ["diagnostics", "hints", "hovers"],
    normalize: milliseconds,
    fixture: `// maxTurns bounds the turns a workflow starts, so a loop that never ends fails rather than hangs.
// The worker never says done. Fails with: agent "worker" turn 4: the run started more than 3 turns (maxTurns). It was asked: Do step 4.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

test("a loop that never ends", async () => {
^^^^ hover: Turnlens · **✗ failed** · 3 turns · N ms
| - \`loop\` cancelled: agent "worker" turn 4: the run started more than 3 turns (maxTurns). It was asked: Do step 4. · 3 turns · N ms
  await testWorkflow(loop, {
    agents: { worker: answer(STEP, { done: false }) },
//                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turns 1–3 answered
//                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **worker · turns 1–3 answered**
//                    |
//                    | ---
//                    |
//                    | **worker** turn 1 · ✓ answered
//                    | > Do step 1.
//                    |
//                    | Answer: \`{"done":false}\`
//                    |
//                    | ---
//                    |
//                    | **worker** turn 2 · ✓ answered
//                    | > Do step 2.
//                    |
//                    | Answer: \`{"done":false}\`
//                    |
//                    | ---
//                    |
//                    | **worker** turn 3 · ✓ answered
//                    | > Do step 3.
//                    |
//                    | Answer: \`{"done":false}\`
    maxTurns: 3,
//  ^^^^^^^^ error[max-turns]: agent "worker" turn 4: the run started more than 3 turns (maxTurns). It was asked: Do step 4.
  });
});
`,
  },
  {
    name: "a turn past the list's end is an error on the list naming the turn and its prompt; the fixes add an answer for its schema or noAnswer.silent()",
    path: mistake("turn-past-list").path,
    onDisk: true,
    checks: ["diagnostics", "actions", "hints"],
    fixes: [
      ["Add answer(STEP, { done: false }) for worker turn 2", [LIST, "[answer(STEP, { done: false }), answer(STEP, { done: false })]"]],
      [
        "Add noAnswer.silent() for worker turn 2",
        ["import { answer, testWorkflow }", "import { answer, testWorkflow, noAnswer }"],
        [LIST, "[answer(STEP, { done: false }), noAnswer.silent()]"],
      ],
    ],
    fixture: `// A list has one entry per turn: a turn past its end fails the test. The worker is asked again
// after its only entry. Fails with: agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

test("a turn past the list's end", async () => {
  await testWorkflow(loop, {
    agents: { worker: [answer(STEP, { done: false })] },
//                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[list-exhausted]: agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.
//                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action[preferred]: Add answer(STEP, { done: false }) for worker turn 2
//                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Add noAnswer.silent() for worker turn 2
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 1 answered
  });
});
`,
  },
  {
    name: "two globs matching one agent are an error on both keys",
    path: mistake("two-globs").path,
    onDisk: true,
    checks: ["diagnostics", "hints"],
    fixture: `// An exact key wins over a pattern, but two patterns matching one key fail the test.
// Fails with: agent "checker-b" turn 1: it matches "checker-*" and "*-b"; give it a script of its own. It was asked: Check the build.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { pair } from "./workflows";

test("two patterns match one agent", async () => {
  await testWorkflow(pair, {
    agents: { "checker-*": answer("green"), "*-b": answer("red") },
//            ^^^^^^^^^^^ error[glob-conflict]: agent "checker-b" turn 1: it matches "checker-*" and "*-b"; give it a script of its own. It was asked: Check the build.
//                                          ^^^^^ error[glob-conflict]: agent "checker-b" turn 1: it matches "checker-*" and "*-b"; give it a script of its own. It was asked: Check the build.
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: checker-a · turn 1 ✗ cancelled
  });
});
`,
  },
  {
    name: "an unscripted agent is an error on the agents object; the fixes add a script answering its schema or noAnswer.silent()",
    path: mistake("unscripted-agent").path,
    onDisk: true,
    checks: ["diagnostics", "actions", "hints"],
    fixes: [
      [
        'Add a script for "writer": answer(NOTE, { title: "   " })',
        [AGENTS, '{ reader: answer(NOTE, { title: "Release 1.2" }), writer: answer(NOTE, { title: "   " }) }'],
      ],
      [
        'Add a script for "writer": noAnswer.silent()',
        ["import { answer, testWorkflow }", "import { answer, testWorkflow, noAnswer }"],
        [AGENTS, '{ reader: answer(NOTE, { title: "Release 1.2" }), writer: noAnswer.silent() }'],
      ],
    ],
    // No hint is written: the agents object scripts no agent that had a turn.
    fixture: `// Every agent asked a turn needs a script. The workflow asks "writer"; the test scripts "reader".
// Fails with: agent "writer" turn 1: no script for it; scripted: "reader". It was asked: Title the release note.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("an agent with no script", async () => {
  await testWorkflow(note, {
    agents: { reader: answer(NOTE, { title: "Release 1.2" }) },
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[agent-unscripted]: agent "writer" turn 1: no script for it; scripted: "reader". It was asked: Title the release note.
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action[preferred]: Add a script for "writer": answer(NOTE, { title: "   " })
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Add a script for "writer": noAnswer.silent()
  });
});
`,
  },
];

/** A run's failures no mistakes file shows. */
const OTHER_FAILURES: FixtureRow[] = [
  {
    name: "a workflow that threw is an error on its testWorkflow call, and a failing expect is an error from its matcher to the line's end, with expected and actual",
    path: join(MISTAKES, "virtual-throwing.test.ts"),
    checks: ["diagnostics"],
    fixture: `import { expect, test } from "bun:test";
import { defineWorkflow } from "agentswf/workflow";
import { answer, testWorkflow } from "agentswf/testing";
import { NOTE } from "./workflows";

const broken = defineWorkflow({
  name: "broken",
  description: "Throws after one turn.",
  async run(wf) {
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    await writer.run({ prompt: "Title the release note.", schema: NOTE });
    throw new Error("no room for a note");
  },
});

test("the workflow throws", async () => {
  await testWorkflow(broken, { agents: { writer: [answer(NOTE, { title: "Release 1.2" }), answer(NOTE, { title: "Release 1.3" })] } });
//                                                                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[entry-never-reached, unnecessary]: agent "writer" was asked 1 turn; its script has 2: this entry is never reached
//      ^^^^^^^^^^^^ error[workflow-threw]: the workflow threw: no room for a note
});

test("an expect fails", async () => {
  const run = await testWorkflow(broken, { agents: { writer: answer(NOTE, { title: "Release 1.2" }) } });
  expect(run.ending.kind).toBe("completed");
//                        ^^^^^^^^^^^^^^^^^^ error[expect-failed]: expected 'failed' to be 'completed' // Object.is equality
//                        |
//                        | Expected: "completed"
//                        | Received: "failed"
});
`,
  },
];

describe("a mistake file opened in the editor", () => {
  fixtureTests(server, MISTAKE_FILES);

  test(
    "a misspelled option is an error on its name before any run, and the quick fix renames it",
    async () => {
      const live = server();
      const { path } = mistake("misspelled-option");
      const fixture = parseFixture(
        `// An option testWorkflow doesn't take is refused, named, so a misspelling fails rather than
// being ignored. Fails with: testWorkflow takes no option "agnets"; did you mean "agents"?
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a misspelled option", async () => {
  await testWorkflow(note, {
    // @ts-expect-error -- tsc refuses the name too; the test shows what the run says.
    agnets: { writer: answer(NOTE, { title: "Release 1.2" }) },
//  ^^^^^^ error[unknown-option]: testWorkflow takes no option "agnets"; did you mean "agents"?
//  ^^^^^^ action[preferred]: Rename "agnets" to "agents"
  });
});
`,
      );
      expect(fixture.text).toBe(mistake("misspelled-option").text);
      const from = live.received.length;
      const uri = await live.open(path);
      // Before the debounce ends, nothing has run: the diagnostic is static.
      const staticOnly = await live.waitFor<{ uri: string; diagnostics: Diagnostic[] }>("textDocument/publishDiagnostics", (p) => p.uri === uri, from);
      checkDiagnostics({ server: live, uri, fixture, diagnostics: staticOnly.diagnostics });
      await live.advance(300);
      const afterRun = await live.runEnded(uri, from);
      // The run refuses the same option; it is not reported twice.
      const opened = { server: live, uri, fixture, diagnostics: afterRun?.diagnostics ?? [] };
      checkDiagnostics(opened);
      await checkActions(opened);
      await checkActionResult(opened, 'Rename "agnets" to "agents"', rewritten(fixture.text, ["    agnets: {", "    agents: {"]));
      await live.close(uri);
    },
    SLOW,
  );
});

describe("a run's other failures", () => {
  fixtureTests(server, OTHER_FAILURES);
});
