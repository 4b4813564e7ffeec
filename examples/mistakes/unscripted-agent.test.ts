// Every agent asked a turn needs a script. The workflow asks "writer"; the test scripts "reader".
// Fails with: agent "writer" turn 1: no script for it; scripted: "reader". It was asked: Title the release note.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("an agent with no script", async () => {
  await testWorkflow(note, {
    agents: { reader: answer(NOTE, { title: "Release 1.2" }) },
  });
});
