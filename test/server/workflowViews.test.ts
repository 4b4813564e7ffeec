// The workflow file shows what the tests did at each call: examples/review's workflow, with its
// test file run by the server, over the protocol. Hints at the calls, a hover with links to the
// entries, references to them, the outcomes no test gives each agent, and the quick fix that adds
// such a test (then run by `turnlens test`, its outcome read from the run's report).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { CodeAction, Diagnostic, Hover, InlayHint, Location, PublishDiagnosticsParams, TextEdit } from "vscode-languageserver-protocol";
import type { FileReport } from "../../core/execution/report.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";

const WORKFLOW = join(ROOT, "examples", "review", "workflow.ts");
const TESTS = join(ROOT, "examples", "review", "workflow.test.ts");
const TRACE_TESTS = join(ROOT, "test", "core", "review-trace.test.ts");
const WORKFLOW_TEXT = readFileSync(WORKFLOW, "utf8");
const TESTS_TEXT = readFileSync(TESTS, "utf8");
const WORKFLOW_URI = pathToFileURL(WORKFLOW).href;
const TESTS_URI = pathToFileURL(TESTS).href;

/** 0-based line of the first line holding `needle`, and the character where `name` starts on it. */
function at(text: string, needle: string, name = needle, nth = 0): { line: number; character: number } {
  const lines = text.split("\n");
  const found = lines.map((line, index) => (line.includes(needle) ? index : -1)).filter((index) => index >= 0)[nth];
  if (found === undefined) throw new Error(`no line holds ${needle}`);
  return { line: found, character: (lines[found] ?? "").indexOf(name, (lines[found] ?? "").indexOf(needle)) };
}
const VERIFIERS_OPEN = at(WORKFLOW_TEXT, "const verifier = await wf.agents.open", "open");
const VERIFIER_RUN = at(WORKFLOW_TEXT, "await verifier.run(", "run");
const LEAD_OPEN = at(WORKFLOW_TEXT, 'wf.agents.open({ key: "lead"', "open");
const LEAD_DECIDE = at(WORKFLOW_TEXT, "const decided = await lead.run(", "run");
const LEAD_COMMENT = at(WORKFLOW_TEXT, "const comment = await lead.run(", "run");
/** The site of a line of the test file, 1-based, as links and references name it. */
const testSite = (needle: string, name: string) => {
  const position = at(TESTS_TEXT, needle, name);
  return { line: position.line + 1, column: position.character + 1 };
};

let server: TestServer;
let workflowDiagnostics: PublishDiagnosticsParams;
beforeAll(async () => {
  server = await TestServer.started();
  await server.open(WORKFLOW);
  const { diagnostics } = await server.openAndRun(TESTS);
  expect(diagnostics.diagnostics).toEqual([]);
  workflowDiagnostics = await server.waitFor<PublishDiagnosticsParams>(
    "textDocument/publishDiagnostics",
    (params) => params.uri === WORKFLOW_URI && params.diagnostics.length > 0,
  );
}, SLOW);
afterAll(() => server.dispose());

const hints = () =>
  server.request<InlayHint[]>("textDocument/inlayHint", {
    textDocument: { uri: WORKFLOW_URI },
    range: { start: { line: 0, character: 0 }, end: { line: 200, character: 0 } },
  });
const hover = (position: { line: number; character: number }) => server.request<Hover | null>("textDocument/hover", { textDocument: { uri: WORKFLOW_URI }, position });

test(
  "each call a test reached has a hint at its line's end: how many tests and how their turns ended, and at an open call how many outcomes no test gives",
  async () => {
    const shown = (await hints()).map((hint) => [hint.position.line, hint.label]);
    expect(shown).toEqual([
      [VERIFIERS_OPEN.line, "in 4 tests: answered 8, 3 more"],
      [VERIFIER_RUN.line, "in 4 tests: answered 8, 3 more"],
      [LEAD_OPEN.line, "in 3 tests: answered 6; 5 outcomes untested"],
      [LEAD_DECIDE.line, "in 3 tests: answered 3"],
      [LEAD_COMMENT.line, "in 3 tests: answered 3"],
    ]);
  },
  SLOW,
);

