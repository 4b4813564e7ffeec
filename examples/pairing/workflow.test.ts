// workflow.test.ts
import { expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import pairing, { CHANGE, PLAN } from "./workflow";

const args = { ticket: "PAY-7" };
const happyPath = {
  // The planner is asked to plan, then to implement: a list, one entry per turn.
  planner: [answer(PLAN, { steps: ["add the column", "backfill"] }), answer(CHANGE, { branch: "pay-7" })],
  skeptic: answer("The backfill locks the table."),
  author: answer("yes"),
};
// The session the run was started from, handed over to it (`awf run --here`).
const handedOver = { caller: { harness: "claude" } };

test("the operator approves the change the planner made after a compaction, at opus", async () => {
  const run = await testWorkflow(pairing, {
    args,
    ...handedOver,
    agents: happyPath,
    compactions: { planner: answer("Plan: add the column, backfill.") },
  });
  expect(run.value).toEqual({ ticket: "PAY-7", approved: true, branch: "pay-7", why: "approved" });
  expect(run.compactionsOf("planner")).toMatchObject([{ n: 1, focus: "Keep the plan and its steps; drop the exploration.", outcome: "answered" }]);
  expect(run.setsOf("planner")).toEqual([{ agent: "planner", n: 1, model: "opus", effort: "high" }]);
  expect(run.turnsOf("planner").map((turn) => turn.model)).toEqual(["sonnet", "opus"]);
  expect(run.turnsOf("planner")[1]?.prompt).toContain("The backfill locks the table.");
  expect(run.agentOf("skeptic")).toMatchObject({ forkedFrom: { key: "planner", turns: 1 }, pane: { beside: "planner", side: "right" } });
  expect(run.agentOf("author").execution).toMatchObject({ harness: "claude", model: "", caller: true });
});

test("a tight allowance keeps the planner on its own model", async () => {
  const run = await testWorkflow(pairing, {
    args,
    ...handedOver,
    agents: happyPath,
    allowance: { claude: { kind: "plan", windows: [{ name: "5h", left: 0.1 }] } },
  });
  expect(run.sets).toEqual([]);
  expect(run.turnsOf("planner").map((turn) => turn.model)).toEqual(["sonnet", "sonnet"]);
});

test("a session still waiting on the run has no one to approve; the operator can interrupt one handed over", async () => {
  const waiting = await testWorkflow(pairing, { args, caller: { harness: "claude", here: false }, agents: happyPath });
  expect(waiting.value).toMatchObject({ approved: false, why: "no one to approve it here" });
  const interrupted = await testWorkflow(pairing, { args, ...handedOver, agents: { ...happyPath, author: noAnswer.interrupted() } });
  expect(interrupted.value).toMatchObject({ approved: false, why: "not approved (cancelled)" });
});

test("a compaction the harness never confirms leaves the planner its whole context", async () => {
  const run = await testWorkflow(pairing, { args, ...handedOver, agents: happyPath, compactions: { planner: noAnswer.silent() } });
  expect(run.logs).toEqual([{ message: "the planner kept its whole context", fields: { why: "the harness did not confirm a compaction" } }]);
  expect(run.value).toMatchObject({ approved: true });
});

test("a planner that fails to implement leaves the change unapproved; the attempt completed, so its pane goes", async () => {
  const run = await testWorkflow(pairing, { args, ...handedOver, agents: { ...happyPath, planner: [answer(PLAN, { steps: [] }), noAnswer.failed()] } });
  expect(run.value).toMatchObject({ approved: false, why: "no change (failed)" });
  // keepPane "on-failure" is about the attempt: this one returned, so it completed.
  expect(run.agentOf("planner").keptPane).toBeUndefined();
});
