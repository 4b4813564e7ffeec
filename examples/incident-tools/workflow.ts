// An incident triager that looks its ticket up with a tool the workflow gives it: the tool
// checks its input against a schema, reads the ticket from where the agent works, answers JSON.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { defineTool, defineWorkflow, Type } from "agentswf/workflow";

export const TICKET = Type.Object({ id: Type.String({ pattern: "^INC-[0-9]+$" }) });
export const TRIAGE = Type.Object({ severity: Type.Union([Type.Literal("low"), Type.Literal("high")]), why: Type.String() });

export default defineWorkflow({
  name: "incident-tools",
  description: "Triage an incident, looking its ticket up with a tool.",
  prepare: ({ argv }) => ({ incident: argv[0] ?? "INC-1" }),
  tools: {
    ticket: defineTool({
      description: 'Reads an incident\'s ticket: { "id": "INC-7" } gives { id, text }.',
      input: TICKET,
      run: async ({ id }, { cwd }) => ({ id, text: await readFile(join(cwd, "tickets", `${id}.md`), "utf8") }),
    }),
  },
  async run(wf, { incident }) {
    const triager = await wf.agents.open({ key: "triager", runtime: "claude", tools: ["ticket"] });
    const { outcome } = await triager.run({ prompt: `Triage ${incident}. Read its ticket with: wfa tool ticket '{"id":"${incident}"}'`, schema: TRIAGE });
    return outcome.kind === "answered" ? outcome.value : { severity: "high" as const, why: `no triage: ${outcome.reason}` };
  },
});