test(
  "the hover at a call lists each test with its turns, linked to the answer( that met them, and the workflow's test files not run yet",
  async () => {
    const found = await hover({ line: VERIFIER_RUN.line, character: VERIFIER_RUN.character + 1 });
    const value = (found?.contents as { value: string } | undefined)?.value ?? "";
    const [head, tests, notRun] = value.split("\n\n");
    expect(head).toBe("**Turnlens** · `verifier.run` · in 4 tests: answered 8, timed out 1, failed 1, cancelled 2");
    const link = (site: { line: number; column: number }) => `${TESTS_URI}#L${site.line},${site.column}`;
    const clean = testSite("const clean = answer(", "answer");
    expect(tests?.split("\n")).toEqual([
      `- [every verifier passes, so the lead approves](${link(clean)}) (workflow.test.ts): verifier-1 #1 answered, verifier-2 #1 answered, verifier-3 #1 answered`,
      `- [an exact key wins over the glob: verifier-2 times out](${link(clean)}) (workflow.test.ts): verifier-1 #1 answered, verifier-2 #1 timed out, verifier-3 #1 answered`,
      `- [a crashed verifier fails the review fast: the others are cancelled](${link(testSite('"verifier-*": noAnswer.hang()', "hang"))}) (workflow.test.ts): verifier-1 #1 cancelled, verifier-2 #1 cancelled, verifier-3 #1 failed`,
      `- [runtimes replaces an alias, and agentOf shows what each agent ran on](${link(clean)}) (workflow.test.ts): verifier-1 #1 answered, verifier-2 #1 answered, verifier-3 #1 answered`,
    ]);
    // Test files importing the workflow that the server has not run: named, each with a command link.
    const traceLink = `[review-trace.test.ts](command:turnlens.runFile?${encodeURIComponent(JSON.stringify([pathToFileURL(TRACE_TESTS).href]))})`;
    expect(notRun).toContain(traceLink);
    expect(notRun).not.toContain("workflow.test.ts");
    expect(found?.range).toEqual({
      start: { line: VERIFIER_RUN.line, character: VERIFIER_RUN.character - "verifier.".length },
      end: { line: VERIFIER_RUN.line, character: VERIFIER_RUN.character + 3 },
    });
    expect(await hover({ line: VERIFIER_RUN.line, character: 0 })).toBeNull();
  },
  SLOW,
);

test(
  "references at a call are the entries that met its turns",
  async () => {
    const locations = await server.request<Location[]>("textDocument/references", {
      textDocument: { uri: WORKFLOW_URI },
      position: LEAD_DECIDE,
      context: { includeDeclaration: true },
    });
    const decide = at(TESTS_TEXT, "answer(DECISION", "answer");
    expect(locations).toEqual([{ uri: TESTS_URI, range: { start: decide, end: { line: decide.line, character: decide.character + "answer".length } } }]);
  },
  SLOW,
);

test(
  "the hover at an open call names, per agent opened there, the outcomes no test gives it",
  async () => {
    const found = await hover({ line: LEAD_OPEN.line, character: LEAD_OPEN.character + 1 });
    const value = (found?.contents as { value: string } | undefined)?.value ?? "";
    expect(value.split("\n\n")).toContain('No test gives "lead": no answer, blocked, timed out, failed, cancelled; a quick fix adds a test for each.');
    const verifiers = await hover({ line: VERIFIERS_OPEN.line, character: VERIFIERS_OPEN.character + 1 });
    const paragraphs = ((verifiers?.contents as { value: string } | undefined)?.value ?? "").split("\n\n");
    expect(paragraphs.filter((paragraph) => paragraph.startsWith("No test gives"))).toEqual([
      'No test gives "verifier-1": no answer, blocked, timed out, failed; a quick fix adds a test for each.',
      'No test gives "verifier-2": no answer, blocked, failed; a quick fix adds a test for each.',
      'No test gives "verifier-3": no answer, blocked, timed out, cancelled; a quick fix adds a test for each.',
    ]);
  },
  SLOW,
);

test(
  "each agent's open call has, once per agent, a Hint diagnostic (no squiggle, not in Problems) naming the outcomes no test gives it",
  () => {
    const shown = workflowDiagnostics.diagnostics.map((diagnostic: Diagnostic) => [
      diagnostic.range.start.line,
      diagnostic.severity,
      diagnostic.source,
      diagnostic.code,
      diagnostic.message,
    ]);
    expect(shown).toEqual([
      [VERIFIERS_OPEN.line, 4, "turnlens", "outcome-not-tested", 'no test gives "verifier-1": no answer, blocked, timed out, failed'],
      [VERIFIERS_OPEN.line, 4, "turnlens", "outcome-not-tested", 'no test gives "verifier-2": no answer, blocked, failed'],
      [VERIFIERS_OPEN.line, 4, "turnlens", "outcome-not-tested", 'no test gives "verifier-3": no answer, blocked, timed out, cancelled'],
      [LEAD_OPEN.line, 4, "turnlens", "outcome-not-tested", 'no test gives "lead": no answer, blocked, timed out, failed, cancelled'],
    ]);
  },
  SLOW,
);

