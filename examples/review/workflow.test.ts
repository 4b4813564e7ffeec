// workflow.test.ts
import { expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import review, { DECISION, VERDICT } from "./workflow";

const args = { diff: "main..feature" };
const clean = answer(VERDICT, { ok: true, findings: [] });
// The lead is asked twice, to decide and then to comment: a list, one entry per turn.
const lead = [
  answer(DECISION, (turn) => (turn.prompt.includes("no verdict") ? { approve: false, summary: "a verdict is missing" } : { approve: true, summary: "all clear" })),
  answer("Looks good, merging."),
];

test("every verifier passes, so the lead approves", async () => {
  const run = await testWorkflow(review, { args, agents: { "verifier-*": clean, lead } });
  expect(run.value).toEqual({ approve: true, summary: "all clear", comment: "Looks good, merging." });
  // Under parallel, read agents by key, not by index.
  expect(run.turnsOf("verifier-2")[0]).toMatchObject({ label: "security", outcome: "answered" });
  expect(run.agentOf("verifier-1").execution).toMatchObject({ harness: "codex", alias: "codex" });
  expect(run.agentOf("lead").instructions).toBe("You lead code reviews.");
  expect(run.turnsOf("lead").map((turn) => turn.label)).toEqual(["decide", "comment"]);
  expect(run.logs).toEqual([{ message: "verdicts in", fields: { ok: 3 } }]);
});

test("an exact key wins over the glob: verifier-2 times out", async () => {
  const run = await testWorkflow(review, {
    args,
    agents: { "verifier-*": clean, "verifier-2": noAnswer.timedOut(), lead },
  });
  expect(run.turnsOf("verifier-2").map((turn) => turn.outcome)).toEqual(["timed-out"]);
  expect(run.turnsOf("lead")[0]?.prompt).toContain("verifier-2 (security): no verdict (timed-out)");
  expect(run.value.approve).toBe(false);
});

test("a crashed verifier fails the review fast: the others are cancelled", async () => {
  const run = await testWorkflow(review, {
    args,
    // No lead here: a list for an agent never asked would fail the test.
    agents: { "verifier-*": noAnswer.hang(), "verifier-3": noAnswer.failed("harness crashed") },
  });
  expect(() => run.value).toThrow("verifier-3 failed: harness crashed");
  expect(run.ending).toMatchObject({ kind: "failed", reason: "verifier-3 failed: harness crashed" });
  expect(run.turnsOf("verifier-1")[0]?.outcome).toBe("cancelled");
  expect(run.turnsOf("verifier-2")[0]?.outcome).toBe("cancelled");
  // The lead was never opened, so never asked (turnsOf throws for a key never opened).
  expect(run.agents.map((agent) => agent.key).sort()).toEqual(["verifier-1", "verifier-2", "verifier-3"]);
});

test("runtimes replaces an alias, and agentOf shows what each agent ran on", async () => {
  const run = await testWorkflow(review, {
    args,
    agents: { "verifier-*": clean, lead },
    runtimes: { codex: { harness: "codex", model: "gpt-5-mini", effort: "low" } },
  });
  expect(run.agentOf("verifier-3").execution).toMatchObject({ model: "gpt-5-mini", effort: "low" });
  expect(run.turnsOf("verifier-3")[0]?.model).toBe("gpt-5-mini");
  expect(run.agentOf("lead").execution.model).toBe("sonnet");
});
