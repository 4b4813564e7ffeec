// An exact key wins over a pattern, but two patterns matching one key fail the test.
// Fails with: agent "checker-b" turn 1: it matches "checker-*" and "*-b"; give it a script of its own. It was asked: Check the build.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { pair } from "./workflows";

test("two patterns match one agent", async () => {
  await testWorkflow(pair, {
    agents: { "checker-*": answer("green"), "*-b": answer("red") },
  });
});
