// Inlay hints for entries several tests share: one hint per line, counting the turns it met in
// every test, rather than the same label once per test.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { InlayHint } from "vscode-languageserver-protocol";
import { MISTAKES, rangeOf, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.started();
});
afterAll(() => server.dispose());

const TEXT = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

const finish = [answer(STEP, { done: false }), answer(STEP, { done: true })];

test("first run of the shared list", async () => {
  await testWorkflow(loop, { agents: { worker: finish } });
});

test("second run of the shared list", async () => {
  await testWorkflow(loop, { agents: { worker: finish } });
});
`;

test("an entry shared by two tests gets one hint on its line, counting the turns it met in both", async () => {
  const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-shared.test.ts"), TEXT);
  expect(diagnostics.diagnostics).toEqual([]);
  const hints = await server.request<InlayHint[]>("textDocument/inlayHint", {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } },
  });
  const line = rangeOf(TEXT, "const finish").start.line;
  expect(hints.map((hint) => [hint.position.line, hint.label])).toEqual([[line, "worker #1–2 ×4 ✓"]]);
}, SLOW);

const SILENT = `import { test } from "bun:test";
import { noAnswer, testWorkflow } from "agentswf/testing";
import { note } from "./workflows";

test("a silent writer", async () => {
  await testWorkflow(note, { agents: { writer: noAnswer.silent() } });
});
`;

test("a turn and the nudge that followed it read as one call, with the outcome the engine recorded", async () => {
  const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-silent.test.ts"), SILENT);
  expect(diagnostics.diagnostics).toEqual([]);
  const hints = await server.request<InlayHint[]>("textDocument/inlayHint", {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } },
  });
  expect(hints.map((hint) => [hint.position.line, hint.label])).toEqual([
    [rangeOf(SILENT, "noAnswer.silent()").start.line, "writer #1 nudged ✗ unanswered"],
  ]);
}, SLOW);
