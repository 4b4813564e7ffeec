// A participant, such as a coordinator, is a session the run did not start: `participants` scripts
// it, not `agents`. The route to it opens with no script for it. Fails with:
// participant "coordinator": no participant is scripted. A route opened with "writer" (both), for: what goes in the note
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { coordinated } from "./workflows";

test("a participant with no script", async () => {
  await testWorkflow(coordinated, {
    agents: { writer: answer("Release 1.2: faster builds."), coordinator: answer("Lead with the speed-up.") },
  });
});
