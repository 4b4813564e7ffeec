// Pairing on a ticket: a planner plans, a fork of its session looks for the plan's weak spot, the
// planner compacts before it implements (at a higher effort while the plan's allowance lasts), and
// the session the run was started from, when it was handed over, approves the change.

import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const PLAN = Type.Object({ steps: Type.Array(Type.String()) });
export const CHANGE = Type.Object({ branch: Type.String() });

export default defineWorkflow({
  name: "pairing",
  description: "Plan a ticket with a second opinion from a fork, implement it, and ask the operator to approve.",
  prepare: ({ argv }) => ({ ticket: argv[0] ?? "PAY-7" }),
  async run(wf, { ticket }) {
    const planner = await wf.agents.open({ key: "planner", runtime: "claude", layout: { tab: "plan" }, keepPane: "on-failure" });
    const plan = await planner.run({ prompt: `Plan ${ticket}.`, schema: PLAN });
    if (plan.outcome.kind !== "answered") return { ticket, approved: false, why: `no plan (${plan.outcome.kind})` };

    // A copy of the planner's session knows the plan without being told it again.
    const skeptic = await planner.fork({ key: "skeptic", layout: { beside: "planner", side: "right" } });
    const critique = await skeptic.run({ prompt: "What in this plan is most likely wrong? One sentence." });
    wf.agents.stop("skeptic", "its critique is in");
    const doubt = critique.outcome.kind === "answered" ? critique.outcome.value : "none";

    const compacted = await planner.compact({ prompt: "Keep the plan and its steps; drop the exploration." });
    if (compacted.kind !== "answered") wf.log("the planner kept its whole context", { why: compacted.reason });

    // Opus at high effort while the plan's windows have room; the plan's own model otherwise.
    const allowance = await wf.allowance("claude");
    const tight = allowance.kind === "plan" && allowance.windows.some((window) => window.left < 0.2);
    if (!tight) await planner.set({ model: "opus", effort: "high" });
    const change = await planner.run({ prompt: `Implement the plan. Mind this doubt: ${doubt}`, schema: CHANGE });
    if (change.outcome.kind !== "answered") return { ticket, approved: false, why: `no change (${change.outcome.kind})` };

    const author = await wf.agents.caller({ key: "author" });
    if (!author) return { ticket, approved: false, branch: change.outcome.value.branch, why: "no one to approve it here" };
    const approval = await author.run({ prompt: `Merge ${change.outcome.value.branch}? Answer yes or no.` });
    const approved = approval.outcome.kind === "answered" && approval.outcome.value.trim().toLowerCase() === "yes";
    return { ticket, approved, branch: change.outcome.value.branch, why: approved ? "approved" : `not approved (${approval.outcome.kind})` };
  },
});
