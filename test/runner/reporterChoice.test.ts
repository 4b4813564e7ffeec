// The reporters' choice and the junit reporter's options, in process (no command needed for
// what the config file's `reporters` entries give): chooseReporters and JunitReporter directly.
import { describe, expect, test } from "bun:test";
import { chooseReporters, ReporterGroup } from "../../core/runner/reporters/reporterGroup.ts";
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
