// Workflows for callSites.test.ts, in a file of their own as a user's workflow is: one that asks
// through a helper of its own, and a pair whose messages wake each other. Each call the test
// checks is marked with a `// @name` comment on its line.

import { defineWorkflow, type AgentRef } from "agentswf/workflow";

/** The workflow's own helper: the turn's site is its agent.run, the first frame that is the user's. */
async function ask(agent: AgentRef, prompt: string): Promise<string> {
  const { outcome } = await agent.run({ prompt }); // @helper-run
  return outcome.kind;
}

export const helped = defineWorkflow({
  name: "helped",
  description: "Asks one agent twice through a helper.",
  async run(wf) {
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" }); // @writer-open
    return [await ask(writer, "Draft it."), await ask(writer, "Polish it.")];
  },
});

export const messaging = defineWorkflow({
  name: "messaging",
  description: "a asks b a question in its turn; the message wakes b, who replies.",
  async run(wf) {
    const a = await wf.agents.open({ key: "a", runtime: "claude" }); // @a-open
    await wf.agents.open({ key: "b", runtime: "claude" }); // @b-open
    await wf.messages.allow({ between: ["a", "b"], purpose: "questions" });
    const { outcome } = await a.run({ prompt: "Ask b." }); // @a-run
    return outcome.kind;
  },
});
