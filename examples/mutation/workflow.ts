// The mutation demo's workflow (docs/mutate.md): a reader summarises a file and a reviewer judges
// the summary; the run returns both. `turnlens test --mutate` shows which answer each test checks.

import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const SUMMARY = Type.Object({ summary: Type.String(), words: Type.Integer({ minimum: 1 }) });
export const VERDICT = Type.Object({ approved: Type.Boolean(), notes: Type.String() });

export default defineWorkflow({
  name: "reviewed-summary",
  description: "Summarise a file, then have the summary reviewed.",
  prepare: ({ argv }) => ({ file: argv[0] ?? "README.md" }),
  async run(wf, { file }) {
    const reader = await wf.agents.open({ key: "reader", runtime: "claude" });
    const read = await reader.run({ prompt: `Read ${file} and summarise it.`, schema: SUMMARY });
    if (read.outcome.kind !== "answered") throw new Error(`the reader gave no summary: ${read.outcome.reason}`);
    const reviewer = await wf.agents.open({ key: "reviewer", runtime: "codex" });
    const review = await reviewer.run({ prompt: `Review this summary: ${read.outcome.value.summary}`, schema: VERDICT });
    if (review.outcome.kind !== "answered") throw new Error(`the reviewer gave no verdict: ${review.outcome.reason}`);
    return { ...read.outcome.value, verdict: review.outcome.value };
  },
});
