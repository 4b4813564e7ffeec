// A list is strict: an entry no turn reached fails the test. The writer is asked once; its
// script has two entries. Fails with: agent "writer" was asked 1 turn; its script has 2
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a list entry never reached", async () => {
  await testWorkflow(note, {
    agents: { writer: [answer(NOTE, { title: "Release 1.2" }), answer(NOTE, { title: "Release 1.3" })] },
  });
});
