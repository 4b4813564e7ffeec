// The `turnlens test` command line: exit codes, the closing line, filters, shards, reporters.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cliTests, DIR, reportOf, runStep } from "./cliTable.ts";
import { type CliResult, fixture, ROOT, SLOW } from "./harness.ts";

const MIXED = fixture("mixed/mixed.test.ts");

describe("exit codes and the closing line", () => {
  cliTests([
    {
      name: "a folder whose tests all pass exits 0 and ends with the count line",
      args: [fixture("pass")],
      code: 0,
      lastLine: "3 passed, 0 failed",
      stdout: { has: [`✓ ${fixture("pass/one.test.ts")} (1 test)`, `✓ ${fixture("pass/two.spec.ts")} (2 tests)`] },
    },
    {
      name: "a failing test exits 1 and shows its full name, file:line:column and the diff",
      args: [fixture("mixed")],
      code: 1,
      lastLine: "1 passed, 1 failed, 1 skipped",
      stdout: { has: [`✗ ${MIXED}`, "FAIL a mixed file › fails on a deep equality", `${MIXED}:9:`, '-     "c",', '+     "b",'] },
    },
    {
      name: "when no test runs the runner says so and exits 1",
      args: [fixture("pass"), "-t", "matches nothing at all"],
      code: 1,
      lastLine: "0 passed, 0 failed, 3 skipped",
      stdout: { has: ["no test ran"] },
    },
    {
      name: "a folder without test files is a run where no test ran",
      files: { "notes.ts": "export const x = 1;\n" },
      args: [DIR],
      code: 1,
      stdout: { has: ["no test ran"] },
    },
  ]);
});

describe("usage errors exit 2", () => {
  cliTests([
    {
      name: "an unknown option is named and the usage printed",
      args: ["--frobnicate"],
      code: 2,
      stderr: { has: ["unknown option: --frobnicate", "Usage: turnlens test"] },
    },
    { name: "-t without a value asks for a pattern", args: ["-t"], code: 2, stderr: { has: ["-t needs a pattern"] } },
    { name: "a bad --timeout asks for a duration", args: ["--timeout", "soon"], code: 2, stderr: { has: ["--timeout needs a duration such as 10s"] } },
    {
      name: "a bad --shard asks for i/n",
      steps: ["3/2", "0/2", "x", "1-2"].map((bad) => ({ args: ["--shard", bad], code: 2, stderr: { has: ["--shard needs i/n such as 1/3"] } })),
    },
    { name: "a path that does not exist is named", args: ["no/such/folder"], code: 2, stderr: { has: ["no such file or directory: no/such/folder"] } },
    {
      name: "--help prints the usage and exits 0",
      args: ["--help"],
      code: 0,
      stdout: { has: ["Usage: turnlens test [paths...] [options]", "--shard <i/n|auto>"] },
    },
  ]);
});

describe("choosing tests", () => {
  cliTests([
    {
      name: "-t runs only the tests whose full name matches and skips the rest",
      args: [fixture("mixed"), "-t", "a mixed file passes", "--reporter", "json"],
      code: 0,
      check: (result) => {
        const statuses = Object.fromEntries(reportOf(result).files[0]!.tests.map((t) => [t.name, t.status]));
        expect(statuses).toEqual({ passes: "passed", "fails on a deep equality": "skipped", "is skipped": "skipped" });
      },
    },
  ]);

  test(
    "--shard splits the files so that every file runs in exactly one shard",
    async () => {
      const seen: string[] = [];
      for (const shard of ["1/3", "2/3", "3/3"]) {
        const report = reportOf(await runStep({ args: [fixture("shard"), "--shard", shard, "--reporter", "json"], code: 0 }));
        expect(report.files.length).toBeGreaterThan(0);
        seen.push(...report.files.map((f) => f.file));
      }
      const all = ["a", "b", "c", "d", "e", "f", "g"].map((n) => join(ROOT, fixture(`shard/${n}.test.ts`)));
      expect([...seen].sort()).toEqual(all);
    },
    SLOW,
  );

  const passing = 'import { test } from "bun:test";\ntest("runs", () => {});\n';
  /** Checks a json run reported exactly `files`, in the project. */
  const ranFiles =
    (...files: string[]) =>
    (result: CliResult, dir: string) =>
      expect(reportOf(result).files.map((f) => f.file)).toEqual(files.map((file) => join(dir, file)));
  cliTests([
    {
      name: "excluded folders are skipped by a folder search but run when named on the command line",
      files: {
        "package.json": JSON.stringify({ name: "p", turnlens: { include: ["examples/"], exclude: ["examples/mistakes/**"] } }),
        "examples/good.test.ts": passing,
        "examples/mistakes/bad.test.ts": passing,
      },
      steps: [
        { args: ["--reporter", "json"], code: 0, check: ranFiles("examples/good.test.ts") },
        { args: ["examples", "--reporter", "json"], code: 0, check: ranFiles("examples/good.test.ts") },
        { args: ["examples/mistakes", "--reporter", "json"], code: 0, check: ranFiles("examples/mistakes/bad.test.ts") },
      ],
    },
  ]);
});

