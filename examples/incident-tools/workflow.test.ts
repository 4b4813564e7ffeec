// examples/incident-tools/workflow.test.ts
import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import incidentTools, { TRIAGE } from "./workflow";

const files = { tickets: { "INC-7.md": "Checkout times out for every EU customer." } };

// A triager that reads its ticket with the tool, and says how severe it is from what it read.
const triager = answer(TRIAGE, async (turn) => {
  const read = await turn.tool("ticket", { id: "INC-7" });
  if (read.kind !== "result") return { severity: "high", why: `could not read the ticket: ${read.kind}` };
  const { text } = read.output as { text: string };
  return { severity: text.includes("every") ? "high" : "low", why: text };
});

test("the triager reads its ticket through the workflow's tool", async () => {
  const run = await testWorkflow(incidentTools, { args: { incident: "INC-7" }, files, agents: { triager } });
  expect(run.value).toEqual({ severity: "high", why: "Checkout times out for every EU customer." });
});

test("the tool refuses input its schema does not accept, and fails on a ticket that is not there", async () => {
  const results: unknown[] = [];
  const run = await testWorkflow(incidentTools, {
    args: { incident: "INC-8" },
    files,
    agents: {
      triager: answer(TRIAGE, async (turn) => {
        results.push(await turn.tool("ticket", { id: "checkout" }), await turn.tool("ticket", { id: "INC-8" }));
        return { severity: "low", why: "no ticket" };
      }),
    },
  });
  expect(run.value).toEqual({ severity: "low", why: "no ticket" });
  expect(results).toMatchObject([
    { kind: "refused", code: "input-refused" },
    { kind: "failed", outcome: "failed" },
  ]);
  expect((results[1] as { error: string }).error).toStartWith('tool "ticket" failed: ENOENT');
});
