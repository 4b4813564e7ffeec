// One view of what each script met, read by the inlay hints and the hovers alike: on a line where
// an agent's entries and a compactions entry stand together, the hint reads the turns first, then
// the compaction, and each entry's hover shows only what that entry met.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Hover, InlayHint, Position } from "vscode-languageserver-protocol";
import { rangeOf, ROOT, SLOW, TestServer } from "./harness.ts";

const FIXTURES = join(ROOT, "test", "server", "fixtures");

const TEXT = `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { compacting } from "./operations";

test("the writer compacts once, scripted on one line", async () => {
  const run = await testWorkflow(compacting, { compactions: { writer: answer("Outline.") }, agents: { writer: [answer("Draft."), answer("Final note.")] } });
  expect(run.value).toEqual({ summary: "Outline.", note: "Final note." });
});
`;

let server: TestServer;
let uri: string;
beforeAll(async () => {
  server = await TestServer.started();
  const opened = await server.openAndRun(join(FIXTURES, "virtual-one-line.test.ts"), TEXT);
  expect(opened.diagnostics.diagnostics).toEqual([]);
  uri = opened.uri;
}, SLOW);
afterAll(() => server.dispose());

async function hoverAt(position: Position): Promise<string | undefined> {
  const found = await server.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position });
  return found ? (found.contents as { value: string }).value.split("\n\n")[0] : undefined;
}

test("a line with an agent's entries and a compactions entry reads the turns first, then the compaction", async () => {
  const hints = await server.request<InlayHint[]>("textDocument/inlayHint", {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } },
  });
  const line = rangeOf(TEXT, "testWorkflow(compacting").start.line;
  expect(hints.map((hint) => [hint.position.line, hint.label])).toEqual([[line, 'writer #1–2 ×2 ✓ · writer compaction #1 ✓ "Outline."']]);
}, SLOW);

test("each entry on that line hovers with only what it met", async () => {
  const inside = (needle: string) => {
    const { start } = rangeOf(TEXT, needle);
    return { line: start.line, character: start.character + 2 };
  };
  expect(await hoverAt(inside('answer("Outline.")'))).toBe("Turnlens · 1 compaction");
  expect(await hoverAt(inside('answer("Draft.")'))).toBe("Turnlens · met 1 turn");
  expect(await hoverAt(inside('answer("Final note.")'))).toBe("Turnlens · met 1 turn");
}, SLOW);
