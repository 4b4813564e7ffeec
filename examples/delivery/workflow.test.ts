// workflow.test.ts
import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import delivery, { CHANGE, PLAN, VERDICT } from "./workflow";

const args = { ticket: "PAY-42" };
const plan = answer(PLAN, { ready: true, steps: ["add the refund route", "test it"] });
const approve = answer(VERDICT, { approved: true, notes: "clean" });
// The planner plans, then reviews: a list, one entry per turn. Each test overrides what it is about.
const happyPath = {
  planner: [plan, approve],
  implementer: answer(CHANGE, { branch: "pay-42-refunds", files: ["src/refunds.ts", "src/refunds.test.ts"] }),
};

test("a ticket that isn't ready stops in plan", async () => {
  const run = await testWorkflow(delivery, {
    args,
    agents: { ...happyPath, planner: answer(PLAN, { ready: false, steps: [], missing: "no refund policy" }) },
  });
  expect(run.ending).toMatchObject({ kind: "stopped", stage: "plan", reason: "PAY-42 is not ready: no refund policy" });
  expect(run.stages).toMatchObject([{ name: "plan", outcome: "stopped", reason: "PAY-42 is not ready: no refund policy" }]);
  // The implementer was never opened, so never asked (turnsOf throws for a key never opened).
  expect(run.agents.map((agent) => agent.key)).toEqual(["planner"]);
  expect(() => run.value).toThrow("the workflow stopped in stage plan");
});

test("a completed run keeps each stage's value", async () => {
  const run = await testWorkflow(delivery, { args, agents: happyPath });
  expect(run.value).toEqual({ ticket: "PAY-42", branch: "pay-42-refunds" });
  expect(run.stages.map((stage) => [stage.name, stage.outcome])).toEqual([
    ["plan", "succeeded"],
    ["implement", "succeeded"],
    ["review", "succeeded"],
  ]);
  expect(run.stages[0]).toMatchObject({ summary: "2 steps", value: { ready: true, steps: ["add the refund route", "test it"] } });
  expect(run.stages[1]?.value).toEqual({ branch: "pay-42-refunds", files: ["src/refunds.ts", "src/refunds.test.ts"] });
  expect(run.stages[2]?.value).toBeUndefined();
  // One planner, reopened: its second turn is n 2 of the same session, in another stage.
  expect(run.turnsOf("planner").map((turn) => [turn.n, turn.stage])).toEqual([
    [1, "plan"],
    [2, "review"],
  ]);
  expect(run.agentOf("implementer").execution).toEqual({ harness: "codex", model: "gpt-5.6-sol", effort: "high", placement: "pane", alias: "codex" });
  expect(delivery.present?.(run.value, run.ending)).toBe("PAY-42 is ready to merge from pay-42-refunds");
});

test("a review that asks for changes stops in review, after the earlier stages succeeded", async () => {
  const run = await testWorkflow(delivery, {
    args,
    agents: { ...happyPath, planner: [plan, answer(VERDICT, { approved: false, notes: "no test for partial refunds" })] },
  });
  expect(run.ending).toMatchObject({ kind: "stopped", stage: "review", continue: "awf run delivery --continue test" });
  expect(run.stages.map((stage) => stage.outcome)).toEqual(["succeeded", "succeeded", "stopped"]);
  expect(delivery.report?.(undefined, run.ending)).toBe("# Not delivered\n\nreview asked for changes: no test for partial refunds");
});

test("the planner reads the ticket's brief from the run's directory", async () => {
  const run = await testWorkflow(delivery, {
    args,
    id: "pay-42",
    files: { tickets: { "PAY-42.md": "Refund a charge made twice." } },
    agents: happyPath,
  });
  expect(run.turnsOf("planner")[0]?.prompt).toContain("Refund a charge made twice.");
  expect(run.logs[0]).toMatchObject({ message: "delivering", fields: { ticket: "PAY-42", run: "pay-42", attempt: 1 } });
  expect(run.logs[1]).toEqual({ message: "implementing on gpt-5.6-sol" });
});
