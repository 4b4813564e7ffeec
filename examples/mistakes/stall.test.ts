// noAnswer.hang() holds until the engine cancels the turn; here nothing does (no deadline, no
// sibling), so the stall guard fails the test after `stall`.
// Fails with: the run stalled: nothing started or ended for 200 ms; in flight: "writer" turn 1
import { test } from "bun:test";
import { noAnswer, testWorkflow } from "agentswf/testing";
import { note } from "./workflows";

test("a turn nobody ends", async () => {
  await testWorkflow(note, {
    agents: { writer: noAnswer.hang() },
    stall: "200ms",
  });
});
