// Feature delivery with reviews that talk back: the reviewer may message the planner (or the
// implementer) and wait for the revision before giving its verdict; the planner then settles its plan.

import { defineWorkflow, Type } from "agentswf/workflow";

export const WORK = Type.Object({ docPath: Type.String(), summary: Type.String(), decisions: Type.Array(Type.String()) });
export const CHANGE = Type.Object({ branch: Type.String() });
export const VERDICT = Type.Union([
  Type.Object({ kind: Type.Literal("ready"), summary: Type.String() }),
  Type.Object({ kind: Type.Literal("changes"), changes: Type.Array(Type.String()) }),
  Type.Object({ kind: Type.Literal("inconclusive"), reason: Type.String() }),
]);

export default defineWorkflow({
  name: "feature-delivery",
  description: "Plans a feature in a ticket doc, implements it, and has both reviewed, the reviewer talking to their authors.",
  prepare: ({ argv }) => {
    if (!argv[0]) throw new Error("usage: feature-delivery <ticket>");
    return { ticket: argv[0] };
  },
  async run(wf, { ticket }) {
    const planner = await wf.agents.open({ key: "planner", runtime: "claude" });
    const implementer = await wf.agents.open({ key: "implementer", runtime: "codex" });
    const reviewer = await wf.agents.open({ key: "reviewer", runtime: "claude" });
    // The reviewer may ask each author for a change and wait for the reply.
    await wf.messages.allow({ between: ["reviewer", "planner"], purpose: "revise the ticket doc" });
    await wf.messages.allow({ between: ["reviewer", "implementer"], purpose: "revise the change" });

    const planned = await planner.run({ prompt: `Plan ${ticket} in a ticket doc.`, schema: WORK, label: "Plan ticket" });
    if (planned.outcome.kind !== "answered") return { ticket, delivered: false, why: `no plan: ${planned.outcome.reason}` };
    const docReview = await reviewer.run({
      prompt: `Review the ticket doc at ${planned.outcome.value.docPath}.`,
      schema: VERDICT,
      label: "Review ticket doc",
    });
    if (docReview.outcome.kind !== "answered" || docReview.outcome.value.kind !== "ready") {
      return { ticket, delivered: false, why: "the ticket doc was not approved" };
    }
    // The planner settles the plan with whatever the review changed.
    const settled = await planner.run({ prompt: "Settle the plan: list the decisions the review led to.", schema: WORK, label: "Settle plan" });
    const plan = settled.outcome.kind === "answered" ? settled.outcome.value : planned.outcome.value;

    const built = await implementer.run({ prompt: `Implement ${ticket} as ${plan.docPath} says.`, schema: CHANGE, label: "Implement" });
    if (built.outcome.kind !== "answered") return { ticket, delivered: false, why: `no change: ${built.outcome.reason}` };
    const codeReview = await reviewer.run({ prompt: `Review ${built.outcome.value.branch}.`, schema: VERDICT, label: "Review code" });
    const verdicts = [docReview.outcome.value, codeReview.outcome.kind === "answered" ? codeReview.outcome.value : null];
    return {
      ticket,
      delivered: codeReview.outcome.kind === "answered" && codeReview.outcome.value.kind === "ready",
      plan: plan.summary,
      decisions: plan.decisions,
      branch: built.outcome.value.branch,
      verdicts,
    };
  },
});
