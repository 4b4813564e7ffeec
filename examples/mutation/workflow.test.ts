// The mutation demo (docs/mutate.md). Both tests pass; `turnlens test --mutate examples/mutation`
// shows the second one asserts nothing about the reviewer's answer: changed to
// {approved: false, notes: ""}, the test still passes. The first checks every answer it scripts.
import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import reviewedSummary, { SUMMARY, VERDICT } from "./workflow";

test("the run returns the reader's summary and the reviewer's verdict", async () => {
  const run = await testWorkflow(reviewedSummary, {
    args: { file: "README.md" },
    agents: {
      reader: answer(SUMMARY, { summary: "Two sentences.", words: 2 }),
      reviewer: answer(VERDICT, { approved: true, notes: "Accurate." }),
    },
  });
  expect(run.value).toEqual({ summary: "Two sentences.", words: 2, verdict: { approved: true, notes: "Accurate." } });
});

// On purpose, for the demo: nothing below reads the verdict, so no assertion depends on the reviewer's answer.
test("the reviewer is shown the reader's summary", async () => {
  const run = await testWorkflow(reviewedSummary, {
    args: { file: "README.md" },
    agents: {
      reader: answer(SUMMARY, { summary: "Two sentences.", words: 2 }),
      reviewer: answer(VERDICT, { approved: true, notes: "Accurate." }),
    },
  });
  expect(run.value.summary).toBe("Two sentences.");
  expect(run.turnsOf("reviewer").map((turn) => turn.prompt)).toEqual(["Review this summary: Two sentences."]);
});
