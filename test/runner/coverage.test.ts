// `turnlens test --coverage`: after the run, the line coverage of the project's own code (a table,
// and lcov, html and json files), then the outcomes each workflow's agents were given and not
// given, each call's tests and outcomes, and the calls no test reached; `--coverage=json` as one
// document on stdout. The command runs as a child process on examples/ and small projects.
import { describe, expect } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliTests, DIR } from "./cliTable.ts";
import { ROOT } from "./harness.ts";

/** lcov.info's records: each source file's `DA:<line>,<hits>` lines as a map. */
function lcovLines(text: string): Map<string, Map<number, number>> {
  const files = new Map<string, Map<number, number>>();
  let current: Map<number, number> | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("SF:")) files.set(line.slice(3), (current = new Map()));
    const hit = /^DA:(\d+),(\d+)/.exec(line);
    if (hit && current) current.set(Number(hit[1]), Number(hit[2]));
  }
  return files;
}

/** The 1-based line of `summarize.ts` holding `text`. */
function summarizeLine(text: string): number {
  return (
    readFileSync(join(ROOT, "examples/summarize/summarize.ts"), "utf8")
      .split("\n")
      .findIndex((line) => line.includes(text)) + 1
  );
}

const REVIEW_TABLE = [
  "outcome coverage · examples/review/workflow.ts",
  "  agent       opened   given                           not given",
  "  verifier-1  line 27  answered, cancelled             no answer, blocked, timed out, failed",
  "  verifier-2  line 27  answered, timed out, cancelled  no answer, blocked, failed",
  "  verifier-3  line 27  answered, failed                no answer, blocked, timed out, cancelled",
  "  lead        line 43  answered                        no answer, blocked, timed out, failed, cancelled",
  "  line 27  wf.agents.open  in 4 tests: answered 8, timed out 1, failed 1, cancelled 2",
  "  line 28  verifier.run    in 4 tests: answered 8, timed out 1, failed 1, cancelled 2",
  "  line 43  wf.agents.open  in 3 tests: answered 6",
  "  line 45  lead.run        in 3 tests: answered 3",
  "  line 53  lead.run        in 3 tests: answered 3",
  "  every call site was reached",
];

describe("turnlens test --coverage", () => {
  cliTests([
    {
      name: "prints the review example's line table, then its outcome table, after the count line",
      // `text` alone: printed, no file written in the repository.
      args: ["--coverage", "--coverage.reporter", "text", "examples/review"],
      code: 0,
      check: (result) => {
        const lines = result.stdout.trimEnd().split("\n");
        const start = lines.indexOf("4 passed, 0 failed");
        expect(start).toBeGreaterThan(0);
        const rule = "-------------|---------|----------|---------|---------|-------------------";
        expect(lines.slice(start + 1)).toEqual([
          "",
          rule,
          "File         | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s ",
          rule,
          "All files    |    91.3 |    66.66 |      80 |   89.47 |                   ",
          " workflow.ts |    91.3 |    66.66 |      80 |   89.47 | 22,51             ",
          rule,
          "",
          ...REVIEW_TABLE,
        ]);
      },
    },
    {
      name: "names the calls no test reached",
      // Only the test where a verifier crashes: the lead is never opened.
      args: ["--coverage", "--coverage.reporter", "text", "-t", "crashed verifier", "examples/review"],
      code: 0,
      check: (result) =>
        expect(result.stdout.slice(result.stdout.indexOf("outcome coverage")).trimEnd().split("\n")).toEqual([
          "outcome coverage · examples/review/workflow.ts",
          "  agent       opened   given      not given",
          "  verifier-1  line 27  cancelled  answered, no answer, blocked, timed out, failed",
          "  verifier-2  line 27  cancelled  answered, no answer, blocked, timed out, failed",
          "  verifier-3  line 27  failed     answered, no answer, blocked, timed out, cancelled",
          "  line 27  wf.agents.open  in 1 test: failed 1, cancelled 2",
          "  line 28  verifier.run    in 1 test: failed 1, cancelled 2",
          "  no test reached: line 43 wf.agents.open, line 45 lead.run, line 53 lead.run",
        ]),
    },
    {
      name: "--coverage=json makes stdout one document; the test reporter and the line table write to stderr",
      args: ["--coverage=json", "--coverage.reporter", "text", "examples/review"],
      code: 0,
      stderr: { has: ["4 passed, 0 failed", " workflow.ts |    91.3 |    66.66 |      80 |   89.47 | 22,51 "] },
      check: (result) => {
        const document = JSON.parse(result.stdout) as {
          outcomeKinds: string[];
          workflows: Array<{
            file: string;
            agents: unknown[];
            calls: Array<{ line: number; callee: string; outcomes: Record<string, number>; tests: Array<{ file: string; test: string }> }>;
            unreached: unknown[];
          }>;
        };
        expect(document.outcomeKinds).toEqual(["answered", "unanswered", "blocked", "timed-out", "failed", "cancelled"]);
        const [review] = document.workflows;
        expect(review?.file).toBe("examples/review/workflow.ts");
        expect(review?.agents[3]).toEqual({
          key: "lead",
          openedAt: { file: "examples/review/workflow.ts", line: 43, column: 34 },
          given: ["answered"],
          notGiven: ["unanswered", "blocked", "timed-out", "failed", "cancelled"],
          tests: 3,
        });
        const run = review?.calls.find((call) => call.line === 28);
        expect(run?.callee).toBe("verifier.run");
        expect(run?.outcomes).toEqual({ answered: 8, "timed-out": 1, failed: 1, cancelled: 2 });
        expect(run?.tests.map((each) => each.file)).toEqual(Array(4).fill("examples/review/workflow.test.ts"));
        expect(review?.unreached).toEqual([]);
      },
    },
    {
      name: "beside --reporter json the table goes to stderr, so stdout stays the report",
      args: ["--coverage", "--coverage.reporter", "text", "--reporter", "json", "examples/review"],
      code: 0,
      stderr: { has: [REVIEW_TABLE.join("\n"), "% Stmts | % Branch | % Funcs | % Lines"] },
      check: (result) => expect((JSON.parse(result.stdout) as { passed: number }).passed).toBe(4),
    },
    {
      name: "--coverage with another value is a usage error",
      args: ["--coverage=xml", "examples/review"],
      code: 2,
      stderr: "--coverage takes no value, or =json: =xml is neither\n",
    },
    {
      name: "--coverage.reporter refuses a format istanbul-reports has not, with the nearest name",
      args: ["--coverage.reporter", "lcovv", "examples/review"],
      code: 2,
      stderr: '--coverage.reporter takes no "lcovv": did you mean "lcov"?\n',
    },
    {
      name: "--coverage refuses a key it does not take, with the nearest one",
      args: ["--coverage.reportDirectory", "out", "examples/review"],
      code: 2,
      stderr: '--coverage takes no key "reportDirectory": did you mean "reportsDirectory"?\n',
    },
  ]);
});

