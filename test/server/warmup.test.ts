// The language server's early worker: its warm-up file goes with the fork, so the worker warms up
// while the server's own process is still busy loading (dist/server.js loads its 11 MB bundle in
// one synchronous step), and the first document's run then takes that same warm worker.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkerPool } from "../../core/runner/pool.ts";
import { warmupJob } from "../../server/warmup.ts";
import { mistake, SLOW } from "./harness.ts";

/** Blocks this thread (no event loop turn, no CPU burnt) until `done()` or `capMs` have passed. */
function blockUntil(done: () => boolean, capMs: number): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const until = performance.now() + capMs;
  while (!done() && performance.now() < until) Atomics.wait(cell, 0, 0, 10);
}

describe("the early worker", () => {
  test(
    "a prewarmed worker runs its warm-up while the process that forked it is blocked, and the first real file then runs in that worker",
    async () => {
      const folder = mkdtempSync(join(tmpdir(), "turnlens-warmup-"));
      const marker = join(folder, "warmed");
      const pool = new WorkerPool({ size: () => 2, log: () => {} });
      try {
        const job = warmupJob(folder);
        pool.prewarm(1, { ...job, source: `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "");\n${job.source}` });
        // No event loop turn here: the worker's "ready" cannot be read, so only a warm-up sent
        // with the fork can run. The cap only ends a failing wait (a blocked test has no timeout).
        blockUntil(() => existsSync(marker), 60_000);
        expect(existsSync(marker)).toBe(true);
        const workers = pool.pids;
        expect(workers).toHaveLength(1);
        const { path } = mistake("turn-past-list");
        const result = await pool.run({ file: path, timeoutMs: 5000 });
        expect(result?.report.tests.map((report) => [report.name, report.status])).toEqual([["a turn past the list's end", "failed"]]);
        expect(pool.pids).toEqual(workers);
      } finally {
        pool.stop();
        rmSync(folder, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
