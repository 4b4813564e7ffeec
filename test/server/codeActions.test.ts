// Code actions over a whole file: removing every entry never reached (lists and whole scripts) as one edit,
// and `source.fixAll.turnlens` applying each diagnostic's preferred fix.
import { describe, expect } from "bun:test";
import { join } from "node:path";
import type { CodeAction, Range } from "vscode-languageserver-protocol";
import { checkActionResult, rewritten } from "./check/checkActions.ts";
import { fixtureTests, serverForFile } from "./check/fixtureTests.ts";
import { MISTAKES } from "./harness.ts";

const server = serverForFile();

const WHOLE: Range = { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } };

const UNREACHED = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("one", async () => {
  await testWorkflow(note, {
    agents: { writer: [answer(NOTE, { title: "Release 1.2" }), answer(NOTE, { title: "Release 1.3" }), answer(NOTE, { title: "Release 1.4" })] },
  });
});

test("two", async () => {
  await testWorkflow(note, {
    agnets: {},
    agents: {
      writer: [
        answer(NOTE, { title: "Release 2.1" }),
        answer(NOTE, { title: "Release 2.2" }),
      ],
      reader: [answer(NOTE, { title: "never" })],
    },
  });
});
`;

describe("fixing a whole file", () => {
  fixtureTests(server, [
    {
      name: "one quick fix removes every entry never reached, emptying no list and dropping scripts never asked",
      path: join(MISTAKES, "virtual-unreached.test.ts"),
      checks: ["diagnostics", "actions"],
      fixes: [
        [
          "Remove every entry never reached in this file",
          [', answer(NOTE, { title: "Release 1.3" }), answer(NOTE, { title: "Release 1.4" })', ""],
          ['\n        answer(NOTE, { title: "Release 2.2" }),', ""],
          [',\n      reader: [answer(NOTE, { title: "never" })]', ""],
        ],
      ],
      fixture: `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("one", async () => {
  await testWorkflow(note, {
    agents: { writer: [answer(NOTE, { title: "Release 1.2" }), answer(NOTE, { title: "Release 1.3" }), answer(NOTE, { title: "Release 1.4" })] },
//                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[entry-never-reached, unnecessary]: agent "writer" was asked 1 turn; its script has 3: this entry is never reached
//                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action[preferred]: Remove this entry never reached
//                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Remove every entry never reached in this file
//                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Fix all Turnlens problems in this file
//                                                                                                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[entry-never-reached, unnecessary]: agent "writer" was asked 1 turn; its script has 3: this entry is never reached
  });
});

test("two", async () => {
  await testWorkflow(note, {
    agents: {
      writer: [
        answer(NOTE, { title: "Release 2.1" }),
        answer(NOTE, { title: "Release 2.2" }),
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[entry-never-reached, unnecessary]: agent "writer" was asked 1 turn; its script has 2: this entry is never reached
      ],
      reader: [answer(NOTE, { title: "never" })],
//    ^^^^^^ warning[list-never-asked, unnecessary]: agent "reader" was never asked; its script has 1 turn
    },
  });
});
`,
    },
    {
      name: "fix-all renames the misspelled option and removes the unreached entries in one edit",
      path: join(MISTAKES, "virtual-fixall.test.ts"),
      checks: [],
      fixture: UNREACHED,
      also: async (opened) => {
        const [action, ...more] = await opened.server.request<CodeAction[]>("textDocument/codeAction", {
          textDocument: { uri: opened.uri },
          range: WHOLE,
          context: { diagnostics: [], only: ["source.fixAll"] },
        });
        expect(more).toEqual([]);
        expect(action?.kind).toBe("source.fixAll.turnlens");
        // The misspelled option refuses the whole second call, so its entries were never judged.
        await checkActionResult(
          opened,
          "Fix all Turnlens problems",
          rewritten(UNREACHED, [', answer(NOTE, { title: "Release 1.3" }), answer(NOTE, { title: "Release 1.4" })', ""], ["agnets: {}", "agents: {}"]),
          { only: ["source.fixAll"] },
        );
      },
    },
  ]);
});
