// The files a fresh worker runs before any document needs it (the language server's early pool,
// earlyPool.ts, sends them to the worker dist/server.js forked first), so the first document's run
// finds the engine loaded; and what that pool hands to the server.
import type { HeldLines } from "./workerLog.ts";
import { join } from "node:path";
import type { FileJob, WorkerPool } from "../core/execution/pool.ts";
import { WARMUP_TIMEOUT_MS } from "./limits.ts";

/**
 * What a worker started early is sent with its fork: a file that only imports what a test file
 * does, so esbuild's service starts and the served engine and TypeBox load, the cold part every
 * first file pays anyway. No test: a document that arrives before the worker is ready (the usual
 * case on a loaded machine) waits for this, and a test run would be that much more to wait for.
 */
export function preloadJob(folder: string): FileJob {
  const source = [
    'import { expect, test } from "bun:test";',
    'import { answer, testWorkflow } from "agentswf/testing";',
    'import { defineWorkflow } from "agentswf/workflow";',
    'import Type from "typebox";',
    "void [expect, test, answer, testWorkflow, defineWorkflow, Type];",
    "",
  ].join("\n");
  return { file: join(folder, "turnlens-preload.test.ts"), source, timeoutMs: WARMUP_TIMEOUT_MS };
}

/**
 * The file a worker started early runs once it is idle, if no document came first: it warms the
 * JIT on one scripted turn, so the first document's tests run at a warm worker's speed. Never on disk.
 */
export function warmupJob(folder: string): FileJob {
  const source = [
    'import { expect, test } from "bun:test";',
    'import { answer, testWorkflow } from "agentswf/testing";',
    'import { defineWorkflow } from "agentswf/workflow";',
    'import Type from "typebox";',
    "const TITLE = Type.Object({ title: Type.String() });",
    'const warm = defineWorkflow({ name: "warm-up", description: "Warms a worker.", async run(wf) {',
    '  const writer = await wf.agents.open({ key: "writer", runtime: "claude" });',
    '  const { outcome } = await writer.run({ prompt: "Title it.", schema: TITLE });',
    '  return outcome.kind === "answered" ? outcome.value.title : "";',
    "} });",
    'test("warm-up", async () => {',
    '  const run = await testWorkflow(warm, { agents: { writer: answer(TITLE, { title: "warm" }) } });',
    '  expect(run.value).toBe("warm");',
    "});",
    "",
  ].join("\n");
  return { file: join(folder, "turnlens-warm-up.test.ts"), source, timeoutMs: WARMUP_TIMEOUT_MS };
}

/** The pool server/earlyPool.ts made, and how the server, once loaded, sizes it and hears its log. */
export interface EarlyWorkers {
  pool: WorkerPool;
  size: () => number;
  log: (message: string) => void;
  /** Its workers' start and end lines, held until the server's log takes them (at initialize). */
  workerLines?: HeldLines;
}
