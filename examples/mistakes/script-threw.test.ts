// A script function that throws fails the test, not the workflow.
// Fails with: agent "writer" turn 1: its script threw: no title yet. It was asked: Title the release note.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a script that throws", async () => {
  await testWorkflow(note, {
    agents: {
      writer: answer(NOTE, () => {
        throw new Error("no title yet");
      }),
    },
  });
});
