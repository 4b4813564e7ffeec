// `turnlens test --mutate`: each passed test rerun with each scripted answer changed, a table and
// a score per file, the answers no assertion noticed; `--mutate=json` as one document, the budget,
// the threshold. The command runs as a child process on examples/mutation (docs/mutate.md).
import { availableParallelism } from "node:os";
import { describe, expect } from "bun:test";
import { cliTests } from "./cliTable.ts";

const DEMO_TABLE = [
  "mutants · examples/mutation/workflow.test.ts · budget 30s a file",
  "  the run returns the reader's summary and the reviewer's verdict",
  "    entry                                     agent     mutation                                 result",
  '    examples/mutation/workflow.test.ts:12:15  reader    changed to {summary: "", words: 3}       noticed',
  "    examples/mutation/workflow.test.ts:12:15  reader    changed to noAnswer.failed()             noticed",
  '    examples/mutation/workflow.test.ts:13:17  reviewer  changed to {approved: false, notes: ""}  noticed',
  "    examples/mutation/workflow.test.ts:13:17  reviewer  changed to noAnswer.failed()             noticed",
  "  the reviewer is shown the reader's summary",
  "    entry                                     agent     mutation                                 result",
  '    examples/mutation/workflow.test.ts:24:15  reader    changed to {summary: "", words: 3}       noticed',
  "    examples/mutation/workflow.test.ts:24:15  reader    changed to noAnswer.failed()             noticed",
  '    examples/mutation/workflow.test.ts:25:17  reviewer  changed to {approved: false, notes: ""}  NOT noticed',
  "    examples/mutation/workflow.test.ts:25:17  reviewer  changed to noAnswer.failed()             noticed",
  "  score 7/8 noticed (87%)",
  '  examples/mutation/workflow.test.ts:25:17 "the reviewer is shown the reader\'s summary": no assertion of this test depends on reviewer\'s answer (changed to {approved: false, notes: ""}, the test still passed)',
];

/** The last line, its timings made constant. */
const scoreLine = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .at(-1)!
    .replace(/in [\d.]+s \([\d.]+\/s\)$/, "in Ns (N/s)");

/** The last line of the mutate run's table: the score, its timings made constant. */
const SCORE = "mutation score 7/8 noticed (87%) · 8 mutants in Ns (N/s)";

describe("turnlens test --mutate", () => {
  cliTests([
    {
      name: "prints the demo's table after the count line: only the reviewer's answer of the test that ignores it goes unnoticed",
      args: ["--mutate", "examples/mutation"],
      code: 0,
      check: (result) => {
        const lines = result.stdout.trimEnd().split("\n");
        const start = lines.indexOf("2 passed, 0 failed");
        expect(start).toBeGreaterThan(0);
        expect(lines.slice(start + 1, -2)).toEqual(["", ...DEMO_TABLE]);
        expect(lines.at(-2)).toBe("");
        expect(scoreLine(result.stdout)).toBe(SCORE);
      },
    },
    {
      name: "--mutate=json makes stdout one document with each mutant's result; the test reporter writes to stderr",
      args: ["--mutate=json", "examples/mutation"],
      code: 0,
      stderr: { has: ["2 passed, 0 failed"] },
      check: (result) => {
        const document = JSON.parse(result.stdout);
        expect(document.budgetMs).toBe(30_000);
        expect(document.score).toEqual({ noticed: 7, run: 8, notRun: 0 });
        expect(document.files.map((file: { file: string; score: unknown }) => [file.file, file.score])).toEqual([
          ["examples/mutation/workflow.test.ts", { noticed: 7, run: 8, notRun: 0 }],
        ]);
        const unnoticed = document.files[0].mutants.filter((mutant: { result: string }) => mutant.result === "not-noticed");
        expect(unnoticed).toEqual([
          {
            test: "the reviewer is shown the reader's summary",
            testId: "the reviewer is shown the reader's summary",
            call: 1,
            agent: "reviewer",
            key: "reviewer",
            index: null,
            site: { file: "examples/mutation/workflow.test.ts", line: 25, column: 17 },
            change: { kind: "value", value: { approved: false, notes: "" } },
            mutation: 'changed to {approved: false, notes: ""}',
            result: "not-noticed",
            message: 'no assertion of this test depends on reviewer\'s answer (changed to {approved: false, notes: ""}, the test still passed)',
          },
        ]);
        expect(document.files[0].mutants.map((mutant: { result: string }) => mutant.result)).toEqual([
          "noticed",
          "noticed",
          "noticed",
          "noticed",
          "noticed",
          "noticed",
          "not-noticed",
          "noticed",
        ]);
      },
    },
    {
      name: "the test whose assertions cover each answer has no mutant unnoticed",
      args: ["--mutate", "-t", "returns the reader's summary and the reviewer's verdict", "examples/mutation"],
      code: 0,
      stdout: { lacks: ["NOT noticed"] },
      check: (result) => expect(scoreLine(result.stdout)).toBe("mutation score 4/4 noticed (100%) · 4 mutants in Ns (N/s)"),
    },
    {
      name: "mutants left once a file's budget is spent are counted not run (budget), and the budget is stated",
      args: ["--mutate", "--mutate-budget", "1ms", "examples/mutation"],
      code: 0,
      stdout: { has: ["mutants · examples/mutation/workflow.test.ts · budget 1ms a file"] },
      check: (result) => {
        // The first mutants start together, one per worker; every later one finds the budget spent.
        const started = Math.min(availableParallelism(), 8);
        const notRun = result.stdout.split("\n").filter((line) => line.startsWith("    examples/") && line.endsWith("not run (budget)")).length;
        expect(notRun).toBe(8 - started);
        expect(scoreLine(result.stdout)).toMatch(
          new RegExp(`^mutation score \\d/${started} noticed \\(\\d+%\\), ${8 - started} not run \\(budget\\) · ${started} mutants in Ns \\(N/s\\)$`),
        );
      },
    },
    {
      name: "--mutate-threshold exits 1 when the score is below it, and says so",
      steps: [
        { args: ["--mutate", "--mutate-threshold", "90", "examples/mutation"], code: 1, stderr: { has: ["mutation score 87% is below --mutate-threshold 90%"] } },
        { args: ["--mutate", "--mutate-threshold", "85", "examples/mutation"], code: 0 },
      ],
    },
    {
      name: "beside --reporter json the table goes to stderr, and stdout stays the reporter's document",
      args: ["--mutate", "--reporter", "json", "examples/mutation"],
      code: 0,
      check: (result) => {
        expect(JSON.parse(result.stdout)).toMatchObject({ passed: 2, failed: 0, skipped: 0 });
        expect(scoreLine(result.stderr)).toBe(SCORE);
      },
    },
    {
      name: "bad --mutate values are usage errors",
      steps: [
        { args: ["--mutate=yaml", "examples/mutation"], code: 2, stderr: "--mutate takes no value, or =json: =yaml is neither\n" },
        {
          args: ["--mutate", "--mutate-budget", "soon", "examples/mutation"],
          code: 2,
          stderr: '--mutate-budget needs a duration such as 30s: "soon" is not a number followed by ms, s or m\n',
        },
        {
          args: ["--mutate", "--mutate-threshold", "120", "examples/mutation"],
          code: 2,
          stderr: '--mutate-threshold needs a percent from 0 to 100: "120" is above 100\n',
        },
        { args: ["--mutate", "--watch", "examples/mutation"], code: 2, stderr: "--mutate does not run under --watch\n" },
      ],
    },
  ]);
});
