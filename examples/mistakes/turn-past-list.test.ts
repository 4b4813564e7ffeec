// A list has one entry per turn: a turn past its end fails the test. The worker is asked again
// after its only entry. Fails with: agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

test("a turn past the list's end", async () => {
  await testWorkflow(loop, {
    agents: { worker: [answer(STEP, { done: false })] },
  });
});
