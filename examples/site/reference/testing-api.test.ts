// examples/site/reference/testing-api.test.ts: the testing API page's samples, as printed there,
// each inside a test (the page's first sample, summarize, is examples/summarize/summarize.test.ts).
import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { caseRun, flow, investigate, QA } from "./testing-api";

test("participants: the coordinator answers the investigator's question", async () => {
  const run = await testWorkflow(investigate, {
    agents: {
      investigator: answer(async (turn) => {
        const asked = await turn.send("coordinator", "One incident or two?", { awaitReply: true });
        return asked.kind === "replied" ? asked.text : asked.kind;
      }),
    },
    participants: {
      coordinator: (event) =>
        event.kind === "message" && event.asks
          ? event.reply("Keep two, and link them.")
          : undefined,
    },
  });
  expect(run.value).toBe("Keep two, and link them.");
});

test("a workflow with events: started by one, fed by its thread, parked waiting on it", async () => {
  const run = await testWorkflow(caseRun, {
    id: "checkout-timeouts", // the run, as a sender names it
    event: { name: "case.changed", data: { case: "checkout-timeouts" } }, // starts it
    files: { cases: { "checkout-timeouts": { "case.md": "# checkout\n" } } }, // laid out first
    agents: { investigator: answer("case.md updated") },
    events: [
      { during: "investigator#1", name: "thread:reply", data: { text: "is it the index?" } },
    ],
  });
  expect(run.ending).toMatchObject({
    kind: "parked",
    label: "waiting on the thread about checkout-timeouts",
  });
  expect(run.turnsOf("investigator")[1]?.prompt).toContain("is it the index?");
  expect(run.emits).toEqual([]);
});

test("continuing an earlier attempt reuses its stages", async () => {
  const run = await testWorkflow(flow, {
    earlier: { stages: { "doc-review": { path: "docs/a.md" }, implement: { branch: "feat/a" } } },
    agents: { worker: answer(QA, { preview: "ok" }) },
  });
  expect(run.compactions).toEqual([]); // a compaction inside implement isn't repeated
});
