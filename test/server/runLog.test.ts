// The server's output-channel lines (server/runLog.ts, server/workerLog.ts): each run of a file with
// its tests counted by test, each worker's start and end, at the level turnlens.logLevel lets
// through; over a real protocol connection, and the line makers on their own.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { LogMessageNotification, type LogMessageParams } from "vscode-languageserver-protocol";
import type { FileReport, TestReport } from "../../core/execution/report.ts";
import { runEndLine, shownPath, testCountsText } from "../../server/runLog.ts";
import { HeldLines, type LogLine, workerExitLine } from "../../server/workerLog.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";

let server: TestServer | undefined;
afterEach(() => server?.dispose());

const TWO_PASS_ONE_FAIL = [
  'import { expect, test } from "bun:test";',
  'test("one", () => expect(1).toBe(1));',
  'test("two", () => expect(2).toBe(2));',
  'test("three", () => expect(3).toBe(4));',
  "",
].join("\n");

function logs(from = 0): string[] {
  return (server?.all<LogMessageParams>(LogMessageNotification.method, from) ?? []).map((params) => params.message);
}

describe("the output channel over the protocol", () => {
  test(
    "a run of an open file logs its path below the workspace, its version, the worker that ran it and its tests counted by test; the worker's start is logged",
    async () => {
      server = await TestServer.started();
      const path = join(ROOT, "examples", "mistakes", "logged-run.test.ts");
      await server.openAndRun(path, TWO_PASS_ONE_FAIL);
      await server.flush();
      const [worker] = server.workers;
      expect(server.workers).toHaveLength(1);
      expect(logs().filter((line) => line.startsWith("ran "))).toEqual([
        `ran examples/mistakes/logged-run.test.ts (version 1) on worker ${worker?.pid}: 3 tests: 2 passed, 1 failed in 0 ms`,
      ]);
      const started = logs().filter((line) => /^worker \d+ started$/.test(line));
      expect(started).toEqual(server.workers.map((child) => `worker ${child.pid} started`));
    },
    SLOW,
  );

  test(
    "a file whose test kills its worker is logged as run on the dead worker then on the one that resumed its other tests",
    async () => {
      server = await TestServer.started();
      const path = join(ROOT, "examples", "mistakes", "worker-killing-run.test.ts");
      const text = [
        'import { expect, test } from "bun:test";',
        'test("kills its worker", () => { process.kill(process.pid, "SIGKILL"); });',
        'test("runs after", () => expect(1).toBe(1));',
        "",
      ].join("\n");
      await server.openAndRun(path, text);
      await server.flush();
      const pids = server.workers.map((child) => child.pid);
      const ran = logs().filter((line) => line.startsWith("ran "));
      expect(ran).toEqual([`ran examples/mistakes/worker-killing-run.test.ts (version 1) on workers ${pids[0]} then ${pids[1]}: 2 tests: 1 passed, 1 failed in 0 ms`]);
      expect(logs()).toContain(`worker ${pids[0]} died (killed by signal SIGKILL)`);
    },
    SLOW,
  );

  test(
    "at logLevel error a run writes no line",
    async () => {
      server = await TestServer.started({ initializationOptions: { settings: { logLevel: "error" } } });
      await server.openAndRun(join(ROOT, "examples", "mistakes", "quiet-run.test.ts"), TWO_PASS_ONE_FAIL);
      await server.flush();
      expect(logs().filter((line) => line.startsWith("ran ") || line.startsWith("worker "))).toEqual([]);
    },
    SLOW,
  );

  test(
    "a worker killed from outside is logged as a death with its signal",
    async () => {
      server = await TestServer.started();
      await server.openAndRun(join(ROOT, "examples", "mistakes", "killed-worker.test.ts"), TWO_PASS_ONE_FAIL);
      const [worker] = server.workers;
      if (!worker?.pid) throw new Error("no worker started");
      const from = server.received.length;
      worker.kill("SIGKILL");
      const died = await server.waitFor<LogMessageParams>(LogMessageNotification.method, (params) => params.message.startsWith(`worker ${worker.pid} `), from);
      expect(died).toEqual({ type: 2, message: `worker ${worker.pid} died (killed by signal SIGKILL)` });
    },
    SLOW,
  );
});

