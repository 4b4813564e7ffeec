// A multi-agent code review: three verifiers read a diff at once (wf.parallel), then a lead
// decides from their verdicts and writes the comment. A verifier whose harness fails fails the
// review fast: parallel cancels the verifiers still working.

import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const VERDICT = Type.Object({ ok: Type.Boolean(), findings: Type.Array(Type.String()) });
export const DECISION = Type.Object({ approve: Type.Boolean(), summary: Type.String() });

/** Each verifier's key and what it looks for. */
export const FOCUS = {
  "verifier-1": "correctness",
  "verifier-2": "security",
  "verifier-3": "tests",
} as const;
type Verifier = keyof typeof FOCUS;

export default defineWorkflow({
  name: "review",
  description: "Review a diff with three verifiers at once and a lead who decides.",
  prepare: ({ argv }) => ({ diff: argv[0] ?? "HEAD~1..HEAD" }),
  async run(wf, { diff }) {
    const verdicts = await wf.parallel(
      Object.keys(FOCUS) as Verifier[],
      async (key) => {
        const verifier = await wf.agents.open({ key, runtime: "codex" });
        const { outcome } = await verifier.run({
          prompt: `Review ${diff} for ${FOCUS[key]}. List what you find.`,
          schema: VERDICT,
          label: FOCUS[key],
          timeout: "20m",
        });
        if (outcome.kind === "answered") return { key, ...outcome.value };
        // A crashed harness may not have looked at all: throwing cancels the other verifiers.
        if (outcome.kind === "failed") throw new Error(`${key} failed: ${outcome.reason}`);
        return { key, ok: false, findings: [`no verdict (${outcome.kind})`] };
      },
      { label: "verifiers", deadline: "30m" },
    );
    wf.log("verdicts in", { ok: verdicts.filter((verdict) => verdict.ok).length });

    const lead = await wf.agents.open({ key: "lead", runtime: "claude", instructions: "You lead code reviews." });
    const lines = verdicts.map(({ key, ok, findings }) => `${key} (${FOCUS[key]}): ${ok ? "ok" : findings.join("; ")}`);
    const decided = await lead.run({
      prompt: `Decide on ${diff} from these verdicts:\n${lines.join("\n")}`,
      schema: DECISION,
      label: "decide",
    });
    if (decided.outcome.kind !== "answered") {
      return { approve: false, summary: `the lead did not decide: ${decided.outcome.reason}`, comment: "" };
    }
    const comment = await lead.run({
      prompt: "Write the review comment for the author.",
      label: "comment",
      nudge: { prompt: "Reply with the comment's text, nothing else." },
    });
    return { ...decided.outcome.value, comment: comment.outcome.kind === "answered" ? comment.outcome.value : "" };
  },
});