describe("turnlens test --coverage: line coverage", () => {
  cliTests([
    {
      name: "examples/ prints the line table and writes lcov, where a line no test reaches is uncovered and a reached one covered, without the engine or the tests",
      // A fresh folder for the reports; the run itself is the repository's, on examples/.
      files: {},
      cwd: ROOT,
      args: ["--coverage", "examples/", "--coverage.reportsDirectory", `${DIR}/coverage`],
      code: 0,
      stdout: {
        has: [
          "% Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s",
          "  summarize.ts    |   83.33 |       50 |      50 |   83.33 | 12 ",
          `line coverage written to ${DIR}/coverage`,
        ],
      },
      check: (_result, dir) => {
        const lcov = lcovLines(readFileSync(join(dir, "coverage/lcov.info"), "utf8"));
        const summarize = lcov.get("examples/summarize/summarize.ts");
        // `prepare` runs only from the command line, never in a test; the reader is opened in both.
        expect(summarize?.get(summarizeLine("prepare:"))).toBe(0);
        expect(summarize?.get(summarizeLine("wf.agents.open"))).toBe(2);
        const files = [...lcov.keys()];
        expect(files).toContain("examples/review/workflow.ts");
        expect(files.filter((file) => /\.test\.ts$|^core\/|node_modules/.test(file))).toEqual([]);
        // The default formats: html and Istanbul's json beside lcov.
        expect(["index.html", "coverage-final.json"].filter((name) => existsSync(join(dir, "coverage", name)))).toEqual(["index.html", "coverage-final.json"]);
      },
    },
    {
      name: "--coverage.reporter and --coverage.reportsDirectory choose the formats and the folder; a helper counts, the test files do not",
      files: {
        "src/price.ts": [
          "export function price(n: number): number {",
          "  return n * 2;",
          "}",
          "export function discount(n: number): number {",
          "  return n > 10 ? n - 1 : n;",
          "}",
          "",
        ].join("\n"),
        "src/shared.test.ts": 'import { test } from "bun:test";\nexport const TWO = 2;\ntest("two", () => {});\n',
        "src/price.test.ts": [
          'import { expect, test } from "bun:test";',
          'import { price } from "./price";',
          'import { TWO } from "./shared.test";',
          'test("doubles", () => expect(price(TWO)).toBe(4));',
          "",
        ].join("\n"),
      },
      args: ["--coverage", "--coverage.reporter=json-summary", "--coverage.reportsDirectory", "out", "src/price.test.ts"],
      code: 0,
      stdout: { has: ["line coverage written to out/"], lacks: ["% Stmts"] },
      check: (_result, dir) => {
        expect(existsSync(join(dir, "coverage"))).toBe(false);
        expect(readdirSync(join(dir, "out"))).toEqual(["coverage-summary.json"]);
        const summary = JSON.parse(readFileSync(join(dir, "out/coverage-summary.json"), "utf8")) as Record<string, { functions: { covered: number; total: number } }>;
        expect(Object.keys(summary).map((key) => key.replace(dir, "<dir>"))).toEqual(["total", "<dir>/src/price.ts"]);
        expect(summary.total?.functions).toMatchObject({ covered: 1, total: 2 });
      },
    },
  ]);
});
