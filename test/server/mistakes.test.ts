// Each examples/mistakes file opened in the editor: the exact diagnostics (range, code, message,
// severity), the quick fixes' edits, the inlay hints, the code lenses and the hovers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DiagnosticSeverity, type CodeAction, type CodeLens, type Diagnostic, type Hover, type InlayHint, type Range, type TextEdit } from "vscode-languageserver-protocol";
import { join } from "node:path";
import { MISTAKES, mistake, SLOW, TestServer } from "./harness.ts";
import { rangeOf } from "./textRanges.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.started();
});
afterAll(() => server.dispose());

const WARNING = DiagnosticSeverity.Warning;
const ERROR = DiagnosticSeverity.Error;

interface Opened {
  uri: string;
  text: string;
  diagnostics: Diagnostic[];
}

async function openMistake(name: string): Promise<Opened> {
  const { path, text } = mistake(name);
  const { uri, diagnostics } = await server.openAndRun(path);
  return { uri, text, diagnostics: diagnostics.diagnostics };
}

function expected(range: Range, code: string, message: string, severity: DiagnosticSeverity = ERROR): Diagnostic {
  return { range, severity, source: "turnlens", code, message };
}

const WHOLE: Range = { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } };

async function actions(opened: Opened, range: Range = WHOLE): Promise<Array<{ title: string; preferred: boolean; edits: TextEdit[] }>> {
  const found = await server.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: opened.uri }, range, context: { diagnostics: opened.diagnostics } });
  return found.map((action) => ({ title: action.title, preferred: action.isPreferred === true, edits: action.edit?.changes?.[opened.uri] ?? [] }));
}

async function hints(opened: Opened): Promise<Array<{ line: number; character: number; label: string }>> {
  const found = await server.request<InlayHint[]>("textDocument/inlayHint", { textDocument: { uri: opened.uri }, range: WHOLE });
  return found.map((hint) => ({ ...hint.position, label: hint.label as string }));
}

async function lensTitles(opened: Opened): Promise<Array<{ line: number; title: string; command: string }>> {
  const found = await server.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: opened.uri } });
  return found.map((lens) => ({ line: lens.range.start.line, title: lens.command!.title, command: lens.command!.command }));
}

/** The end of the line holding `needle`: where an inlay hint for it goes. */
function endOfLine(text: string, needle: string): { line: number; character: number } {
  const line = rangeOf(text, needle).start.line;
  return { line, character: text.split("\n")[line]!.length };
}

function insertion(text: string, after: string, newText: string, occurrence = 1): TextEdit {
  const at = rangeOf(text, after, { nth: occurrence }).end;
  return { range: { start: at, end: at }, newText };
}

