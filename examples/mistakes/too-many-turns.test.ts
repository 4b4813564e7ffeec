// maxTurns bounds the turns a workflow starts, so a loop that never ends fails rather than hangs.
// The worker never says done. Fails with: agent "worker" turn 4: the run started more than 3 turns (maxTurns). It was asked: Do step 4.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

test("a loop that never ends", async () => {
  await testWorkflow(loop, {
    agents: { worker: answer(STEP, { done: false }) },
    maxTurns: 3,
  });
});
