// The page's first workflow: one reader summarises a file; a reader that never answers is
// nudged once, and the summary says why there is none.

import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const SUMMARY = Type.Object({ summary: Type.String() });

export default defineWorkflow({
  name: "summarize",
  description: "Summarise a file in two sentences.",
  prepare: ({ argv }) => ({ file: argv[0] ?? "README.md" }),
  async run(wf, { file }) {
    const reader = await wf.agents.open({ key: "reader", runtime: "claude" });
    const { outcome } = await reader.run({
      prompt: `Read ${file} and summarise it in two sentences.`,
      schema: SUMMARY,
    });
    return outcome.kind === "answered" ? outcome.value : { summary: `no answer: ${outcome.reason}` };
  },
});
