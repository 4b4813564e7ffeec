// Run with Coverage's mapping (extension/vscodeFree/coverageModel.ts) without VS Code: the server's
// `turnlens/outcomeCoverage` answer as one statement per call site, one branch per outcome.
import { expect, test } from "bun:test";
import type { OutcomeCoverageResult } from "../../server/protocol.ts";
import { coverageModel } from "../../extension/vscodeFree/coverageModel.ts";

const URI = "file:///work/review/workflow.ts";
const range = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });
const ENGINE = ["answered", "unanswered", "blocked", "timed-out", "failed", "cancelled"];
const outcomes = (given: Record<string, number>, kinds = ENGINE) => kinds.map((outcome) => ({ outcome, turns: given[outcome] ?? 0 }));

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

test("each call site is a statement executed as many times as turns were asked there, and an unreached one is executed 0", () => {
  const [file] = coverageModel(answer);
  expect(file?.uri).toBe(URI);
  expect(file?.statements.map((statement) => [statement.range, statement.executed])).toEqual([
    [range(11, 25, 39), 12],
    [range(19, 10, 20), 2],
    [range(30, 8, 18), 0],
  ]);
  expect(file?.statementCounts).toEqual({ covered: 2, total: 3 });
});

test("each outcome a call can end with is a branch labelled with the outcome word, executed 0 when no test gave it", () => {
  const [file] = coverageModel(answer);
  expect(file?.statements[0]?.branches).toEqual([
    { label: "answered", executed: 8 },
    { label: "unanswered", executed: 0 },
    { label: "blocked", executed: 0 },
    { label: "timed-out", executed: 1 },
    { label: "failed", executed: 1 },
    { label: "cancelled", executed: 2 },
  ]);
  expect(file?.statements[1]?.branches).toEqual([
    { label: "answered", executed: 2 },
    { label: "unanswered", executed: 0 },
    { label: "failed", executed: 0 },
  ]);
  expect(file?.branchCounts).toEqual({ covered: 5, total: 15 });
});

test("an answer with no workflow file gives no file coverage", () => {
  expect(coverageModel({ workflows: [] })).toEqual([]);
});
