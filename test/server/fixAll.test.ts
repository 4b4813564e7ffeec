// Fixing a whole file: removing every entry never reached (lists and whole scripts) as one edit,
// and `source.fixAll.turnlens` applying each diagnostic's preferred fix.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { CodeAction, Range } from "vscode-languageserver-protocol";
import { MISTAKES, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.started();
});
afterAll(() => server.dispose());

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

function apply(text: string, action: CodeAction | undefined, uri: string): string {
  const edits = action?.edit?.changes?.[uri] ?? [];
  return TextDocument.applyEdits(TextDocument.create(uri, "typescript", 1, text), edits);
}

describe("fixing a whole file", () => {
  test("one quick fix removes every entry never reached, emptying no list and dropping scripts never asked", async () => {
    const text = UNREACHED.replace("    agnets: {},\n", "");
    const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-unreached.test.ts"), text);
    expect(diagnostics.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line])).toEqual([
      ["entry-never-reached", 6],
      ["entry-never-reached", 6],
      ["entry-never-reached", 15],
      ["list-never-asked", 17],
    ]);
    const actions = await server.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri }, range: diagnostics.diagnostics[0]!.range, context: { diagnostics: [] } });
    expect(actions.map((action) => action.title)).toEqual(["Remove this entry never reached", "Remove every entry never reached in this file", "Fix all Turnlens problems in this file"]);
    const fixed = apply(text, actions[1], uri);
    expect(fixed).toBe(
      text
        .replace(', answer(NOTE, { title: "Release 1.3" }), answer(NOTE, { title: "Release 1.4" })', "")
        .replace('\n        answer(NOTE, { title: "Release 2.2" }),', "")
        .replace(',\n      reader: [answer(NOTE, { title: "never" })]', ""),
    );
    await server.close(uri);
  }, SLOW);

  test("fix-all renames the misspelled option and removes the unreached entries in one edit", async () => {
    const { uri } = await server.openAndRun(join(MISTAKES, "virtual-fixall.test.ts"), UNREACHED);
    const [action, ...more] = await server.request<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri },
      range: WHOLE,
      context: { diagnostics: [], only: ["source.fixAll"] },
    });
    expect(more).toEqual([]);
    expect(action?.kind).toBe("source.fixAll.turnlens");
    // The misspelled option refuses the whole second call, so its entries were never judged.
    expect(apply(UNREACHED, action, uri)).toBe(UNREACHED.replace(', answer(NOTE, { title: "Release 1.3" }), answer(NOTE, { title: "Release 1.4" })', "").replace("agnets: {}", "agents: {}"));
    await server.close(uri);
  }, SLOW);
});
