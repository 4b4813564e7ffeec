// One report per problem: an entry two tests share and both leave unreached is one diagnostic, not
// one per test; over the real protocol connection.
import { afterAll, beforeAll, test } from "bun:test";
import { join } from "node:path";
import { checkDiagnostics } from "./check/checkDiagnostics.ts";
import { openFixture } from "./check/openFixture.ts";
import { MISTAKES, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.started();
});
afterAll(() => server.dispose());

test(
  "an entry two tests share and neither reaches is reported once",
  async () => {
    const opened = await openFixture(
      server,
      join(MISTAKES, "virtual-one-report.test.ts"),
      `import { test } from "bun:test";
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
    );
    checkDiagnostics(opened);
  },
  SLOW,
);
