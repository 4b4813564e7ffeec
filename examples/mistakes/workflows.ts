// The small workflows the tests in this folder get wrong on purpose. Not a test file.

import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const NOTE = Type.Object({ title: Type.String({ minLength: 3 }) });
export const STEP = Type.Object({ done: Type.Boolean() });

/** Asks one writer for a note, once. */
export const note = defineWorkflow({
  name: "note",
  description: "Ask a writer for a note's title.",
  async run(wf) {
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    const { outcome } = await writer.run({ prompt: "Title the release note.", schema: NOTE });
    return outcome.kind === "answered" ? outcome.value.title : outcome.reason;
  },
});

/** Asks two checkers at once, each for text. */
export const pair = defineWorkflow({
  name: "pair",
  description: "Ask two checkers at once.",
  async run(wf) {
    return wf.parallel(["checker-a", "checker-b"], async (key) => {
      const checker = await wf.agents.open({ key, runtime: "codex" });
      const { outcome } = await checker.run({ prompt: "Check the build." });
      return outcome.kind;
    });
  },
});

/** Asks a worker for the next step until it says it is done. */
export const loop = defineWorkflow({
  name: "loop",
  description: "Work until done.",
  async run(wf) {
    const worker = await wf.agents.open({ key: "worker", runtime: "claude" });
    for (let step = 1; ; step++) {
      const { outcome } = await worker.run({ prompt: `Do step ${step}.`, schema: STEP });
      if (outcome.kind !== "answered" || outcome.value.done) return step;
    }
  },
});

/** Drafts a note, then waits for its approval, an event someone sends the run. */
export const approval = defineWorkflow({
  name: "approval",
  description: "Draft a note, then wait for its approval.",
  events: { approved: Type.Object({ by: Type.String() }) },
  async run(wf) {
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    await writer.run({ prompt: "Draft the release note." });
    const approved = await wf.events.wait("approved", { label: "waiting for the approval" });
    return approved.kind === "event" ? (approved.data as { by: string }).by : approved.kind;
  },
});

/** Drafts a note; the writer may ask the editor, an agent with no turn of its own. */
export const asking = defineWorkflow({
  name: "asking",
  description: "Draft a note, asking the editor what the writer can't decide.",
  async run(wf) {
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    await wf.agents.open({ key: "editor", runtime: "claude" });
    await wf.messages.allow({ between: ["writer", "editor"], purpose: "questions about the note" });
    const { outcome } = await writer.run({ prompt: "Draft the release note; ask the editor what you can't decide." });
    return outcome.kind === "answered" ? outcome.value : outcome.reason;
  },
});

/** Drafts a note; the writer may ask the coordinator, a session the run did not start. */
export const coordinated = defineWorkflow({
  name: "coordinated",
  description: "Draft a note, asking the coordinator what goes in it.",
  async run(wf) {
    await wf.participants.connect({ key: "coordinator" });
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    await wf.messages.allow({ between: ["writer", "coordinator"], purpose: "what goes in the note" });
    const { outcome } = await writer.run({ prompt: "Draft the release note." });
    return outcome.kind === "answered" ? outcome.value : outcome.reason;
  },
});
