// bench/vitestFidelity.mjs counts right: its reader of both runners' json reports (bench/fidelityOutcomes.mjs)
// matches tests by describe path and name, numbers repeated names, counts a Turnlens pass only where
// Vitest passed too, and tells a file that could not run. Canned reports, in the shapes each runner writes.
import { describe, expect, test } from "bun:test";
import { compareFile, table, totals, turnlensOutcomes, vitestOutcomes } from "../../bench/fidelityOutcomes.mjs";

const FILE = "/tmp/project/test/math.test.ts";

/** What `vitest run --reporter=json --outputFile` writes for one file (fields this bench reads, and a few it does not). */
const vitestReport = {
  numTotalTests: 6,
  testResults: [
    {
      name: FILE,
      status: "failed",
      message: "",
      assertionResults: [
        { ancestorTitles: ["math"], fullName: "math adds", title: "adds", status: "passed", failureMessages: [] },
        { ancestorTitles: ["math"], fullName: "math adds", title: "adds", status: "passed", failureMessages: [] },
        { ancestorTitles: ["math", "deep"], fullName: "math deep divides", title: "divides", status: "passed", failureMessages: [] },
        { ancestorTitles: [], fullName: "top", title: "top", status: "failed", failureMessages: ["boom"] },
        { ancestorTitles: [], fullName: "later", title: "later", status: "pending", failureMessages: [] },
        { ancestorTitles: [], fullName: "quoted 'a'", title: "quoted 'a'", status: "passed", failureMessages: [] },
      ],
    },
  ],
};

/** What `turnlens test --reporter json --outputFile` writes for the same file. */
const turnlensReport = {
  files: [
    {
      file: FILE,
      durationMs: 12,
      tests: [
        { id: "math › adds", name: "adds", path: ["math", "adds"], status: "passed", durationMs: 1, runs: [] },
        { id: "math › adds (2)", name: "adds", path: ["math", "adds"], status: "failed", durationMs: 1, runs: [] },
        { id: "math › deep › divides", name: "divides", path: ["math", "deep", "divides"], status: "passed", durationMs: 1, runs: [] },
        { id: "top", name: "top", path: ["top"], status: "passed", durationMs: 1, runs: [] },
        { id: "later", name: "later", path: ["later"], status: "skipped", durationMs: 0, runs: [] },
        { id: "quoted a", name: "quoted a", path: ["quoted a"], status: "passed", durationMs: 1, runs: [] },
      ],
    },
  ],
  passed: 4,
  failed: 1,
  skipped: 1,
};

describe("the fidelity bench's reading of the runners' reports", () => {
  test("Vitest's report gives each test under its describe path, a repeated name numbered, pending counted as skipped", () => {
    const outcomes = vitestOutcomes(vitestReport, FILE);
    expect(outcomes.crashed).toBe(false);
    expect([...outcomes.tests]).toEqual([
      ["math > adds", "passed"],
      ["math > adds (2)", "passed"],
      ["math > deep > divides", "passed"],
      ["top", "failed"],
      ["later", "skipped"],
      ["quoted 'a'", "passed"],
    ]);
  });

  test("Turnlens's report gives the same keys from each test's path", () => {
    expect([...turnlensOutcomes(turnlensReport, FILE).tests.keys()]).toEqual(["math > adds", "math > adds (2)", "math > deep > divides", "top", "later", "quoted a"]);
  });

  test("a test counts for Turnlens only when Vitest passed it too, and a name only Turnlens gives is listed as unmatched", () => {
    const row = compareFile("math.test.ts", vitestOutcomes(vitestReport, FILE), turnlensOutcomes(turnlensReport, FILE));
    expect(row).toEqual({
      file: "math.test.ts",
      tests: 6,
      vitestPassed: 4,
      turnlensPassed: 4,
      bothPassed: 2,
      vitestCrashed: false,
      turnlensCrashed: false,
      lost: [
        { key: "math > adds (2)", turnlens: "failed" },
        { key: "quoted 'a'", turnlens: "missing" },
      ],
      unmatched: ["quoted a"],
    });
  });

  test("a file that could not load is a crash under either runner, with the first line of its error", () => {
    const vitest = vitestOutcomes({ testResults: [{ name: FILE, status: "failed", message: "Failed to load url ./nope\nstack", assertionResults: [] }] }, FILE);
    const turnlens = turnlensOutcomes({ files: [{ file: FILE, tests: [], durationMs: 1, error: { message: "does not provide an export named 'assert'\n  at" } }] }, FILE);
    expect(vitest).toEqual({ crashed: true, error: "Failed to load url ./nope", tests: new Map() });
    expect(turnlens).toEqual({ crashed: true, error: "does not provide an export named 'assert'", tests: new Map() });
  });

  test("a missing report is a crash, never a file of zero tests passed", () => {
    expect(turnlensOutcomes(undefined, FILE).crashed).toBe(true);
    expect(vitestOutcomes(undefined, FILE).crashed).toBe(true);
  });

  test("the totals sum the rows and give Turnlens's passes among Vitest's passes, which the table's last line prints", () => {
    const row = compareFile("math.test.ts", vitestOutcomes(vitestReport, FILE), turnlensOutcomes(turnlensReport, FILE));
    const crashed = compareFile("other.test.ts", vitestOutcomes(vitestReport, FILE), turnlensOutcomes(undefined, FILE));
    expect(totals([row, crashed])).toEqual({
      files: 2,
      tests: 12,
      vitestPassed: 8,
      turnlensPassed: 4,
      bothPassed: 2,
      turnlensCrashedFiles: 1,
      vitestCrashedFiles: 0,
      ratio: 0.25,
    });
    const lines = table([row, crashed]).split("\n");
    expect(lines[2]).toBe("| math.test.ts | 6 | 4 | 4 | 2 | no |");
    expect(lines[3]).toBe("| other.test.ts | 6 | 4 | 0 | 0 | Turnlens |");
    expect(lines.at(-1)).toBe("Turnlens passes ÷ tests Vitest passes: 2 / 8 = 25.0%");
  });
});
