// Test files that turn on the runner: a test that signals the server, a timer left to fire in
// the next file's run. Each is charged to the test that did it, and the server keeps answering.
// The fixtures are unsaved buffers next to examples/mistakes/workflows.ts that do not exist on disk.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DiagnosticSeverity } from "vscode-languageserver-protocol";
import type { ChildProcess } from "node:child_process";
import { TREE_VARIABLE, withTag } from "../../core/execution/processTree.ts";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { freshTag, taggedCommands, until } from "../runner/harness.ts";
import { MISTAKES, mistake, ROOT, SLOW, TestServer, type StartOptions } from "./harness.ts";
import { rangeOf } from "./textRanges.ts";

const PROGRESS = "turnlens/testRunProgress";

let server: TestServer;
async function start(options: StartOptions = {}): Promise<TestServer> {
  return (server = await TestServer.started(options));
}
afterEach(() => server.dispose());

function exited(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
}

function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

function lines(...text: string[]): string {
  return [...text, ""].join("\n");
}

describe("a test cannot take the runner down", () => {
  test(
    "a test that kills its parent fails, and the server answers the next hover",
    async () => {
      await start();
      const text = lines('import { test } from "bun:test";', "", 'test("kills the server", () => {', "  process.kill(process.ppid);", "});");
      const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-parent.test.ts"), text);
      expect(diagnostics.diagnostics).toHaveLength(1);
      expect(diagnostics.diagnostics[0]).toMatchObject({ range: rangeOf(text, "process.kill(process.ppid);"), severity: DiagnosticSeverity.Error, code: "test-failed" });
      expect(diagnostics.diagnostics[0]!.message).toBe(
        `the test called process.kill(${process.pid}), which would signal the turnlens process that runs it; a test must not signal its runner`,
      );
      const hover = await server.request<unknown>("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 2 } });
      expect(hover).not.toBeUndefined();
      expect(server.workers.every((child) => child.exitCode === null && child.signalCode === null)).toBe(true);
    },
    SLOW,
  );

  test(
    "a timer file A's passed test left behind does not fail file B's test in the same worker",
    async () => {
      await start({ initializationOptions: { settings: { workers: 1 } } });
      const a = `import { test } from "bun:test";

test("passes and leaves a timer", () => {
  setTimeout(() => { throw new Error("thrown by file A's timer"); }, 200);
});
`;
      const b = `import { expect, test } from "bun:test";

test("waits past the timer", async () => {
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(1).toBe(1);
});
`;
      const first = await server.openAndRun(join(MISTAKES, "virtual-timer-a.test.ts"), a);
      expect(first.diagnostics.diagnostics).toEqual([]);
      const second = await server.openAndRun(join(MISTAKES, "virtual-timer-b.test.ts"), b);
      expect(second.diagnostics.diagnostics).toEqual([]);
      expect(server.workers).toHaveLength(1);
    },
    SLOW,
  );
});

describe("a warm worker keeps nothing a file left", () => {
  test(
    "the processes a file spawned (detached too) and its intervals are gone when its run ends, so nothing piles up run after run",
    async () => {
      const tag = freshTag();
      await start({ workerEnv: { [TREE_VARIABLE]: withTag(process.env[TREE_VARIABLE], tag) } });
      const text = `import { test } from "bun:test";
import { spawn } from "node:child_process";

test("leaves a child and an interval", () => {
  spawn("sleep", ["306"], { detached: true, stdio: "ignore" }).unref();
  spawn("sleep", ["307"], { stdio: "ignore" });
  setInterval(() => {}, 10);
});
`;
      const { uri } = await server.openAndRun(join(MISTAKES, "virtual-leaves.test.ts"), text);
      for (let edit = 1; edit <= 2; edit++) {
        await server.changeAndRun(uri, `${text}// edit ${edit}\n`);
      }
      await until(() => !taggedCommands(tag).some((command) => command.startsWith("sleep")));
      // What is left is the warm worker and its esbuild service.
      expect(taggedCommands(tag).filter((command) => !command.includes("esbuild"))).toEqual([
        `${process.execPath} --max-semi-space-size=2 ${join(ROOT, "dist", "worker.mjs")}`,
      ]);
      expect(server.workers).toHaveLength(1);
    },
    SLOW,
  );
});

describe("a file cannot hide another file's result", () => {
  test(
    "after a file that spied on Map.prototype.get and forgot to restore it, a failing file in the same warm worker gets its diagnostics",
    async () => {
      await start({ initializationOptions: { settings: { workers: 1 } } });
      const fixtures = join(ROOT, "test", "server", "fixtures", "forgottenSpy");
      const spy = await server.openAndRun(join(MISTAKES, "virtual-spy.test.ts"), readFileSync(join(fixtures, "spy.fixture.ts"), "utf8"));
      expect(spy.diagnostics.diagnostics).toEqual([]);
      const failingText = readFileSync(join(fixtures, "failing.fixture.ts"), "utf8");
      const failing = await server.openAndRun(join(MISTAKES, "virtual-failing.test.ts"), failingText);
      expect(failing.diagnostics.diagnostics).toHaveLength(1);
      expect(failing.diagnostics.diagnostics[0]).toMatchObject({
        range: rangeOf(failingText, "toBe(3); });"),
        severity: DiagnosticSeverity.Error,
        code: "expect-failed",
      });
      expect(failing.diagnostics.diagnostics[0]!.message).toBe("expected 2 to be 3 // Object.is equality\n\n- Expected\n+ Received\n\n- 3\n+ 2");
      // Its edits keep failing there too (the report said 0 tests through 6 edits before the fix).
      for (let edit = 1; edit <= 2; edit++) {
        const after = await server.changeAndRun(failing.uri, `${failingText}// edit ${edit}\n`);
        expect(after?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["expect-failed"]);
      }
      expect(server.workers).toHaveLength(1);
    },
    SLOW,
  );
});

describe("the channel is the runner's", () => {
  test(
    "a worker that sends a message no worker sends fails its running test clearly, and the server answers the next hover",
    async () => {
      await start({ workerEntry: join(ROOT, "test", "server", "fixtures", "forgingWorker.mjs") });
      const text = lines('import { test } from "bun:test";', "", 'test("forged", () => {});');
      const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-forged.test.ts"), text);
      expect(diagnostics.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
        `the test sent turnlens's worker channel a message of type "file", which is none a worker sends (the channel is the runner's, not the test's); the worker was killed`,
      ]);
      expect(await exited(server.workers[0]!)).toBe("SIGKILL");
      const hover = await server.request<unknown>("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 0 } });
      expect(hover).toBeNull();
    },
    SLOW,
  );

  test(
    "a test cannot send on its worker's channel, and the file's other tests still run",
    async () => {
      await start();
      const text = `import { expect, test } from "bun:test";

test("forges a report", () => {
  expect(process.send).toBeUndefined();
  (process as unknown as { _send(message: unknown): void })._send({ type: "file" });
});

test("runs after", () => {});
`;
      const { diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-send.test.ts"), text);
      expect(diagnostics.diagnostics.map((diagnostic) => [diagnostic.range.start.line, diagnostic.message])).toEqual([
        [4, "the worker's IPC channel is turnlens's own; a test cannot send on it"],
      ]);
      expect(server.workers.every((child) => child.exitCode === null && child.signalCode === null)).toBe(true);
    },
    SLOW,
  );
});

describe("no output lost, no timeout overflows", () => {
  test(
    "20,000 log lines of an explorer run all reach the editor, the last one included",
    async () => {
      // The test's own timeout is the hang guard: 20,000 writes on a loaded machine can take longer than
      // the default 5 s, and a test cut short by its timeout would print only part of them.
      await start({ initializationOptions: { settings: { runMode: "manual", testTimeout: SLOW } } });
      const text = lines(
        'import { test } from "bun:test";',
        "",
        'test("logs", () => {',
        "  for (let line = 1; line <= 20_000; line++) console.log(`line ${line}`);",
        "});",
      );
      const uri = await server.open(join(MISTAKES, "virtual-lines.test.ts"), text);
      await server.runTests("r1", { include: [uri] });
      const output = server
        .all<TestRunProgressParams>(PROGRESS)
        .flatMap((params) => (params.runId === "r1" && params.message.type === "output" ? [params.message.text] : []))
        .join("");
      const printed = output.split("\n").filter((line) => line.startsWith("line "));
      expect(printed).toHaveLength(20_000);
      expect(printed.at(-1)).toBe("line 20000");
    },
    SLOW,
  );

  test(
    "a testTimeout setting past what a timer holds is refused for the default, so tests do not time out at once",
    async () => {
      await start({ initializationOptions: { settings: { testTimeout: 2 ** 31 } } });
      const text = `import { test } from "bun:test";

test("waits a moment", async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
});
`;
      const { diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-timeout.test.ts"), text);
      expect(diagnostics.diagnostics).toEqual([]);
      expect(server.server.state.globalSettings.testTimeout).toBe(5000);
    },
    SLOW,
  );
});

describe("bounded memory", () => {
  test(
    "a warm worker is recycled after its run limit, quietly: the next runs get the same results from a fresh worker",
    async () => {
      await start({ workerRecycle: { afterRuns: 2, aboveRssBytes: Number.MAX_SAFE_INTEGER } });
      const { path, text } = mistake("turn-past-list");
      const { uri, diagnostics } = await server.openAndRun(path, text);
      const codes = [diagnostics.diagnostics.map((diagnostic) => diagnostic.code)];
      for (let edit = 1; edit <= 2; edit++) {
        codes.push((await server.changeAndRun(uri, `${text}// edit ${edit}\n`))!.diagnostics.map((diagnostic) => diagnostic.code));
      }
      expect(codes).toEqual([["list-exhausted"], ["list-exhausted"], ["list-exhausted"]]);
      expect(server.workers.length).toBe(2);
      // The first left on its own, its output flushed: asked to exit, not killed.
      expect(await exitCode(server.workers[0]!)).toBe(0);
    },
    SLOW,
  );

  test(
    "a worker over its memory limit is recycled after the file that grew it",
    async () => {
      await start({ workerRecycle: { afterRuns: 1000, aboveRssBytes: 1 } });
      const { path, text } = mistake("turn-past-list");
      const { uri } = await server.openAndRun(path, text);
      expect((await server.changeAndRun(uri, `${text}// edit\n`))!.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      expect(server.workers.length).toBeGreaterThanOrEqual(2);
      expect(await exitCode(server.workers[0]!)).toBe(0);
    },
    SLOW,
  );
});
