// Diagnostics: one report per problem, so an entry two tests share and both leave unreached is one
// diagnostic, not one per test; over the real protocol connection.
import { join } from "node:path";
import { fixtureTests, serverForFile } from "./check/fixtureTests.ts";
import { MISTAKES } from "./harness.ts";

fixtureTests(serverForFile(), [
  {
    name: "an entry two tests share and neither reaches is reported once",
    path: join(MISTAKES, "virtual-one-report.test.ts"),
    checks: ["diagnostics"],
    fixture: `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

const finish = [answer(STEP, { done: true }), answer(STEP, { done: true })];
//                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[entry-never-reached, unnecessary]: agent "worker" was asked 1 turn; its script has 2: this entry is never reached

test("first run of the shared list", async () => {
  await testWorkflow(loop, { agents: { worker: finish } });
});

test("second run of the shared list", async () => {
  await testWorkflow(loop, { agents: { worker: finish } });
});
`,
  },
]);
