// The reporters' choice and the junit reporter's options, in process (no command needed for
// what the config file's `reporters` entries give): chooseReporters and JunitReporter directly.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { REPORTER_NAMES, type ReporterName } from "../../core/project/config.ts";
import { chooseReporters, ReporterGroup } from "../../core/runner/reporters/reporterGroup.ts";
import { REPORTERS } from "../../core/runner/reporters/reporterMap.ts";
import { JunitReporter, type JunitOptions } from "../../core/runner/reporters/junitReporter.ts";
import { summarize, type FileReport } from "../../core/execution/report.ts";
import type { Out, Sink } from "../../core/runner/reporters/reporter.ts";
import { withoutAgentOrCi } from "./harness.ts";

class Text implements Sink {
  text = "";
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

function out(): Out & { stdout: Text; stderr: Text } {
  return { stdout: new Text(), stderr: new Text(), cwd: "/project", color: false };
}

const report: FileReport = {
  file: "/project/test/math.test.ts",
  durationMs: 12,
  tests: [
    {
      id: "math › adds",
      name: "adds",
      path: ["math", "adds"],
      status: "passed",
      durationMs: 3,
      location: { file: "/project/test/math.test.ts", line: 4, column: 3 },
      runs: [],
    },
  ],
};

function junit(options: JunitOptions): string {
  const target = out();
  const reporter = new JunitReporter(target, options);
  reporter.fileStart(report.file);
  reporter.output("2\n", "stdout", report.file);
  reporter.testEnd(report.file, report.tests[0]!);
  reporter.fileEnd(report);
  reporter.finish(summarize([report]), 20);
  return target.stdout.text;
}

/** Runs `body` with the agent and CI variables unset (this process may itself be run by an agent). */
function asPerson<T>(body: () => T): T {
  const saved = { ...process.env };
  for (const [name, value] of Object.entries(withoutAgentOrCi())) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    return body();
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

describe("the junit reporter's options", () => {
  test("suiteName names the testsuites; classnameTemplate fills {filename} and {filepath}", () => {
    const text = junit({ suiteName: "unit", classnameTemplate: "{filename} in {filepath}" });
    expect(text).toContain('<testsuites name="unit" tests="1" failures="0" errors="0" time="0.020">');
    expect(text).toContain('<testcase name="math › adds" classname="math.test.ts in test/math.test.ts" time="0.003">');
  });

  test("a classnameTemplate function gets both names", () => {
    expect(junit({ classnameTemplate: ({ filename, filepath }) => `${filepath.length}:${filename}` })).toContain('classname="17:math.test.ts"');
  });

  test("addFileAttribute adds file and line; includeConsoleOutput: false leaves the output out", () => {
    const text = junit({ addFileAttribute: true, includeConsoleOutput: false });
    expect(text).toContain('<testcase name="math › adds" classname="test/math.test.ts" file="test/math.test.ts" line="4" time="0.003"/>');
    expect(junit({})).toContain("<system-out>2\n</system-out>");
  });
});

describe("which reporters a run has", () => {
  test("nothing configured is the default reporter, with github-actions beside it when GITHUB_ACTIONS=true", () => {
    asPerson(() => {
      expect(chooseReporters([{ name: "default", options: {} }], undefined, {}).map((r) => r.name)).toEqual(["default"]);
      expect(chooseReporters([{ name: "default", options: {} }], undefined, { GITHUB_ACTIONS: "true" }).map((r) => r.name)).toEqual(["default", "github-actions"]);
      // A configured reporter list is the user's: GitHub Actions adds nothing to it, as in Vitest.
      expect(chooseReporters([{ name: "dot", options: {} }], undefined, { GITHUB_ACTIONS: "true" }).map((r) => r.name)).toEqual(["dot"]);
    });
  });

  test("a reporter option it does not take, a wrong type and a reporter given twice are refused by name", () => {
    asPerson(() => {
      expect(() => chooseReporters([{ name: "junit", options: { suitName: "x" } }], undefined, {})).toThrow(
        'the junit reporter takes no option "suitName"; did you mean "suiteName"?',
      );
      expect(() => chooseReporters([{ name: "junit", options: { addFileAttribute: "yes" } }], undefined, {})).toThrow(
        'the junit reporter\'s "addFileAttribute" needs a boolean, not "yes"',
      );
      expect(() => chooseReporters([{ name: "dot", options: { summary: false } }], undefined, {})).toThrow(
        'the dot reporter takes no option "summary"; it takes outputFile',
      );
      expect(() =>
        chooseReporters(
          [
            { name: "default", options: {} },
            { name: "pretty", options: {} },
          ],
          undefined,
          {},
        ),
      ).toThrow("the pretty reporter is given twice");
    });
  });

  test("a reporter's own outputFile option wins over --outputFile, as in Vitest", () => {
    asPerson(() => {
      const chosen = chooseReporters(
        [
          { name: "junit", options: { outputFile: "own.xml" } },
          { name: "json", options: {} },
        ],
        { junit: "flag.xml", json: "flag.json" },
        {},
      );
      expect(chosen.map((r) => [r.name, r.file])).toEqual([
        ["junit", "own.xml"],
        ["json", "flag.json"],
      ]);
    });
  });

  test("two reporters for people share stdout; the tests' output is printed once", () => {
    asPerson(() => {
      const target = out();
      const group = new ReporterGroup(
        chooseReporters(
          [
            { name: "verbose", options: {} },
            { name: "github-actions", options: {} },
          ],
          undefined,
          {},
        ),
        target,
        { silent: false },
      );
      expect(group.names).toEqual(["verbose", "github-actions"]);
      group.start(1);
      group.fileStart(report.file);
      group.output("logged\n", "stdout", report.file);
      group.testEnd(report.file, report.tests[0]!);
      group.fileEnd(report);
      group.finish(summarize([report]), 20);
      expect(target.stdout.text.match(/logged/g)?.length).toBe(1);
      expect(target.stdout.text.trimEnd().split("\n").at(-1)).toBe("1 passed, 0 failed");
    });
  });
});

describe("every reporter of REPORTERS", () => {
  const failed: FileReport = {
    ...report,
    tests: [
      report.tests[0]!,
      {
        id: "math › subtracts",
        name: "subtracts",
        path: ["math", "subtracts"],
        status: "failed",
        durationMs: 4,
        location: { file: "/project/test/math.test.ts", line: 5, column: 3 },
        error: { message: "expected 1 to be 2", type: "AssertionError", location: { file: "/project/test/math.test.ts", line: 5, column: 30 } },
        runs: [],
      },
    ],
  };

  /** `failed` as the json document has it: each failed test's failures, with the code and place every reporter gives. */
  const withFailures = {
    ...failed,
    tests: [failed.tests[0]!, { ...failed.tests[1]!, failures: [{ code: "expect-failed", location: failed.tests[1]!.error!.location, message: "expected 1 to be 2" }] }],
  };

  /** Each line with its newline. */
  const lines = (...texts: string[]) => texts.map((text) => `${text}\n`).join("");

  /** What the reporter `name`, alone on the terminal, prints for `failed` (a pass, a failure, a line the tests logged). */
  function printed(name: ReporterName): { stdout: string; stderr: string } {
    return asPerson(() => {
      const target = out();
      // The blob reporter writes a file only (for merge-reports): here, one in a folder of the test's own.
      const blobFile = name === "blob" ? join(mkdtempSync(join(tmpdir(), "turnlens-blob-")), "blob.json") : undefined;
      const group = new ReporterGroup(chooseReporters([{ name, options: {} }], blobFile ? { blob: blobFile } : undefined, {}), target, { silent: false });
      group.start(1);
      group.fileStart(failed.file);
      group.output("logged\n", "stdout", failed.file);
      for (const test of failed.tests) group.testEnd(failed.file, test);
      group.fileEnd(failed);
      group.finish(summarize([failed]), 20);
      // What changes from run to run: the time and the host.
      const stable = (text: string) =>
        text
          .replace(/timestamp="[^"]+"/g, 'timestamp="T"')
          .replace(/hostname="[^"]+"/g, 'hostname="H"')
          .replace(/"startTime": \d+/g, '"startTime": 0')
          .replace(blobFile ?? "\0", "<blob>");
      if (blobFile) rmSync(dirname(blobFile), { recursive: true, force: true });
      return { stdout: stable(target.stdout.text), stderr: stable(target.stderr.text) };
    });
  }

  /** What the terminal reporters print after their progress: the failure, the timing line and the count. */
  const FAILURE_AND_COUNT = [
    "",
    "FAIL math › subtracts",
    "  at test/math.test.ts:5:30 expect-failed",
    "    expected 1 to be 2",
    "",
    "1 file in 0.02s",
    "1 passed, 1 failed",
  ];

  // A Record: a reporter added to REPORTER_NAMES is a tsc error here until its output is written down.
  const EXPECTED: Record<ReporterName, { stdout: string; stderr: string }> = {
    default: {
      stdout: lines("logged", "✗ test/math.test.ts (1 of 2 failed)", ...FAILURE_AND_COUNT),
      stderr: "",
    },
    pretty: {
      stdout: lines("logged", "✗ test/math.test.ts (1 of 2 failed)", ...FAILURE_AND_COUNT),
      stderr: "",
    },
    dot: {
      stdout: lines("logged", "·x", ...FAILURE_AND_COUNT),
      stderr: "",
    },
    verbose: {
      stdout: lines("logged", "✗ test/math.test.ts (1 of 2 failed)", "  ✓ math › adds 3ms", "  × math › subtracts 4ms", ...FAILURE_AND_COUNT),
      stderr: "",
    },
    json: {
      stdout: `${JSON.stringify({ numTotalTestSuites: 1, numPassedTestSuites: 0, numFailedTestSuites: 1, numPendingTestSuites: 0, numTotalTests: 2, numPassedTests: 1, numFailedTests: 1, numPendingTests: 0, numTodoTests: 0, startTime: 0, success: false, files: [withFailures], passed: 1, failed: 1, skipped: 0 }, null, 2)}\n`,
      stderr: lines("logged", "1 passed, 1 failed"),
    },
    junit: {
      stdout: lines(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="turnlens" tests="2" failures="1" errors="0" time="0.020">',
        '  <testsuite name="test/math.test.ts" timestamp="T" hostname="H" tests="2" failures="1" errors="0" skipped="0" time="0.012">',
        '    <testcase name="math › adds" classname="test/math.test.ts" time="0.003">',
        "      <system-out>logged",
        "</system-out>",
        "    </testcase>",
        '    <testcase name="math › subtracts" classname="test/math.test.ts" time="0.004">',
        '      <failure message="expected 1 to be 2" type="AssertionError">test/math.test.ts:5:30 expect-failed',
        "expected 1 to be 2</failure>",
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
      ),
      stderr: lines("logged", "1 passed, 1 failed"),
    },
    tap: {
      stdout: lines(
        "TAP version 14",
        "# Subtest: test/math.test.ts",
        "    1..2",
        "    ok 1 - math › adds # time=3ms",
        "    not ok 2 - math › subtracts # time=4ms",
        "      ---",
        '      message: "expected 1 to be 2"',
        '      severity: "fail"',
        '      type: "AssertionError"',
        '      at: "test/math.test.ts:5:30"',
        '      code: "expect-failed"',
        "      ...",
        "not ok 1 - test/math.test.ts # time=12ms",
        "1..1",
      ),
      stderr: lines("logged", "1 passed, 1 failed"),
    },
    "github-actions": {
      stdout: lines("logged", "::error file=test/math.test.ts,line=5,col=30,title=math › subtracts (expect-failed)::expected 1 to be 2"),
      stderr: lines("1 passed, 1 failed"),
    },
    agent: { stdout: lines("FAIL test/math.test.ts:5:30 expect-failed", "  test: math › subtracts", "  why: expected 1 to be 2", "1 passed, 1 failed"), stderr: "" },
    blob: { stdout: lines("logged"), stderr: lines("blob report written to <blob>", "1 passed, 1 failed") },
  };

  for (const name of REPORTER_NAMES) {
    test(`${name}: its exact output on a pass, a failure and a logged line`, () => {
      expect(printed(name)).toEqual(EXPECTED[name]);
    });
  }

  test("docs/runner.md describes each reporter in a paragraph of its own (Reporters)", () => {
    const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "runner.md"), "utf8");
    const undocumented = REPORTER_NAMES.filter((name) => REPORTERS[name].sameAs === undefined && !docs.includes(`\n**\`${name}\`**`));
    expect(undocumented).toEqual([]);
  });
});
