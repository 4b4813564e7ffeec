// workflow.test.ts
import { expect, test } from "bun:test";
import { testWorkflow } from "agentswf/testing";
import triage from "./workflow";

const args = { tickets: ["Refund charged twice", "Dark mode toggle misaligned", "Can't change my email"] };

test("each ticket is routed by its decision's answers", async () => {
  const run = await testWorkflow(triage, {
    args,
    decisions: {
      "triage-1": {
        team: { payments: 0.95, accounts: 0.03, frontend: 0.02 },
        bug: 0.97,
        urgency: [0.1, 0.3, 0.6],
      },
      "triage-2": { team: "frontend", bug: 0.05, urgency: [0.92, 0.08, 0] },
      "triage-3": {
        team: { payments: 0.4, accounts: 0.5, frontend: 0.1 },
        bug: 0.6,
        urgency: [0.05, 0.9, 0.05],
      },
    },
  });
  expect(run.value).toEqual([
    { title: "Refund charged twice", team: "payments", bug: true, urgency: "high" },
    { title: "Dark mode toggle misaligned", team: "frontend", bug: false, urgency: "low" },
    { title: "Can't change my email", team: "desk", bug: true, urgency: "medium", why: "accounts at 0.5" },
  ]);
  // Each call as the workflow made it; read them by key.
  expect(run.decisions.find((call) => call.key === "triage-3")?.state).toEqual({ title: "Can't change my email" });
  expect(Object.keys(run.decisions[0]?.questions ?? {})).toEqual(["team", "bug", "urgency"]);
});

test("a glob answers every ticket; an Error for one makes its decide reject", async () => {
  const run = await testWorkflow(triage, {
    args,
    decisions: {
      "triage-*": { team: "accounts", bug: false, urgency: 0 },
      "triage-2": new Error("provider unavailable"),
    },
  });
  expect(run.value).toEqual([
    { title: "Refund charged twice", team: "accounts", bug: false, urgency: "low" },
    { title: "Dark mode toggle misaligned", team: "desk", why: 'decision "triage-2" failed: provider unavailable' },
    { title: "Can't change my email", team: "accounts", bug: false, urgency: "low" },
  ]);
});

test("a script may be a function of the request", async () => {
  const run = await testWorkflow(triage, {
    args,
    decisions: {
      "triage-*": (request) =>
        JSON.stringify(request.state).includes("Refund") ? { team: "payments", bug: true, urgency: 2 } : { team: "frontend", bug: 0.3, urgency: [0.5, 0.5, 0] },
    },
  });
  expect(run.value.map((ticket) => ticket.team)).toEqual(["payments", "frontend", "frontend"]);
  expect(run.value[1]).toMatchObject({ bug: false, urgency: "low" }); // a tie goes to the lowest level
});