test(
  '"Add a test where lead times out" writes a test that turnlens test runs, in which the lead times out',
  async () => {
    const range = { start: LEAD_OPEN, end: LEAD_OPEN };
    const diagnostics = workflowDiagnostics.diagnostics.filter((diagnostic) => diagnostic.range.start.line === LEAD_OPEN.line);
    const actions = await server.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: WORKFLOW_URI }, range, context: { diagnostics } });
    expect(actions.map((action) => action.title)).toEqual([
      "Add a test where lead does not answer",
      "Add a test where lead is blocked",
      "Add a test where lead times out",
      "Add a test where lead fails",
    ]);
    const edits = actions.find((action) => action.title === "Add a test where lead times out")?.edit?.changes?.[TESTS_URI] as TextEdit[];
    const written = TextDocument.applyEdits(TextDocument.create(TESTS_URI, "typescript", 1, TESTS_TEXT), edits);
    // Right after the test it copied, named for the outcome, with the TODO where its assertions were.
    const added = written.slice(written.indexOf('test("lead times out"'));
    expect(added.slice(0, added.indexOf("\n});") + 4)).toBe(
      [
        'test("lead times out", async () => {',
        '  const run = await testWorkflow(review, { args, agents: { "verifier-*": clean, lead: noAnswer.timedOut() } });',
        "  // TODO: assert what the workflow does when lead times out",
        "});",
      ].join("\n"),
    );
    expect(written.indexOf('test("lead times out"')).toBeGreaterThan(written.indexOf('test("every verifier passes, so the lead approves"'));
    expect(written.indexOf('test("lead times out"')).toBeLessThan(written.indexOf('test("an exact key wins over the glob'));

    const folder = mkdtempSync(join(tmpdir(), "turnlens-added-test-"));
    try {
      symlinkSync(join(ROOT, "node_modules"), join(folder, "node_modules"));
      copyFileSync(WORKFLOW, join(folder, "workflow.ts"));
      writeFileSync(join(folder, "workflow.test.ts"), written);
      const child = spawnSync(process.execPath, [join(ROOT, "bin", "turnlens.mjs"), "test", join(folder, "workflow.test.ts"), "--reporter", "json"], {
        cwd: folder,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      });
      expect(child.status).toBe(0);
      const [report] = (JSON.parse(child.stdout) as { files: FileReport[] }).files;
      const leadTimesOut = report?.tests.find((each) => each.name === "lead times out");
      expect(leadTimesOut?.status).toBe("passed");
      expect(leadTimesOut?.runs[0]?.turns.filter((turn) => turn.agent === "lead").map((turn) => turn.outcome)).toEqual(["timed-out"]);
      expect(report?.tests.map((each) => each.status)).toEqual(["passed", "passed", "passed", "passed", "passed"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
  SLOW,
);

test(
  "running a closed test file of the workflow (the hover's command) adds its tests to the views",
  async () => {
    const from = server.received.length;
    const traceUri = pathToFileURL(TRACE_TESTS).href;
    expect(await server.request("workspace/executeCommand", { command: "turnlens.runFile", arguments: [traceUri] })).toEqual({ started: true });
    await server.runEnded(traceUri, from);
    await server.flush();
    const found = await hover({ line: LEAD_DECIDE.line, character: LEAD_DECIDE.character });
    const value = (found?.contents as { value: string } | undefined)?.value ?? "";
    expect(value).not.toContain("review-trace.test.ts](command:");
    expect(value).toContain("(review-trace.test.ts): ");
  },
  SLOW,
);

test(
  "the outcomeCoverage setting turns the coverage diagnostics off",
  async () => {
    const from = server.received.length;
    await server.client.sendNotification("workspace/didChangeConfiguration", { settings: { turnlens: { outcomeCoverage: false } } });
    const cleared = await server.waitFor<PublishDiagnosticsParams>("textDocument/publishDiagnostics", (params) => params.uri === WORKFLOW_URI, from);
    expect(cleared.diagnostics).toEqual([]);
  },
  SLOW,
);
