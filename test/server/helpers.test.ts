// Tests that call testWorkflow through a helper: the static pass cannot tie their entries to a
// call, so the run's sites do. Turns and problems land on the entries each test wrote.
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
import { answer, testWorkflow, type Script } from "agentswf/testing";
import { loop, STEP } from "./workflows";

const runLoop = (worker: Script) => testWorkflow(loop, { agents: { worker } });

test("stops at once", async () => {
  await runLoop(answer(STEP, { done: true }));
});

test("needs a second step", async () => {
  await runLoop([answer(STEP, { done: false })]);
});
`;

test("a test calling testWorkflow through a helper gets its turns and problems on the entries it wrote", async () => {
  const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-helper.test.ts"), TEXT);
  expect(diagnostics.diagnostics).toEqual([
    {
      range: rangeOf(TEXT, "answer(STEP, { done: false })"),
      severity: 1,
      source: "turnlens",
      code: "list-exhausted",
      message: 'agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.',
    },
  ]);
  const hints = await server.request<InlayHint[]>("textDocument/inlayHint", { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } } });
  expect(hints.map((hint) => [hint.position.line, hint.label])).toEqual([
    [rangeOf(TEXT, "answer(STEP, { done: true })").start.line, "worker #1 ✓"],
    [rangeOf(TEXT, "answer(STEP, { done: false })").start.line, "worker #1 ✓"],
  ]);
}, SLOW);
