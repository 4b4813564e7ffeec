// Inlay hints for entries several tests share: one hint per line, counting the turns it met in
// every test, rather than the same label once per test.
import { join } from "node:path";
import { fixtureTests, serverForFile } from "./check/fixtureTests.ts";
import { MISTAKES } from "./harness.ts";

fixtureTests(serverForFile(), [
  {
    name: "an entry shared by two tests gets one hint on its line, counting the turns it met in both",
    path: join(MISTAKES, "virtual-shared.test.ts"),
    checks: ["diagnostics", "hints"],
    fixture: `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

const finish = [answer(STEP, { done: false }), answer(STEP, { done: true })];
//             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turns 1–2 in 2 tests: answered

test("first run of the shared list", async () => {
  await testWorkflow(loop, { agents: { worker: finish } });
});

test("second run of the shared list", async () => {
  await testWorkflow(loop, { agents: { worker: finish } });
});
`,
  },
  {
    name: "a turn and the nudge that followed it read as one call, with the outcome the engine recorded",
    path: join(MISTAKES, "virtual-silent.test.ts"),
    checks: ["diagnostics", "hints"],
    fixture: `import { test } from "bun:test";
import { noAnswer, testWorkflow } from "agentswf/testing";
import { note } from "./workflows";

test("a silent writer", async () => {
  await testWorkflow(note, { agents: { writer: noAnswer.silent() } });
//                                             ^^^^^^^^^^^^^^^^^ hint: writer · turn 1 no answer, as scripted
});
`,
  },
]);
