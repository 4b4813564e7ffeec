// The hover on an entry no turn reached: one line saying why (how many turns its agent was asked,
// how many entries its list has), then what the list did meet, over the real protocol connection.
import { afterAll, beforeAll, test } from "bun:test";
import { join } from "node:path";
import { checkHovers } from "./check/checkHovers.ts";
import { openFixture } from "./check/openFixture.ts";
import { MISTAKES, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.started();
});
afterAll(() => server.dispose());

test(
  "hovering an entry never reached says why no turn reached it and which entry each turn met",
  async () => {
    const opened = await openFixture(
      server,
      join(MISTAKES, "virtual-never-reached-hover.test.ts"),
      `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a writer asked once", async () => {
  await testWorkflow(note, {
    agents: {
      writer: [
        answer(NOTE, { title: "Release 2.1" }),
        answer(NOTE, { title: "Release 2.2" }),
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: **Never reached**: writer was asked 1 turn, and its script has 2 entries.
//      |
//      | Turn 1 met entry 1 (line 9).
//      |
//      | *in test \`a writer asked once\`*
      ],
    },
  });
});
`,
    );
    await checkHovers(opened);
  },
  SLOW,
);
