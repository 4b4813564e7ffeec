// Test files that misbehave: each gives a clear diagnostic (or nothing stale), and the server
// answers the next request. The fixtures are unsaved buffers next to
// examples/mistakes/workflows.ts that do not exist on disk.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DiagnosticSeverity, type Diagnostic, type PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { MISTAKES, mistake, SLOW, TestServer, type StartOptions } from "./harness.ts";
import { parseFixture, type Fixture } from "./check/annotations.ts";
import { checkLenses } from "./check/checkLenses.ts";
import { rangeOf } from "./textRanges.ts";

let server: TestServer;
async function start(options: StartOptions = {}): Promise<TestServer> {
  return (server = await TestServer.started(options));
}
afterEach(() => server.dispose());

/**
 * Whether the server answers a hover (with anything but an error). No stopwatch: a loaded machine
 * answers late, not wrong; a server that never answers is ended by the test's hang guard.
 */
async function answers(uri: string): Promise<boolean> {
  await server.request("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 0 } });
  return true;
}

function lines(...text: string[]): string {
  return [...text, ""].join("\n");
}

function testFailed(text: string, line: string, message: string): Diagnostic {
  const range = rangeOf(text, line);
  const indent = text.split("\n")[range.start.line]!.length - text.split("\n")[range.start.line]!.trimStart().length;
  return {
    range: { start: { line: range.start.line, character: indent }, end: range.end },
    severity: DiagnosticSeverity.Error,
    source: "turnlens",
    code: "test-failed",
    message,
  };
}

/** The lenses of a fixture opened by hand, a duration made constant. */
function checkLensesOf(uri: string, fixture: Fixture, diagnostics: Diagnostic[] = []): Promise<void> {
  return checkLenses({ server, uri, fixture, diagnostics }, { normalize: (title) => title.replace(/\d+ ms$/, "N ms") });
}

describe("a test file that misbehaves", () => {
  test(
    "a synchronous infinite loop is killed and reported on its test, the tests after it still run, and the server keeps answering",
    async () => {
      await start({ initializationOptions: { settings: { testTimeout: 300 } } });
      const fixture = parseFixture(
        lines(
          'import { test } from "bun:test";',
          "| lens[turnlens.runFile]: ▶ Run file",
          "",
          'test("spins", () => {',
          "^^^^ lens[turnlens.runTest]: ▶ Run",
          "^^^^ lens: ✗ failed",
          "  for (;;) {}",
          "});",
          "",
          'test("runs after", () => {});',
          "^^^^ lens[turnlens.runTest]: ▶ Run",
          "^^^^ lens: ✓ 0 turns · N ms",
          "^^^^ lens[turnlens.checkAssertions]: Check what this test asserts",
        ),
      );
      const text = fixture.text;
      const uri = await server.open(join(MISTAKES, "virtual-loop.test.ts"), text);
      await server.advance(300);
      await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.uri === uri && params.message.type === "started");
      expect(await answers(uri)).toBe(true);
      const published = await server.runEnded(uri);
      expect(published?.diagnostics).toEqual([
        testFailed(
          text,
          'test("spins", () => {',
          "the test did not finish within its 300ms timeout (plus 300ms grace) and blocked its worker process (a synchronous infinite loop?); the worker was killed",
        ),
      ]);
      await checkLensesOf(uri, fixture);
      expect(await answers(uri)).toBe(true);
    },
    SLOW,
  );

  test(
    "process.exit(1) in a test fails that test at the call, and the worker survives",
    async () => {
      await start();
      const text = lines('import { test } from "bun:test";', "", 'test("exits", () => {', "  process.exit(1);", "});");
      const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-exit.test.ts"), text);
      expect(diagnostics.diagnostics).toEqual([testFailed(text, "process.exit(1);", "the test called process.exit(1); a test must not end the process")]);
      expect(server.workers.every((child) => child.exitCode === null && child.signalCode === null)).toBe(true);
      expect(await answers(uri)).toBe(true);
    },
    SLOW,
  );

  test(
    "a worker killed mid-run fails the running test and the rest of the file resumes in a fresh worker",
    async () => {
      await start();
      const fixture = parseFixture(
        lines(
          'import { test } from "bun:test";',
          "| lens[turnlens.runFile]: ▶ Run file",
          "",
          'test("is running when the worker dies", async () => {',
          "^^^^ lens[turnlens.runTest]: ▶ Run",
          "^^^^ lens: ✗ failed",
          "  await new Promise((resolve) => setTimeout(resolve, 10_000));",
          "});",
          "",
          'test("runs in the next worker", () => {});',
          "^^^^ lens[turnlens.runTest]: ▶ Run",
          "^^^^ lens: ✓ 0 turns · N ms",
          "^^^^ lens[turnlens.checkAssertions]: Check what this test asserts",
        ),
      );
      const text = fixture.text;
      const uri = await server.open(join(MISTAKES, "virtual-killed.test.ts"), text);
      await server.advance(300);
      await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.uri === uri && params.message.type === "started");
      for (const child of server.workers) child.kill("SIGKILL");
      const published = await server.runEnded(uri);
      expect(published?.diagnostics).toEqual([
        testFailed(
          text,
          'test("is running when the worker dies", async () => {',
          "the test ended its worker process (killed by signal SIGKILL); did it call process.kill, run out of memory or crash node?",
        ),
      ]);
      await checkLensesOf(uri, fixture);
      expect(await answers(uri)).toBe(true);
    },
    SLOW,
  );

  test(
    "a test that exhausts its worker's memory is reported on that test and the server carries on",
    async () => {
      await start({ workerExecArgv: ["--max-old-space-size=48"] });
      const text = lines(
        'import { test } from "bun:test";',
        "",
        'test("hoards", () => {',
        "  const kept: string[][] = [];",
        "  for (;;) kept.push(new Array(100_000).fill(String(kept.length)));",
        "});",
      );
      const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-memory.test.ts"), text);
      expect(diagnostics.diagnostics).toHaveLength(1);
      expect(diagnostics.diagnostics[0]).toMatchObject({ code: "test-failed", range: testFailed(text, 'test("hoards", () => {', "").range });
      expect(diagnostics.diagnostics[0]!.message).toMatch(
        /^the test ran its worker process out of memory \(the JavaScript heap limit was reached\) running \S+virtual-memory\.test\.ts and ended it \((killed by signal SIGABRT|exit code \d+|killed by signal SIGTRAP)\)$/,
      );
      expect(await answers(uri)).toBe(true);
    },
    SLOW,
  );

  test(
    "a file with a syntax error gets the bundler's error at the place, and static diagnostics still work",
    async () => {
      await start();
      const text = lines(
        'import { test } from "bun:test";',
        'import { testWorkflow } from "agentswf/testing";',
        "",
        'test("broken", async () => {',
        "  const = 1;",
        "  await testWorkflow(note, { agnets: {} });",
        "});",
      );
      const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-syntax.test.ts"), text);
      const equals = rangeOf(text, "= 1;");
      expect(diagnostics.diagnostics).toEqual([
        {
          range: rangeOf(text, "agnets"),
          severity: DiagnosticSeverity.Error,
          source: "turnlens",
          code: "unknown-option",
          message: 'testWorkflow takes no option "agnets"; did you mean "agents"?',
        },
        { range: equals, severity: DiagnosticSeverity.Error, source: "turnlens", code: "file-failed", message: 'Expected identifier but found "="' },
      ]);
      expect(await answers(uri)).toBe(true);
    },
    SLOW,
  );

  test(
    "a test importing a missing module gets the import error on the import",
    async () => {
      await start();
      const path = join(MISTAKES, "virtual-missing.test.ts");
      const text = lines('import { test } from "bun:test";', 'import { thing } from "./nope";', "", 'test("uses it", () => thing());');
      const { uri, diagnostics } = await server.openAndRun(path, text);
      expect(diagnostics.diagnostics).toEqual([
        {
          range: rangeOf(text, '"./nope";'),
          severity: DiagnosticSeverity.Error,
          source: "turnlens",
          code: "file-failed",
          message: `Cannot find module "./nope" imported at ${path}:2:23`,
        },
      ]);
      expect(await answers(uri)).toBe(true);
    },
    SLOW,
  );

  test(
    "200 edits in a burst publish their static diagnostics in order up to the last version's, run once, for the last version, and nothing stale is published",
    async () => {
      await start();
      const { text } = mistake("turn-past-list");
      const uri = await server.open(join(MISTAKES, "virtual-burst.test.ts"), text);
      let version = 1;
      for (let edit = 1; edit <= 200; edit++) version = await server.change(uri, `${text}// edit ${edit}\n`);
      expect(await answers(uri)).toBe(true);
      await server.advance(300);
      const last = await server.runEnded(uri);
      expect(version).toBe(201);
      expect(last?.version).toBe(201);
      expect(last?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      const versions = server
        .all<PublishDiagnosticsParams>("textDocument/publishDiagnostics")
        .filter((params) => params.uri === uri)
        .map((params) => params.version);
      // Static diagnostics (none) in version order, the last version's among them (edits read
      // while later ones waited share one pass, messageBacklog.ts), then the one run's, of the last.
      const statics = versions.slice(0, -1);
      expect(versions.at(-1)).toBe(201);
      expect(statics[0]).toBe(1);
      expect(statics.at(-1)).toBe(201);
      expect(statics).toEqual([...new Set(statics)].sort((left, right) => (left ?? 0) - (right ?? 0)));
      const runs = server.all<TestRunProgressParams>("turnlens/testRunProgress").filter((params) => params.uri === uri && params.message.type === "end");
      expect(runs).toHaveLength(1);
      expect(await answers(uri)).toBe(true);
    },
    SLOW,
  );
});
