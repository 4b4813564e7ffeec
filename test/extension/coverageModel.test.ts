// Run with Coverage's mapping (extension/vscodeFree/coverageModel.ts) without VS Code: the server's
// `turnlens/lineCoverage` answer as the file's statements, branches and functions, its percentage
// the line coverage, with each call's outcomes as branches of the call's statement; a workflow no
// coverage run measured as one statement per call site, one branch per outcome.
import { expect, test } from "bun:test";
import type { LineCoverageResult, OutcomeCoverageResult } from "../../server/protocol.ts";
import { coverageModel } from "../../extension/vscodeFree/coverageModel.ts";
import { outcomeKindWords } from "../../core/testing/outcomeWords.ts";

const URI = "file:///work/review/workflow.ts";
const range = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });
const ENGINE = ["answered", "unanswered", "blocked", "timed-out", "failed", "cancelled"];
// The words as the server sends them (server/workflowFiles/callSiteCoverage.ts), from the one table.
const outcomes = (given: Record<string, number>, kinds = ENGINE) =>
  kinds.map((outcome) => ({ outcome, words: outcomeKindWords(outcome, kinds !== ENGINE), turns: given[outcome] ?? 0 }));

const answer: OutcomeCoverageResult = {
  workflows: [
    {
      uri: URI,
      calls: [
        {
          range: range(11, 25, 39),
          kind: "open",
          callee: "wf.agents.open",
          tests: 4,
          turns: 12,
          outcomes: outcomes({ answered: 8, "timed-out": 1, failed: 1, cancelled: 2 }),
        },
        {
          range: range(19, 10, 20),
          kind: "decision",
          callee: "wf.decide",
          tests: 2,
          turns: 2,
          outcomes: outcomes({ answered: 2 }, ["answered", "unanswered", "failed"]),
        },
        { range: range(30, 8, 18), kind: "turn", callee: "lead.run", tests: 0, turns: 0, outcomes: outcomes({}) },
      ],
    },
  ],
};

test("a workflow no coverage run measured: each call site is a statement executed as many times as turns were asked there, and an unreached one is executed 0", () => {
  const [file] = coverageModel(answer);
  expect(file?.uri).toBe(URI);
  expect(file?.statements.map((statement) => [statement.range, statement.executed])).toEqual([
    [range(11, 25, 39), 12],
    [range(19, 10, 20), 2],
    [range(30, 8, 18), 0],
  ]);
  expect(file?.statementCounts).toEqual({ covered: 2, total: 3 });
});

test("each outcome a call can end with is a branch labelled with the outcome in the one table's words, executed 0 when no test gave it", () => {
  const [file] = coverageModel(answer);
  expect(file?.statements[0]?.branches).toEqual([
    { label: "answered", executed: 8 },
    { label: "no answer", executed: 0 },
    { label: "blocked", executed: 0 },
    { label: "timed out", executed: 1 },
    { label: "failed", executed: 1 },
    { label: "cancelled", executed: 2 },
  ]);
  expect(file?.statements[1]?.branches).toEqual([
    { label: "answered", executed: 2 },
    { label: "not answered", executed: 0 },
    { label: "rejected", executed: 0 },
  ]);
  expect(file?.branchCounts).toEqual({ covered: 5, total: 15 });
});

test("an answer with no workflow file gives no file coverage", () => {
  expect(coverageModel({ workflows: [] })).toEqual([]);
});

// examples/summarize as the server measured it: `const reader = await wf.agents.open(…)` on line 13,
// `prepare` never called, one `? :` whose arms both ran.
const lines: LineCoverageResult = {
  files: [
    {
      uri: URI,
      statements: [
        { range: range(11, 11, 60), executed: 0 },
        { range: range(13, 4, 70), executed: 2 },
        { range: range(18, 4, 90), executed: 2 },
      ],
      branches: [
        {
          range: range(18, 11, 90),
          kind: "cond-expr",
          arms: [
            { range: range(18, 40, 53), executed: 1 },
            { range: range(18, 56, 90), executed: 1 },
          ],
        },
      ],
      functions: [
        { name: "(anonymous_0)", range: range(11, 11, 12), executed: 0 },
        { name: "run", range: range(12, 8, 11), executed: 2 },
      ],
      lines: { covered: 5, total: 6 },
    },
  ],
};
const opened: OutcomeCoverageResult = {
  workflows: [
    {
      uri: URI,
      calls: [{ range: range(13, 25, 39), kind: "open", callee: "wf.agents.open", tests: 2, turns: 3, outcomes: outcomes({ answered: 1, unanswered: 2 }) }],
    },
  ],
};

test("a measured file's percentage is its line coverage, whatever outcomes no test gives", () => {
  const [file] = coverageModel(opened, lines);
  expect(file?.statementCounts).toEqual({ covered: 5, total: 6 });
  expect(file?.statements.map((statement) => [statement.range, statement.executed])).toEqual([
    [range(11, 11, 60), 0],
    [range(13, 4, 70), 2],
    [range(18, 4, 90), 2],
  ]);
  expect(file?.declarations).toEqual([
    { name: "(anonymous_0)", range: range(11, 11, 12), executed: 0 },
    { name: "run", range: range(12, 8, 11), executed: 2 },
  ]);
});

test("each call's outcomes are branches of the statement holding the call, at the call; the code's branches are at their arms", () => {
  const [file] = coverageModel(opened, lines);
  expect(file?.statements[1]?.branches).toEqual(
    ENGINE.map((outcome) => ({ label: outcomeKindWords(outcome), executed: { answered: 1, unanswered: 2 }[outcome] ?? 0, range: range(13, 25, 39) })),
  );
  expect(file?.statements[2]?.branches).toEqual([
    { label: "cond-expr", executed: 1, range: range(18, 40, 53) },
    { label: "cond-expr", executed: 1, range: range(18, 56, 90) },
  ]);
  expect(file?.branchCounts).toEqual({ covered: 4, total: 8 });
});
