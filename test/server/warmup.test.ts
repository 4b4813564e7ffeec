// The language server's early worker: its preload file goes with the fork, so the worker loads
// esbuild and the engine while the server's own process is still busy loading (dist/server.js
// loads its 11 MB bundle in one synchronous step); the first document's run then takes that same
// worker, ahead of the idle warm-up.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FileJob, WorkerPool } from "../../core/execution/pool.ts";
import { preloadJob, warmupJob } from "../../server/warmup.ts";
import { mistake, SLOW } from "./harness.ts";

/** Blocks this thread (no event loop turn, no CPU burnt) until `done()` or `capMs` have passed. */
function blockUntil(done: () => boolean, capMs: number): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const until = performance.now() + capMs;
  while (!done() && performance.now() < until) Atomics.wait(cell, 0, 0, 10);
}

/** Resolves once `condition` holds, looking again every 50 ms (the test's own timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("the early worker", () => {
  test(
    "a prewarmed worker runs its preload while the process that forked it is blocked, and a real file waiting then goes before its idle warm-up",
    async () => {
      const folder = mkdtempSync(join(tmpdir(), "turnlens-warmup-"));
      const preloaded = join(folder, "preloaded");
      const warmed = join(folder, "warmed");
      const marked = (job: FileJob, marker: string): FileJob => ({
        ...job,
        source: `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "");\n${job.source}`,
      });
      const pool = new WorkerPool({ size: () => 2, log: () => {} });
      try {
        pool.prewarm(1, { withFork: marked(preloadJob(folder), preloaded), whenIdle: marked(warmupJob(folder), warmed) });
        // No event loop turn here: the worker's "ready" cannot be read, so only a file sent with
        // the fork can run. The cap only ends a failing wait (a blocked test has no timeout).
        blockUntil(() => existsSync(preloaded), 60_000);
        expect(existsSync(preloaded)).toBe(true);
        const workers = pool.pids;
        expect(workers).toHaveLength(1);
        // Queued before this process has read the worker's "ready" or the preload's end.
        const { path } = mistake("turn-past-list");
        const result = await pool.run({ file: path, timeoutMs: 5000 });
        expect(result?.report.tests.map((report) => [report.name, report.status])).toEqual([["a turn past the list's end", "failed"]]);
        expect(pool.pids).toEqual(workers);
        // The idle warm-up was dropped: the real file came first, and the worker is warm now.
        const again = await pool.run({ file: path, timeoutMs: 5000 });
        expect(again?.report.tests.map((report) => report.status)).toEqual(["failed"]);
        expect(existsSync(warmed)).toBe(false);
      } finally {
        pool.stop();
        rmSync(folder, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  test(
    "with no document waiting, a prewarmed worker runs its idle warm-up after its preload",
    async () => {
      const folder = mkdtempSync(join(tmpdir(), "turnlens-warmup-"));
      const warmed = join(folder, "warmed");
      const pool = new WorkerPool({ size: () => 2, log: () => {} });
      try {
        const warmup = warmupJob(folder);
        pool.prewarm(1, {
          withFork: preloadJob(folder),
          whenIdle: { ...warmup, source: `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(warmed)}, "");\n${warmup.source}` },
        });
        await until(() => existsSync(warmed));
        expect(existsSync(warmed)).toBe(true);
        expect(pool.pids).toHaveLength(1);
      } finally {
        pool.stop();
        rmSync(folder, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