function report(statuses: TestReport["status"][], error?: string): FileReport {
  return {
    file: "/w/a.test.ts",
    durationMs: 5,
    tests: statuses.map((status, index) => ({ id: `t${index}`, name: `t${index}`, path: [`t${index}`], status, durationMs: 1, runs: [] })),
    ...(error ? { error: { message: error } } : {}),
  } as FileReport;
}

describe("the run and worker lines", () => {
  test("counts name only the results that occurred, by test", () => {
    expect(testCountsText(report(["passed"]))).toBe("1 test: 1 passed");
    expect(testCountsText(report(["passed", "failed", "skipped", "todo"]))).toBe("4 tests: 1 passed, 1 failed, 2 skipped");
    expect(testCountsText(report([]))).toBe("0 tests: 0 passed");
  });

  test("a fresh run is info, a file that did not load a warning naming why, a stale or cancelled run debug", () => {
    const base = { file: "a.test.ts", version: 3, durationMs: 41.6 };
    expect(runEndLine({ ...base, outcome: "fresh", report: report(["passed", "passed"]) })).toEqual({
      level: "info",
      text: "ran a.test.ts (version 3): 2 tests: 2 passed in 42 ms",
    });
    expect(runEndLine({ ...base, version: undefined, outcome: "stale", report: report(["failed"]) })).toEqual({
      level: "debug",
      text: "ran a.test.ts (on disk): 1 test: 0 passed, 1 failed in 42 ms; its results were dropped: the document changed meanwhile",
    });
    expect(runEndLine({ ...base, outcome: "fresh", report: report([], 'Could not resolve "./gone"\n  at a.test.ts:1') })).toEqual({
      level: "warn",
      text: 'ran a.test.ts (version 3): the file did not load (Could not resolve "./gone") in 42 ms',
    });
    expect(runEndLine({ ...base, outcome: "cancelled" })).toEqual({ level: "debug", text: "run of a.test.ts (version 3) cancelled after 42 ms" });
  });

  test("the run line names the worker that ran the file, or each in order when one died and another resumed it", () => {
    const base = { file: "a.test.ts", version: 3, durationMs: 41.6, outcome: "fresh" as const, report: report(["passed"]) };
    expect(runEndLine({ ...base, workers: [4121] }).text).toBe("ran a.test.ts (version 3) on worker 4121: 1 test: 1 passed in 42 ms");
    expect(runEndLine({ ...base, workers: [4121, 4130] }).text).toBe("ran a.test.ts (version 3) on workers 4121 then 4130: 1 test: 1 passed in 42 ms");
    expect(runEndLine({ ...base, workers: [] }).text).toBe("ran a.test.ts (version 3): 1 test: 1 passed in 42 ms");
  });

  test("a clean worker exit is info and a death a warning; paths show relative to the root when inside it", () => {
    expect(workerExitLine(12, 0, null)).toEqual({ level: "info", text: "worker 12 exited (exit code 0)" });
    expect(workerExitLine(12, 134, null)).toEqual({ level: "warn", text: "worker 12 died (exit code 134)" });
    expect(shownPath("/w/examples/a.test.ts", "/w")).toBe("examples/a.test.ts");
    expect(shownPath("/elsewhere/a.test.ts", "/w")).toBe("/elsewhere/a.test.ts");
    expect(shownPath("/w/a.test.ts", undefined)).toBe("/w/a.test.ts");
  });
});

describe("the early pool's worker lines", () => {
  test("a worker line said before the server's log exists is held, then written at its own level when the log attaches", () => {
    const held = new HeldLines();
    held.say({ level: "info", text: "worker 7 started" });
    held.say({ level: "warn", text: "worker 7 died (killed by signal SIGKILL)" });
    const written: LogLine[] = [];
    held.attach((line) => written.push(line));
    held.say({ level: "info", text: "worker 8 started" });
    expect(written).toEqual([
      { level: "info", text: "worker 7 started" },
      { level: "warn", text: "worker 7 died (killed by signal SIGKILL)" },
      { level: "info", text: "worker 8 started" },
    ]);
  });

  test("at most 100 lines are held for a log that never comes", () => {
    const held = new HeldLines();
    for (let n = 0; n < 150; n++) held.say({ level: "info", text: `worker ${n} started` });
    const written: LogLine[] = [];
    held.attach((line) => written.push(line));
    expect(written.length).toBe(100);
    expect(written.at(-1)).toEqual({ level: "info", text: "worker 99 started" });
  });
});
