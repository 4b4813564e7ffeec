// Test files that misbehave: each gives a clear diagnostic (or nothing stale), and the server
// answers the next request. The fixtures are unsaved buffers next to
// examples/mistakes/workflows.ts that do not exist on disk; each test has a server of its own.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { defaultSettings } from "../../server/settings.ts";
import { MISTAKES, mistake, SLOW, TestServer, type StartOptions } from "./harness.ts";
import { fixtureTests } from "./check/fixtureTests.ts";
import { rangeOf } from "./textRanges.ts";

let server: TestServer | undefined;
async function start(options: StartOptions = {}): Promise<TestServer> {
  return (server = await TestServer.started(options));
}
afterEach(() => {
  server?.dispose();
  server = undefined;
});

/**
 * Whether the server answers a hover (with anything but an error). No stopwatch: a loaded machine
 * answers late, not wrong; a server that never answers is ended by the test's hang guard. A hover
 * while the file's run goes waits for it up to `hoverWaitMs`: the manual timer is moved past that,
 * once the hover is in (a round trip after it), as the clock moves on in an editor.
 */
async function answers(live: TestServer, uri: string): Promise<boolean> {
  const answered = live.request("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 0 } });
  await live.flush();
  live.timer.advance(defaultSettings.hoverWaitMs);
  await answered;
  return true;
}

/** A duration made constant. */
const milliseconds = (title: string) => title.replace(/\d+ ms$/, "N ms");
const MISSING = join(MISTAKES, "virtual-missing.test.ts");

describe("a test file that misbehaves", () => {
  fixtureTests(null, [
    {
      name: "a synchronous infinite loop is killed and reported on its test, the tests after it still run, and the server keeps answering",
      path: join(MISTAKES, "virtual-loop.test.ts"),
      start: { initializationOptions: { settings: { testTimeout: 300 } } },
      during: async (live, uri) => expect(await answers(live, uri)).toBe(true),
      checks: ["diagnostics", "lenses"],
      normalize: milliseconds,
      also: async (opened) => expect(await answers(opened.server, opened.uri)).toBe(true),
      fixture: `import { test } from "bun:test";
| lens[turnlens.runFile]: ▶ Run file

test("spins", () => {
^^^^^^^^^^^^^^^^^^^^^ error[test-failed]: the test did not finish within its 300ms timeout (plus 300ms grace) and blocked its worker process (a synchronous infinite loop?); the worker was killed
^^^^ lens[turnlens.runTest]: ▶ Run
^^^^ lens: ✗ failed
  for (;;) {}
});

test("runs after", () => {});
^^^^ lens[turnlens.runTest]: ▶ Run
^^^^ lens: ✓ 0 turns · N ms
^^^^ lens[turnlens.checkAssertions]: Check what this test asserts
`,
    },
    {
      name: "process.exit(1) in a test fails that test at the call, and the worker survives",
      path: join(MISTAKES, "virtual-exit.test.ts"),
      start: {},
      checks: ["diagnostics"],
      also: async (opened) => {
        expect(opened.server.workers.every((child) => child.exitCode === null && child.signalCode === null)).toBe(true);
        expect(await answers(opened.server, opened.uri)).toBe(true);
      },
      fixture: `import { test } from "bun:test";

test("exits", () => {
  process.exit(1);
//^^^^^^^^^^^^^^^^ error[test-failed]: the test called process.exit(1); a test must not end the process
});
`,
    },
    {
      name: "a worker killed mid-run fails the running test and the rest of the file resumes in a fresh worker",
      path: join(MISTAKES, "virtual-killed.test.ts"),
      start: {},
      during: async (live) => {
        for (const child of live.workers) child.kill("SIGKILL");
      },
      checks: ["diagnostics", "lenses"],
      normalize: milliseconds,
      also: async (opened) => expect(await answers(opened.server, opened.uri)).toBe(true),
      fixture: `import { test } from "bun:test";
| lens[turnlens.runFile]: ▶ Run file

test("is running when the worker dies", async () => {
^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[test-failed]: the test ended its worker process (killed by signal SIGKILL); did it call process.kill, run out of memory or crash node?
^^^^ lens[turnlens.runTest]: ▶ Run
^^^^ lens: ✗ failed
  await new Promise((resolve) => setTimeout(resolve, 10_000));
});

test("runs in the next worker", () => {});
^^^^ lens[turnlens.runTest]: ▶ Run
^^^^ lens: ✓ 0 turns · N ms
^^^^ lens[turnlens.checkAssertions]: Check what this test asserts
`,
    },
  ]);

  test(
    "a test that exhausts its worker's memory is reported on that test and the server carries on",
    async () => {
      const live = await start({ workerExecArgv: ["--max-old-space-size=48"] });
      const text = `import { test } from "bun:test";

test("hoards", () => {
  const kept: string[][] = [];
  for (;;) kept.push(new Array(100_000).fill(String(kept.length)));
});
`;
      const { uri, diagnostics } = await live.openAndRun(join(MISTAKES, "virtual-memory.test.ts"), text);
      expect(diagnostics.diagnostics).toHaveLength(1);
      expect(diagnostics.diagnostics[0]).toMatchObject({ code: "test-failed", range: rangeOf(text, 'test("hoards", () => {') });
      expect(diagnostics.diagnostics[0]!.message).toMatch(
        /^the test ran its worker process out of memory \(the JavaScript heap limit was reached\) running \S+virtual-memory\.test\.ts and ended it \((killed by signal SIGABRT|exit code \d+|killed by signal SIGTRAP)\)$/,
      );
      expect(await answers(live, uri)).toBe(true);
    },
    SLOW,
  );

  fixtureTests(null, [
    {
      name: "a file with a syntax error gets the bundler's error at the place, and static diagnostics still work",
      path: join(MISTAKES, "virtual-syntax.test.ts"),
      start: {},
      checks: ["diagnostics"],
      also: async (opened) => {
        // The static pass's diagnostic first, then the bundler's.
        expect(opened.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["unknown-option", "file-failed"]);
        expect(await answers(opened.server, opened.uri)).toBe(true);
      },
      fixture: `import { test } from "bun:test";
import { testWorkflow } from "agentswf/testing";

test("broken", async () => {
  const = 1;
//      ^^^^ error[file-failed]: Expected identifier but found "="
  await testWorkflow(note, { agnets: {} });
//                           ^^^^^^ error[unknown-option]: testWorkflow takes no option "agnets"; did you mean "agents"?
});
`,
    },
    {
      name: "a test importing a missing module gets the import error on the import",
      path: MISSING,
      start: {},
      checks: ["diagnostics"],
      also: async (opened) => expect(await answers(opened.server, opened.uri)).toBe(true),
      fixture: `import { test } from "bun:test";
import { thing } from "./nope";
//                    ^^^^^^^^^ error[file-failed]: Cannot find module "./nope" imported at ${MISSING}:2:23

test("uses it", () => thing());
`,
    },
  ]);

  test(
    "200 edits in a burst publish their static diagnostics in order up to the last version's, run once, for the last version, and nothing stale is published",
    async () => {
      const live = await start();
      const { text } = mistake("turn-past-list");
      const uri = await live.open(join(MISTAKES, "virtual-burst.test.ts"), text);
      let version = 1;
      for (let edit = 1; edit <= 200; edit++) version = await live.change(uri, `${text}// edit ${edit}\n`);
      expect(await answers(live, uri)).toBe(true);
      await live.advance(300);
      const last = await live.runEnded(uri);
      expect(version).toBe(201);
      expect(last?.version).toBe(201);
      expect(last?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      const versions = live
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
      const runs = live.all<TestRunProgressParams>("turnlens/testRunProgress").filter((params) => params.uri === uri && params.message.type === "end");
      expect(runs).toHaveLength(1);
      expect(await answers(live, uri)).toBe(true);
    },
    SLOW,
  );
});
