// Green means green (issue 24): what a test file does to its worker (a forgotten spy, a changed
// builtin, closed descriptors, an exotic throw, bytes on the channel, an exit handler) never hides
// or misplaces another test's result, and the run always ends with its summary.
import { describe, expect } from "bun:test";
import type { FileReport, RunSummary } from "../../core/execution/report.ts";
import { cliTest } from "./cliTable.ts";
import { type CliResult, fixture } from "./harness.ts";

function fileOf(report: RunSummary, name: string): FileReport {
  const found = report.files.find((file) => file.file.endsWith(`/${name}`));
  if (!found) throw new Error(`no report for ${name}`);
  return found;
}

function statuses(report: RunSummary, name: string): Record<string, string> {
  return Object.fromEntries(fileOf(report, name).tests.map((test) => [test.name, test.status]));
}

function json(stdout: string): RunSummary {
  return JSON.parse(stdout) as RunSummary;
}

/** A failed `expect(received).toBe(expected)` as Vitest words it, with the diff under it (numbers as lines, strings side by side). */
const EXPECT_TO_BE = (expected: number | string, received: number | string) =>
  typeof expected === "number"
    ? `expected ${received} to be ${expected} // Object.is equality\n\n- Expected\n+ Received\n\n- ${expected}\n+ ${received}`
    : `expected '${received}' to be '${expected}' // Object.is equality\n\nExpected: "${expected}"\nReceived: "${received}"`;

describe("a file cannot hide another file's failures", () => {
  for (const workers of ["1", "2"]) {
    cliTest({
      name: `a spy on Map.prototype.get a file forgot to restore does not hide the failures of the files after it (${workers} workers)`,
      args: [fixture("forgottenSpy"), "--maxWorkers", workers, "--reporter", "json"],
      code: 1,
      check: (result) => {
        const report = json(result.stdout);
        expect(statuses(report, "a.test.ts")).toEqual({ "caches nothing when the cache misses": "passed" });
        expect(statuses(report, "b.test.ts")).toEqual({ "this test fails": "failed" });
        expect(statuses(report, "f-slow.test.ts")).toEqual({ "fails 1": "failed" });
        expect(fileOf(report, "b.test.ts").tests[0]!.error?.message).toBe(EXPECT_TO_BE(3, 2));
        expect([report.passed, report.failed]).toEqual([1, 2]);
        // The spy was restored when its file ended, so no builtin is left changed and no worker replaced.
        expect(report.files.map((file) => file.warnings)).toEqual([undefined, undefined, undefined]);
      },
    });
  }

  cliTest({
    name: "a file that declares no test fails with no test found, with --passWithNoTests too",
    steps: [[], ["--passWithNoTests"]].map((extra) => ({
      args: [fixture("noTest"), "--reporter", "json", ...extra],
      code: 1,
      check: (result: CliResult) => {
        const report = json(result.stdout);
        expect(fileOf(report, "empty.test.ts")).toMatchObject({ tests: [], error: { message: "no test found in test/runner/fixtures/noTest/empty.test.ts" } });
        expect(statuses(report, "fine.test.ts")).toEqual({ "a file with a test passes": "passed" });
        expect([report.passed, report.failed]).toEqual([1, 1]);
      },
    })),
  });

  for (const workers of ["1", "2"]) {
    cliTest({
      name: `a file that changes a builtin gets a warning naming it, its worker is replaced, and no other file is blamed (${workers} workers)`,
      args: [fixture("pollution"), "--maxWorkers", workers, "--reporter", "json"],
      code: 1,
      check: (result) => {
        const report = json(result.stdout);
        const warning = (name: string, what: string) => [`test/runner/fixtures/pollution/${name} changed ${what}; its worker was replaced`];
        expect(fileOf(report, "p10-a.test.ts").warnings).toEqual(warning("p10-a.test.ts", "Promise.prototype.then"));
        expect(fileOf(report, "p2-a.test.ts").warnings).toEqual(warning("p2-a.test.ts", "JSON.stringify"));
        expect(fileOf(report, "p4-a.test.ts").warnings).toEqual(warning("p4-a.test.ts", "Object.prototype.failed (added), Object.prototype.status (added)"));
        expect(fileOf(report, "p7-a.test.ts").warnings).toEqual(warning("p7-a.test.ts", "Map.prototype.get"));
        expect(fileOf(report, "p9-a.test.ts").warnings).toEqual(warning("p9-a.test.ts", "Function.prototype.call"));
        // The innocent file fails for its own reason only, and carries no warning.
        expect(statuses(report, "b.test.ts")).toEqual({ "b must fail": "failed" });
        expect(fileOf(report, "b.test.ts").tests[0]!.error?.message).toBe(EXPECT_TO_BE("FAIL", "b"));
        expect(fileOf(report, "b.test.ts").warnings).toBeUndefined();
        for (const name of ["p10-a.test.ts", "p2-a.test.ts", "p4-a.test.ts", "p7-a.test.ts"]) expect(statuses(report, name)).toEqual({ "a polluter": "passed" });
      },
    });
  }

  cliTest({
    name: "the dispatcher Node adds at a file's first fetch is not a changed builtin, and a file that replaces it afterwards is",
    args: [fixture("fetchDispatcher"), "--maxWorkers", "1", "--reporter", "json"],
    code: 0,
    check: (result) => {
      const report = json(result.stdout);
      expect(fileOf(report, "a-fetches.test.ts").warnings).toBeUndefined();
      // Node 20 names it undici.globalDispatcher.1, Node 24 .2.
      const warnings = fileOf(report, "b-replaces.test.ts").warnings ?? [];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^test\/runner\/fixtures\/fetchDispatcher\/b-replaces\.test\.ts changed globalThis\[Symbol\(undici\.globalDispatcher\.\d+\)\]; its worker was replaced$/,
      );
    },
  });

  cliTest({
    name: "the default reporter shows a changed builtin as a note under the file's line, not as a failure",
    args: [fixture("promiseThen"), "--maxWorkers", "1"],
    code: 1,
    check: (result) => {
      expect(result.stdout).toContain(
        "✓ test/runner/fixtures/promiseThen/a.test.ts (1 test)\n  ! test/runner/fixtures/promiseThen/a.test.ts changed Promise.prototype.then; its worker was replaced\n",
      );
      expect(result.stdout).toContain("✗ test/runner/fixtures/promiseThen/b.test.ts (1 of 1 failed)\n");
      expect(result.lastLine).toBe("1 passed, 1 failed");
    },
  });

  cliTest({
    name: "a file that replaces Promise.prototype.then does not stall the next file in its worker",
    args: [fixture("promiseThen"), "--maxWorkers", "1", "--reporter", "json"],
    code: 1,
    check: (result) => {
      const report = json(result.stdout);
      // Before the fix, b.test.ts "could not run": its load never ended (a 60 s watchdog kill).
      expect(fileOf(report, "b.test.ts").error).toBeUndefined();
      expect(fileOf(report, "b.test.ts").tests[0]!.error?.message).toBe(EXPECT_TO_BE("FAIL", "b"));
    },
  });
});

