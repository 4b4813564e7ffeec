// The workflows the testing API page's samples test (examples/site/reference/testing-api.test.ts):
// `investigate`, which asks a coordinator; `caseRun`, which an event starts and its thread feeds;
// and `flow`, whose continue reuses its stages (examples/flow).

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { defineWorkflow, Type } from "agentswf/workflow";

export { default as flow, QA } from "../../flow/workflow";

/** An investigator that may ask the coordinator, a person or session the run did not start. */
export const investigate = defineWorkflow({
  name: "investigate",
  description: "Investigates the checkout incidents, asking the coordinator what it cannot decide.",
  async run(wf) {
    await wf.participants.connect({ key: "coordinator" });
    const investigator = await wf.agents.open({ key: "investigator", runtime: "claude" });
    await wf.messages.allow({ between: ["investigator", "coordinator"], purpose: "questions about the incidents" });
    const { outcome } = await investigator.run({
      prompt: "Investigate the checkout incidents. Ask the coordinator whatever you can't decide, and answer with what to do.",
    });
    return outcome.kind === "answered" ? outcome.value : `no answer: ${outcome.reason}`;
  },
});

/** Keeps a case file up to date: started by `case.changed`, then fed by its thread's replies until it parks. */
export const caseRun = defineWorkflow({
  name: "case-run",
  description: "Keeps a case file up to date while its thread talks about it.",
  events: { "case.changed": Type.Object({ case: Type.String() }) },
  starts: ["case.changed"],
  async run(wf) {
    const name = (wf.event?.data as { case?: string } | undefined)?.case ?? wf.runId;
    // The thread is a participant: what it says arrives as "thread:reply" events.
    await wf.participants.connect({ key: "thread" });
    const folder = join(wf.cwd, "cases", name);
    const investigator = await wf.agents.open({ key: "investigator", runtime: "claude", cwd: folder });
    const notes = await readFile(join(folder, "case.md"), "utf8");
    await investigator.run({ prompt: `Update case.md for ${name}. It reads:\n${notes}` });
    for (;;) {
      const said = await wf.events.wait("thread:reply", { label: `waiting on the thread about ${name}` });
      if (said.kind !== "event") return { case: name, closed: false };
      await investigator.run({ prompt: `The thread says: ${(said.data as { text: string }).text}\nUpdate case.md for ${name}.` });
    }
  },
});
