// The hover on an entry no turn reached: one line saying why (how many turns its agent was asked,
// how many entries its list has), then what the list did meet, over the real protocol connection;
// and the hover a client without markdown gets: the same lines, no `**`, backticks or `>`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { checkHovers } from "./check/checkHovers.ts";
import { openFixture } from "./check/openFixture.ts";
import { EDITOR_CAPABILITIES, MISTAKES, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
let plain: TestServer;
beforeAll(async () => {
  server = await TestServer.started();
  // As eglot without markdown-mode asks: hovers in plain text only.
  plain = await TestServer.started({
    capabilities: { ...EDITOR_CAPABILITIES, textDocument: { ...EDITOR_CAPABILITIES.textDocument, hover: { contentFormat: ["plaintext"] } } },
  });
});
afterAll(async () => {
  await server.dispose();
  await plain.dispose();
});

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

test(
  "a client without markdown gets the hover as plain text: its first line the answer, no marks",
  async () => {
    const opened = await openFixture(
      plain,
      join(MISTAKES, "virtual-plain-hover.test.ts"),
      `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a plain writer", async () => {
  await testWorkflow(note, { agents: { writer: [answer(NOTE, { title: "Release 2.1" }), answer(NOTE, { title: "Release 2.2" })] } });
//                                                                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Never reached: writer was asked 1 turn, and its script has 2 entries.
//                                                                                      |
//                                                                                      | Turn 1 met entry 1 (line 6).
//                                                                                      |
//                                                                                      | in test a plain writer
});
`,
    );
    await checkHovers(opened);
    const { start } = opened.fixture.annotations[0]?.range ?? { start: { line: 0, character: 0 } };
    const answered = await plain.request<{ contents: { kind: string; value: string } } | null>("textDocument/hover", {
      textDocument: { uri: opened.uri },
      position: { line: start.line, character: 50 },
    });
    expect(answered?.contents.kind).toBe("plaintext");
    expect(answered?.contents.value.split("\n")[0]).toBe("Turnlens · writer · turn 1 answered");
    expect(answered?.contents.value).not.toMatch(/[`>*]|---/);
  },
  SLOW,
);