describe("reporters", () => {
  cliTests([
    {
      name: "--reporter json prints one JSON document and nothing else on stdout",
      args: [fixture("mixed"), "--reporter", "json"],
      code: 1,
      check: (result) => {
        const report = reportOf(result);
        expect(report).toMatchObject({ passed: 1, failed: 1, skipped: 1 });
        const failed = report.files[0]!.tests.find((t) => t.status === "failed")!;
        expect(failed.path).toEqual(["a mixed file", "fails on a deep equality"]);
        expect(failed.error?.message).toContain("to deeply equal");
        expect(failed.error?.diff).toContain("- Expected");
        expect(failed.location).toEqual({ file: join(ROOT, MIXED), line: 7, column: 3 });
      },
    },
    {
      name: "the location of a failed expect is the expect line in the .ts file",
      args: [fixture("mixed"), "--reporter", "json"],
      code: 1,
      check: (result) => {
        const failed = reportOf(result).files[0]!.tests.find((t) => t.status === "failed")!;
        expect(failed.error?.location).toMatchObject({ file: join(ROOT, MIXED), line: 9 });
      },
    },
    {
      name: "--reporter junit prints a testsuite per file with the failure and its file:line:column",
      args: [fixture("mixed"), "--reporter", "junit"],
      code: 1,
      stdout: {
        startsWith: '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites',
        has: [
          `<testsuite name="${MIXED}"`,
          'tests="3" failures="1" errors="0" skipped="1"',
          `<testcase name="a mixed file › fails on a deep equality" classname="${MIXED}" time="`,
          `<failure message="expected { Object (name, tags) } to deeply equal { Object (name, tags) }" type="AssertionError">${MIXED}:9:`,
        ],
      },
      stderr: { has: ["1 passed, 1 failed, 1 skipped"] },
      check: (result) => expect(result.stdout.trimEnd().endsWith("</testsuites>")).toBeTrue(),
    },
  ]);
});

describe("the test API", () => {
  cliTests([
    {
      name: "hooks, each tables, done callbacks, timeouts, mocks and bun's matchers work like bun's",
      args: [fixture("api"), "--reporter", "json"],
      code: 1,
      check: (result) => {
        const api = reportOf(result).files.find((f) => f.file.endsWith("api.test.ts"))!;
        expect(Object.fromEntries(api.tests.map((t) => [t.id, t.status]))).toEqual({
          "inner › first": "passed",
          "hooks ran in jest's order": "passed",
          "adds 1 and 2 into 3": "passed",
          "adds 2 and 3 into 5": "passed",
          "names rows by turn": "passed",
          "names rows by lens": "passed",
          "waits for done": "passed",
          "gives up after its own timeout": "failed",
          "mocks and spies": "passed",
          "bun's extra matchers": "passed",
          "is written later": "todo",
        });
        const timedOut = api.tests.find((t) => t.name === "gives up after its own timeout")!;
        expect(timedOut.error?.message).toBe('test "gives up after its own timeout" timed out after 100ms');
        expect(timedOut.error?.location?.line).toBe(48);
      },
    },
    {
      name: "test.only in a file runs only the focused tests of that file",
      args: [fixture("api/only.test.ts"), "--reporter", "json"],
      code: 0,
      check: (result) =>
        expect(reportOf(result).files[0]!.tests.map((t) => [t.name, t.status])).toEqual([
          ["is not focused", "skipped"],
          ["is focused", "passed"],
        ]),
    },
    { name: "a file importing vitest gets a context object and vi mocks", args: [fixture("vitest")], code: 0, lastLine: "2 passed, 0 failed" },
  ]);
});
