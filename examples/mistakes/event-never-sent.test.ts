// An event in `events` is sent while the agent's nth turn runs; one whose turn never comes fails the
// test. The writer drafts once, so it has no turn 2. Fails with:
// event "approved" (during writer#2): agent "writer" never had turn 2
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { approval } from "./workflows";

test("an event never sent", async () => {
  await testWorkflow(approval, {
    agents: { writer: answer("Release 1.2: faster builds.") },
    events: [{ during: "writer#2", name: "approved", data: { by: "ann" } }],
  });
});