describe("one result per test, whatever it does to its process", () => {
  cliTest({
    name: "a test that closes its stdout and stderr fails once, and the file's next test runs",
    args: [fixture("closedFds"), "--reporter", "json"],
    code: 1,
    check: (result) => {
      const report = json(result.stdout);
      const tests = fileOf(report, "closefds.test.ts").tests;
      expect(tests.map((t) => [t.name, t.status])).toEqual([
        ["closes its stdout and stderr", "failed"],
        ["after", "passed"],
      ]);
      expect(tests[0]!.error?.message).toBe(
        "the test closed file descriptor 1 (the worker's stdout), which is turnlens's; a test must not close its runner's descriptors",
      );
      expect([report.passed, report.failed]).toEqual([1, 1]);
    },
  });

  cliTest({
    name: "a test that throws a revoked Proxy fails alone and the rest of its file runs",
    args: [fixture("revokedProxy"), "--reporter", "json"],
    code: 1,
    check: (result) => {
      const report = json(result.stdout);
      const file = fileOf(report, "c.test.ts");
      expect(file.error).toBeUndefined();
      expect(statuses(report, "c.test.ts")).toEqual({ "passes first": "passed", "throws a revoked proxy": "failed", "fails after": "failed" });
      expect(file.tests[1]!.error?.message).toBe("a value was thrown that cannot be read: Cannot perform 'getPrototypeOf' on a proxy that has been revoked");
      expect(file.tests[2]!.error?.message).toBe(EXPECT_TO_BE(2, 1));
    },
  });

  cliTest({
    name: "on Vitest's runner too, a test that throws a revoked Proxy fails alone and the rest of its file runs",
    args: [fixture("revokedProxyVitest"), "--reporter", "json"],
    code: 1,
    check: (result) => {
      const report = json(result.stdout);
      const file = fileOf(report, "c.test.ts");
      expect(file.error).toBeUndefined();
      expect(statuses(report, "c.test.ts")).toEqual({ "passes first": "passed", "throws a revoked proxy": "failed", "fails after": "failed" });
      expect(file.tests[1]!.error?.message).toBe("a value was thrown that cannot be read: Cannot perform 'getPrototypeOf' on a proxy that has been revoked");
    },
  });

  cliTest({
    name: "garbage on the worker's channel fails the test behind it and every file is still reported",
    args: [fixture("channelGarbage"), "--maxWorkers", "1", "--reporter", "json"],
    code: 1,
    check: (result) => {
      const report = json(result.stdout);
      expect(statuses(report, "a.test.ts")).toEqual({ "writes garbage to the IPC fd": "failed", after: "failed" });
      expect(fileOf(report, "a.test.ts").tests[0]!.error?.message).toBe(
        "the test wrote to file descriptor 3 (the worker's channel to turnlens), which is turnlens's; a test must not write to its runner's descriptors",
      );
      expect(statuses(report, "b.test.ts")).toEqual({ "b fails": "failed" });
      // Bytes a child process wrote to the channel's descriptor: the pool refuses the worker.
      expect(statuses(report, "child.test.ts")).toEqual({ "a child process writes garbage to the channel": "failed", "runs after the garbage": "failed" });
      expect(fileOf(report, "child.test.ts").tests[0]!.error?.message).toMatch(
        /^the test sent turnlens's worker channel bytes that are not a message \(Unterminated string in JSON at position 10.*\) \(the channel is the runner's, not the test's\); the worker was killed$/,
      );
      expect(fileOf(report, "child.test.ts").tests[1]!.error?.message).toBe(EXPECT_TO_BE(2, 1));
      expect([report.passed, report.failed]).toEqual([0, 5]);
    },
  });

  cliTest({
    name: "an exit handler that never returns does not keep the run from its summary and its exit",
    args: [fixture("exitHandler"), "--maxWorkers", "1"],
    code: 0,
    check: (result) => {
      expect(result.stdout).toContain("✓ test/runner/fixtures/exitHandler/exitinf.test.ts (1 test)\n");
      expect(result.lastLine).toBe("3 passed, 0 failed");
      // process.reallyExit replaced: the worker cannot exit itself, and is killed after the grace.
      expect(result.stderr).toMatch(/^turnlens: worker \d+ did not exit within 5000ms of being asked \(an exit handler that never returns\?\); it was killed$/m);
    },
  });
});
