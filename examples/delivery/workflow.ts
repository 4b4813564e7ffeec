// A staged delivery: plan, implement, review, each a wf.stage that records its outcome and value.
// A planner that says the ticket is not ready stops the run in "plan" with wf.stop(reason).

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const PLAN = Type.Object({
  ready: Type.Boolean(),
  steps: Type.Array(Type.String()),
  missing: Type.Optional(Type.String()),
});
export const CHANGE = Type.Object({ branch: Type.String(), files: Type.Array(Type.String()) });
export const VERDICT = Type.Object({ approved: Type.Boolean(), notes: Type.String() });

export default defineWorkflow({
  name: "delivery",
  description: "Plan, implement and review one ticket, stopping early when it is not ready.",
  prepare: ({ argv }) => {
    if (!argv[0]) throw new Error("usage: delivery <ticket>");
    return { ticket: argv[0] };
  },
  async run(wf, { ticket }) {
    const brief = await readFile(join(wf.cwd, "tickets", `${ticket}.md`), "utf8").catch(() => "(no brief)");
    wf.log("delivering", { ticket, run: wf.runId, attempt: wf.attempt, at: wf.now().toISOString() });
    // Opening a key again returns the same agent, so the planner who planned also reviews.
    const planner = () => wf.agents.open({ key: "planner", runtime: "claude" });

    const plan = await wf.stage("plan", { result: PLAN, summary: (p) => `${p.steps.length} steps` }, async () => {
      const { outcome } = await (await planner()).run({
        prompt: `Plan ${ticket}. Say ready: false if it can't be built as written.\n\n${brief}`,
        schema: PLAN,
      });
      if (outcome.kind !== "answered") return wf.stop(`the planner gave no plan: ${outcome.reason}`);
      if (!outcome.value.ready) return wf.stop(`${ticket} is not ready: ${outcome.value.missing ?? "the planner says so"}`);
      return outcome.value;
    });

    const change = await wf.stage("implement", { result: CHANGE }, async () => {
      const implementer = await wf.agents.open({ key: "implementer", runtime: { alias: "codex", effort: "high" } });
      wf.log(`implementing on ${implementer.execution.model}`);
      const steps = plan.steps.map((step, index) => `${index + 1}. ${step}`).join("\n");
      const { outcome } = await implementer.run({ prompt: `Implement ${ticket} on a branch:\n${steps}`, schema: CHANGE });
      if (outcome.kind !== "answered") throw new Error(`no change for ${ticket}: ${outcome.reason}`);
      return outcome.value;
    });

    // A stage without a result returns nothing: this one is a gate.
    await wf.stage("review", async () => {
      const reviewer = await planner();
      const { outcome } = await reviewer.run({ prompt: `Review ${change.branch} against your plan.`, schema: VERDICT });
      if (outcome.kind !== "answered") throw new Error(`no review of ${change.branch}: ${outcome.reason}`);
      if (!outcome.value.approved) wf.stop(`review asked for changes: ${outcome.value.notes}`);
    });

    return { ticket, branch: change.branch };
  },
  present: (value) => `${value.ticket} is ready to merge from ${value.branch}`,
  report: (value, ending) => (ending.kind === "completed" ? `# ${value?.ticket}\n\nDelivered on ${value?.branch}.` : `# Not delivered\n\n${ending.reason}`),
});
