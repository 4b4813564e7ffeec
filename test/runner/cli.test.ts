// The `turnlens test` command line: exit codes, the closing line, filters, shards, reporters.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { RunSummary } from "../../core/execution/report.ts";
import { fixture, ROOT, SLOW, tempProject, turnlens } from "./harness.ts";

describe("exit codes and the closing line", () => {
  test(
    "a folder whose tests all pass exits 0 and ends with the count line",
    async () => {
      const result = await turnlens([fixture("pass")]);
      expect(result.code).toBe(0);
      expect(result.lastLine).toBe("3 passed, 0 failed");
      expect(result.stdout).toContain(`✓ ${fixture("pass/one.test.ts")} (1 test)`);
      expect(result.stdout).toContain(`✓ ${fixture("pass/two.spec.ts")} (2 tests)`);
    },
    SLOW,
  );

  test(
    "a failing test exits 1 and shows its full name, file:line:column and the diff",
    async () => {
      const result = await turnlens([fixture("mixed")]);
      expect(result.code).toBe(1);
      expect(result.lastLine).toBe("1 passed, 1 failed, 1 skipped");
      expect(result.stdout).toContain(`✗ ${fixture("mixed/mixed.test.ts")}`);
      expect(result.stdout).toContain("FAIL a mixed file › fails on a deep equality");
      expect(result.stdout).toContain(`${fixture("mixed/mixed.test.ts")}:9:`);
      expect(result.stdout).toContain('-     "c",');
      expect(result.stdout).toContain('+     "b",');
    },
    SLOW,
  );

  test(
    "when no test runs the runner says so and exits 1",
    async () => {
      const result = await turnlens([fixture("pass"), "-t", "matches nothing at all"]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain("no test ran");
      expect(result.lastLine).toBe("0 passed, 0 failed, 3 skipped");
    },
    SLOW,
  );

  test(
    "a folder without test files is a run where no test ran",
    async () => {
      const project = tempProject({ "notes.ts": "export const x = 1;\n" });
      try {
        const result = await turnlens([project.dir]);
        expect(result.code).toBe(1);
        expect(result.stdout).toContain("no test ran");
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
});

describe("usage errors exit 2", () => {
  test(
    "an unknown option is named and the usage printed",
    async () => {
      const result = await turnlens(["--frobnicate"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("unknown option: --frobnicate");
      expect(result.stderr).toContain("Usage: turnlens test");
    },
    SLOW,
  );

  test(
    "-t without a value asks for a pattern",
    async () => {
      const result = await turnlens(["-t"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("-t needs a pattern");
    },
    SLOW,
  );

  test(
    "a bad --timeout asks for a duration",
    async () => {
      const result = await turnlens(["--timeout", "soon"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--timeout needs a duration such as 10s");
    },
    SLOW,
  );

  test(
    "a bad --shard asks for i/n",
    async () => {
      for (const bad of ["3/2", "0/2", "x", "1-2"]) {
        const result = await turnlens(["--shard", bad]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain("--shard needs i/n such as 1/3");
      }
    },
    SLOW,
  );

  test(
    "a path that does not exist is named",
    async () => {
      const result = await turnlens(["no/such/folder"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("no such file or directory: no/such/folder");
    },
    SLOW,
  );

  test(
    "--help prints the usage and exits 0",
    async () => {
      const result = await turnlens(["--help"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Usage: turnlens test [paths...] [options]");
      expect(result.stdout).toContain("--shard <i/n>");
    },
    SLOW,
  );
});

describe("choosing tests", () => {
  test(
    "-t runs only the tests whose full name matches and skips the rest",
    async () => {
      const result = await turnlens([fixture("mixed"), "-t", "a mixed file passes", "--reporter", "json"]);
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as RunSummary;
      const statuses = Object.fromEntries(report.files[0]!.tests.map((t) => [t.name, t.status]));
      expect(statuses).toEqual({ passes: "passed", "fails on a deep equality": "skipped", "is skipped": "skipped" });
    },
    SLOW,
  );

  test(
    "--shard splits the files so that every file runs in exactly one shard",
    async () => {
      const seen: string[] = [];
      for (const shard of ["1/3", "2/3", "3/3"]) {
        const result = await turnlens([fixture("shard"), "--shard", shard, "--reporter", "json"]);
        const report = JSON.parse(result.stdout) as RunSummary;
        expect(report.files.length).toBeGreaterThan(0);
        seen.push(...report.files.map((f) => f.file));
      }
      const all = ["a", "b", "c", "d", "e", "f", "g"].map((n) => join(ROOT, fixture(`shard/${n}.test.ts`)));
      expect([...seen].sort()).toEqual(all);
    },
    SLOW,
  );

  test(
    "excluded folders are skipped by a folder search but run when named on the command line",
    async () => {
      const passing = 'import { test } from "bun:test";\ntest("runs", () => {});\n';
      const project = tempProject({
        "package.json": JSON.stringify({ name: "p", turnlens: { include: ["examples/"], exclude: ["examples/mistakes/**"] } }),
        "examples/good.test.ts": passing,
        "examples/mistakes/bad.test.ts": passing,
      });
      try {
        const byDefault = JSON.parse((await turnlens(["--reporter", "json"], project.dir)).stdout) as RunSummary;
        expect(byDefault.files.map((f) => f.file)).toEqual([join(project.dir, "examples/good.test.ts")]);
        const parent = JSON.parse((await turnlens(["examples", "--reporter", "json"], project.dir)).stdout) as RunSummary;
        expect(parent.files.map((f) => f.file)).toEqual([join(project.dir, "examples/good.test.ts")]);
        const named = JSON.parse((await turnlens(["examples/mistakes", "--reporter", "json"], project.dir)).stdout) as RunSummary;
        expect(named.files.map((f) => f.file)).toEqual([join(project.dir, "examples/mistakes/bad.test.ts")]);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
});

describe("reporters", () => {
  test(
    "--reporter json prints one JSON document and nothing else on stdout",
    async () => {
      const result = await turnlens([fixture("mixed"), "--reporter", "json"]);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as RunSummary;
      expect(report).toMatchObject({ passed: 1, failed: 1, skipped: 1 });
      const failed = report.files[0]!.tests.find((t) => t.status === "failed")!;
      expect(failed.path).toEqual(["a mixed file", "fails on a deep equality"]);
      expect(failed.error?.message).toContain("toEqual");
      expect(failed.error?.diff).toContain("- Expected");
      expect(failed.location).toEqual({ file: join(ROOT, fixture("mixed/mixed.test.ts")), line: 7, column: 3 });
    },
    SLOW,
  );

  test(
    "the location of a failed expect is the expect line in the .ts file",
    async () => {
      const result = await turnlens([fixture("mixed"), "--reporter", "json"]);
      const report = JSON.parse(result.stdout) as RunSummary;
      const failed = report.files[0]!.tests.find((t) => t.status === "failed")!;
      expect(failed.error?.location).toMatchObject({ file: join(ROOT, fixture("mixed/mixed.test.ts")), line: 9 });
    },
    SLOW,
  );

  test(
    "--reporter junit prints a testsuite per file with the failure and its file:line:column",
    async () => {
      const result = await turnlens([fixture("mixed"), "--reporter", "junit"]);
      expect(result.code).toBe(1);
      expect(result.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')).toBeTrue();
      expect(result.stdout).toContain(`<testsuite name="${fixture("mixed/mixed.test.ts")}"`);
      expect(result.stdout).toContain('tests="3" failures="1" errors="0" skipped="1"');
      expect(result.stdout).toContain(`<testcase name="a mixed file › fails on a deep equality" classname="${fixture("mixed/mixed.test.ts")}" time="`);
      expect(result.stdout).toContain(
        `<failure message="expect(received).toEqual(expected) // deep equality" type="AssertionError">${fixture("mixed/mixed.test.ts")}:9:`,
      );
      expect(result.stdout.trimEnd().endsWith("</testsuites>")).toBeTrue();
      expect(result.stderr).toContain("1 passed, 1 failed, 1 skipped");
    },
    SLOW,
  );
});

describe("the test API", () => {
  test(
    "hooks, each tables, done callbacks, timeouts, mocks and bun's matchers work like bun's",
    async () => {
      const result = await turnlens([fixture("api"), "--reporter", "json"]);
      const report = JSON.parse(result.stdout) as RunSummary;
      const api = report.files.find((f) => f.file.endsWith("api.test.ts"))!;
      const statuses = Object.fromEntries(api.tests.map((t) => [t.id, t.status]));
      expect(statuses).toEqual({
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
    SLOW,
  );

  test(
    "test.only in a file runs only the focused tests of that file",
    async () => {
      const result = await turnlens([fixture("api/only.test.ts"), "--reporter", "json"]);
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as RunSummary;
      expect(report.files[0]!.tests.map((t) => [t.name, t.status])).toEqual([
        ["is not focused", "skipped"],
        ["is focused", "passed"],
      ]);
    },
    SLOW,
  );

  test(
    "a file importing vitest gets a context object and vi mocks",
    async () => {
      const result = await turnlens([fixture("vitest")]);
      expect(result.code).toBe(0);
      expect(result.lastLine).toBe("2 passed, 0 failed");
    },
    SLOW,
  );
});