describe("a mistake file opened in the editor", () => {
  test("an entry never reached is a warning on that entry, removable by a quick fix, and the entry that met the turn shows it", async () => {
    const opened = await openMistake("entry-never-reached");
    const second = 'answer(NOTE, { title: "Release 1.3" })';
    expect(opened.diagnostics).toEqual([
      { ...expected(rangeOf(opened.text, second), "entry-never-reached", 'agent "writer" was asked 1 turn; its script has 2: this entry is never reached', WARNING), tags: [1] },
    ]);
    const first = rangeOf(opened.text, 'answer(NOTE, { title: "Release 1.2" })');
    expect(await actions(opened)).toEqual([
      { title: "Remove this entry never reached", preferred: true, edits: [{ range: { start: first.end, end: rangeOf(opened.text, second).end }, newText: "" }] },
    ]);
    expect(await hints(opened)).toEqual([{ ...endOfLine(opened.text, second), label: "writer #1 ✓" }]);
    const testLine = rangeOf(opened.text, 'test("a list entry never reached"').start.line;
    expect(await lensTitles(opened)).toEqual([
      { line: 0, title: "▶ Run file", command: "turnlens.runFile" },
      { line: testLine, title: "▶ Run", command: "turnlens.runTest" },
      { line: testLine, title: "✗ 1 problem", command: "" },
    ]);
    const hover = await server.request<Hover>("textDocument/hover", { textDocument: { uri: opened.uri }, position: { line: first.start.line, character: first.start.character + 3 } });
    expect(hover.range).toEqual(first);
    expect((hover.contents as { value: string }).value).toBe(
      ["Turnlens · met 1 turn", "---", '**writer** turn 1 · ✓ answered\n> Title the release note.\n\nAnswer: `{"title":"Release 1.2"}`'].join("\n\n"),
    );
    await server.close(opened.uri);
  }, SLOW);

  test("a misspelled option is an error on its name before any run, and the quick fix renames it", async () => {
    const { path, text } = mistake("misspelled-option");
    const from = server.received.length;
    const uri = await server.open(path);
    // Before the debounce ends, nothing has run: the diagnostic is static.
    const staticOnly = await server.waitFor<{ uri: string; diagnostics: Diagnostic[] }>("textDocument/publishDiagnostics", (p) => p.uri === uri, from);
    const diagnostic = expected(rangeOf(text, "agnets"), "unknown-option", 'testWorkflow takes no option "agnets"; did you mean "agents"?');
    expect(staticOnly.diagnostics).toEqual([diagnostic]);
    await server.advance(300);
    const afterRun = await server.runEnded(uri, from);
    // The run refuses the same option; it is not reported twice.
    expect(afterRun?.diagnostics).toEqual([diagnostic]);
    expect(await actions({ uri, text, diagnostics: [diagnostic] })).toEqual([
      { title: 'Rename "agnets" to "agents"', preferred: true, edits: [{ range: rangeOf(text, "agnets"), newText: "agents" }] },
    ]);
    await server.close(uri);
  }, SLOW);

  test("an answer the schema refuses is an error on the value, with the validator's path", async () => {
    const opened = await openMistake("refused-answer");
    expect(opened.diagnostics).toEqual([
      expected(rangeOf(opened.text, '{ title: "v2" }'), "answer-refused", "agent \"writer\" turn 1: the schema refused its script's answer: /title must not have fewer than 3 characters"),
    ]);
    expect(await hints(opened)).toEqual([{ ...endOfLine(opened.text, '{ title: "v2" }'), label: "writer #1 ✗ cancelled" }]);
    await server.close(opened.uri);
  }, SLOW);

  test("a schema mismatch is an error on the schema argument naming both schemas and where they differ, with both whole in its detail, and the quick fix names the turn's schema", async () => {
    const opened = await openMistake("schema-mismatch");
    const schemaArgument = rangeOf(opened.text, "STEP", { nth: 2 });
    expect(opened.diagnostics).toEqual([
      {
        ...expected(
          schemaArgument,
          "schema-mismatch",
          'agent "writer" turn 1: it asks for NOTE; its script answers STEP; they differ at /properties: NOTE has {"title":…}, STEP has {"done":…}',
        ),
        relatedInformation: [
          { location: { uri: opened.uri, range: schemaArgument }, message: `the turn's schema (NOTE): {"properties":{"title":{"minLength":3,"type":"string"}},"required":["title"],"type":"object"}` },
          { location: { uri: opened.uri, range: schemaArgument }, message: `the script's schema (STEP): {"properties":{"done":{"type":"boolean"}},"required":["done"],"type":"object"}` },
        ],
      },
    ]);
    expect(await actions(opened)).toEqual([
      { title: "Answer with NOTE", preferred: true, edits: [insertion(opened.text, "import { note, STEP", ", NOTE"), { range: schemaArgument, newText: "NOTE" }] },
    ]);
    await server.close(opened.uri);
  }, SLOW);

  test("a script that threw is an error at the throw", async () => {
    const opened = await openMistake("script-threw");
    expect(opened.diagnostics).toEqual([
      expected(rangeOf(opened.text, 'throw new Error("no title yet");'), "script-threw", 'agent "writer" turn 1: its script threw: no title yet. It was asked: Title the release note.'),
    ]);
    await server.close(opened.uri);
  }, SLOW);

  test("a stall is an error on the entry whose turn was in flight", async () => {
    const opened = await openMistake("stall");
    expect(opened.diagnostics).toEqual([
      expected(rangeOf(opened.text, "noAnswer.hang()"), "stall", 'the run stalled: nothing started or ended for 200 ms; in flight: "writer" turn 1'),
    ]);
    expect(await hints(opened)).toEqual([{ ...endOfLine(opened.text, "noAnswer.hang()"), label: "writer #1 ✗ cancelled" }]);
    await server.close(opened.uri);
  }, SLOW);

  test("too many turns is an error on the maxTurns option, and the entry's hint counts the turns it met", async () => {
    const opened = await openMistake("too-many-turns");
    expect(opened.diagnostics).toEqual([
      expected(rangeOf(opened.text, "maxTurns"), "max-turns", 'agent "worker" turn 4: the run started more than 3 turns (maxTurns). It was asked: Do step 4.'),
    ]);
    expect(await hints(opened)).toEqual([{ ...endOfLine(opened.text, "answer(STEP, { done: false })"), label: "worker #1–3 ×3 ✓" }]);
    const hover = await server.request<Hover>("textDocument/hover", { textDocument: { uri: opened.uri }, position: rangeOf(opened.text, "answer(STEP").start });
    expect((hover.contents as { value: string }).value).toStartWith("Turnlens · met 3 turns\n\n---\n\n**worker** turn 1 · ✓ answered\n> Do step 1.\n\nAnswer: `{\"done\":false}`");
    const testLine = rangeOf(opened.text, 'test("a loop that never ends"');
    const testHover = await server.request<Hover>("textDocument/hover", { textDocument: { uri: opened.uri }, position: testLine.start });
    expect((testHover.contents as { value: string }).value).toMatch(
      /^Turnlens · \*\*✗ failed\*\* · 3 turns · \d+ ms\n- `loop` cancelled: agent "worker" turn 4: the run started more than 3 turns \(maxTurns\)\. It was asked: Do step 4\. · 3 turns · \d+ ms$/,
    );
    await server.close(opened.uri);
  }, SLOW);

  test("a turn past the list's end is an error on the list naming the turn and its prompt; the fixes add an answer for its schema or noAnswer.silent()", async () => {
    const opened = await openMistake("turn-past-list");
    const list = rangeOf(opened.text, "[answer(STEP, { done: false })]");
    expect(opened.diagnostics).toEqual([expected(list, "list-exhausted", 'agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.')]);
    const listEnd = { line: list.end.line, character: list.end.character - 1 };
    expect(await actions(opened)).toEqual([
      { title: "Add answer(STEP, { done: false }) for worker turn 2", preferred: true, edits: [{ range: { start: listEnd, end: listEnd }, newText: ", answer(STEP, { done: false })" }] },
      {
        title: "Add noAnswer.silent() for worker turn 2",
        preferred: false,
        edits: [insertion(opened.text, "import { answer, testWorkflow", ", noAnswer"), { range: { start: listEnd, end: listEnd }, newText: ", noAnswer.silent()" }],
      },
    ]);
    expect(await hints(opened)).toEqual([{ ...endOfLine(opened.text, "[answer(STEP"), label: "worker #1 ✓" }]);
    await server.close(opened.uri);
  }, SLOW);

  test("two globs matching one agent are an error on both keys", async () => {
    const opened = await openMistake("two-globs");
    const message = 'agent "checker-b" turn 1: it matches "checker-*" and "*-b"; give it a script of its own. It was asked: Check the build.';
    expect(opened.diagnostics).toEqual([expected(rangeOf(opened.text, '"checker-*"'), "glob-conflict", message), expected(rangeOf(opened.text, '"*-b"'), "glob-conflict", message)]);
    expect(await hints(opened)).toEqual([{ ...endOfLine(opened.text, '"checker-*"'), label: "checker-a #1 ✗ cancelled" }]);
    await server.close(opened.uri);
  }, SLOW);

  test("an unscripted agent is an error on the agents object; the fixes add a script answering its schema or noAnswer.silent()", async () => {
    const opened = await openMistake("unscripted-agent");
    const agents = rangeOf(opened.text, '{ reader: answer(NOTE, { title: "Release 1.2" }) }');
    expect(opened.diagnostics).toEqual([expected(agents, "agent-unscripted", 'agent "writer" turn 1: no script for it; scripted: "reader". It was asked: Title the release note.')]);
    const afterReader = rangeOf(opened.text, 'reader: answer(NOTE, { title: "Release 1.2" })').end;
    expect(await actions(opened)).toEqual([
      { title: 'Add a script for "writer": answer(NOTE, { title: "   " })', preferred: true, edits: [{ range: { start: afterReader, end: afterReader }, newText: ', writer: answer(NOTE, { title: "   " })' }] },
      {
        title: 'Add a script for "writer": noAnswer.silent()',
        preferred: false,
        edits: [insertion(opened.text, "import { answer, testWorkflow", ", noAnswer"), { range: { start: afterReader, end: afterReader }, newText: ", writer: noAnswer.silent()" }],
      },
    ]);
    expect(await hints(opened)).toEqual([]);
    await server.close(opened.uri);
  }, SLOW);
});

const THROWING = `import { expect, test } from "bun:test";
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
});

test("an expect fails", async () => {
  const run = await testWorkflow(broken, { agents: { writer: answer(NOTE, { title: "Release 1.2" }) } });
  expect(run.ending.kind).toBe("completed");
});
`;

describe("a run's other failures", () => {
  test("a workflow that threw is an error on its testWorkflow call, and a failing expect is an error on its line with expected and actual", async () => {
    const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-throwing.test.ts"), THROWING);
    expect(diagnostics.diagnostics).toEqual([
      { ...expected(rangeOf(THROWING, 'answer(NOTE, { title: "Release 1.3" })'), "entry-never-reached", 'agent "writer" was asked 1 turn; its script has 2: this entry is never reached', WARNING), tags: [1] },
      // The second "testWorkflow" is the first call's (the first is the import).
      expected(rangeOf(THROWING, "testWorkflow", { nth: 2 }), "workflow-threw", "the workflow threw: no room for a note"),
      expected(rangeOf(THROWING, 'expect(run.ending.kind).toBe("completed");'), "expect-failed", 'expect(received).toBe(expected) // Object.is equality\n\nExpected: "completed"\nReceived: "failed"'),
    ]);
    await server.close(uri);
  }, SLOW);
});
