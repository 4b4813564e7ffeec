// A decision the test's script does not cover: the diagnostic on the `decisions` option (else the
// call) and its quick fix, a script answering each question the decision asked.
import { join } from "node:path";
import { fixtureTests, serverForFile } from "./check/fixtureTests.ts";
import { ROOT } from "./harness.ts";

const server = serverForFile();
const FOLDER = join(ROOT, "test", "runner", "fixtures", "locations");
const SCRIPT = '{ risk: "low", ship: true, urgency: 0 }';

fixtureTests(server, [
  {
    name: "a decision with no script is an error on the call, fixed by adding a decisions script that answers each of its questions",
    path: join(FOLDER, "virtual-decision.test.ts"),
    checks: ["diagnostics", "actions"],
    fixes: [[`Add a script for decision "release-1": ${SCRIPT}`, ["    agents: {},\n", `    agents: {},\n    decisions: { "release-1": ${SCRIPT} },\n`]]],
    fixture: `import { test } from "bun:test";
import { testWorkflow } from "agentswf/testing";
import { release } from "./workflows";

test("a decision with no script", async () => {
  await testWorkflow(release, {
//      ^^^^^^^^^^^^ error[decision-unscripted]: decision "release-1": no decision is scripted
//      ^^^^^^^^^^^^ action[preferred]: Add a script for decision "release-1": ${SCRIPT}
    agents: {},
  });
});
`,
  },
  {
    name: "a decision with no script beside other decisions' scripts is an error on the decisions option, fixed by adding its script there",
    path: join(FOLDER, "virtual-decisions.test.ts"),
    checks: ["diagnostics", "actions"],
    fixes: [
      [
        `Add a script for decision "release-1": ${SCRIPT}`,
        ['decisions: { "release-0": { ship: false } }', `decisions: { "release-0": { ship: false }, "release-1": ${SCRIPT} }`],
      ],
    ],
    fixture: `import { test } from "bun:test";
import { testWorkflow } from "agentswf/testing";
import { release } from "./workflows";

test("a decision with no script beside others", async () => {
  await testWorkflow(release, {
    decisions: { "release-0": { ship: false } },
//  ^^^^^^^^^ error[decision-unscripted]: decision "release-1": no script for it; scripted: "release-0"
//  ^^^^^^^^^ action[preferred]: Add a script for decision "release-1": ${SCRIPT}
  });
});
`,
  },
]);
