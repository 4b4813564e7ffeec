// What a file leaves running dies when that file ends, not when its worker does: a warm worker
// (the language server keeps them) runs the next file with nothing of the last one alive.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkerPool } from "../../core/execution/pool.ts";
import { fixture, SLOW, until } from "./harness.ts";

function alive(pid: number): boolean {
  // A zombie has no command line: it is dead, only not reaped yet. A process that ends between the
  // look and the read makes the read fail with ESRCH: it is dead too.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1") !== "";
  } catch {
    return false;
  }
}

describe("a warm worker's next file starts with nothing of the last one running", () => {
  test(
    "processes a passed file spawned (detached, re-parented, from a promisified exec) are killed when the file ends, and the worker lives on",
    async () => {
      const pool = new WorkerPool({ size: () => 1, log: () => {} });
      let output = "";
      try {
        const file = fixture("tree/leavesProcessesBetweenFiles.test.ts");
        const first = await pool.run({ file, timeoutMs: 5000 }, undefined, { onOutput: (text) => (output += text) });
        expect(first?.report.tests.map((t) => t.status)).toEqual(["passed"]);
        const pids = (/pids (\d+) (\d+) (\d+)/.exec(output)?.slice(1) ?? []).map(Number);
        expect(pids).toHaveLength(3);
        const workers = pool.pids;
        expect(workers).toHaveLength(1);
        await until(() => pids.every((pid) => !alive(pid)));
        expect(pids.filter(alive)).toEqual([]);
        const second = await pool.run({ file: fixture("pass/one.test.ts"), timeoutMs: 5000 });
        expect(second?.report.tests.every((t) => t.status === "passed")).toBe(true);
        expect(pool.pids).toEqual(workers);
      } finally {
        pool.stop();
      }
    },
    SLOW,
  );

  test(
    "a process a file started through ChildProcess's own spawn (no child_process function) is killed when the file ends",
    async () => {
      const pool = new WorkerPool({ size: () => 1, log: () => {} });
      let output = "";
      try {
        const result = await pool.run({ file: fixture("tree/spawnsThroughItsClass.test.ts"), timeoutMs: 5000 }, undefined, { onOutput: (text) => (output += text) });
        expect(result?.report.tests.map((t) => t.status)).toEqual(["passed"]);
        const pid = Number(/pid (\d+)/.exec(output)?.[1]);
        expect(pid).toBeGreaterThan(0);
        expect(pool.pids).toHaveLength(1);
        await until(() => !alive(pid));
        expect(alive(pid)).toBe(false);
      } finally {
        pool.stop();
      }
    },
    SLOW,
  );
});

describe("a worker that exits when asked searches for what its files started", () => {
  test(
    "a process started outside any file's run (by a child's exit after its file ended) is killed when the worker exits",
    async () => {
      const folder = mkdtempSync(join(tmpdir(), "turnlens-stray-"));
      const pidFile = join(folder, "pid");
      process.env.STRAY_PID_FILE = pidFile;
      const pool = new WorkerPool({ size: () => 1, log: () => {} });
      try {
        const result = await pool.run({ file: fixture("tree/spawnsAfterItsEnd.test.ts"), timeoutMs: 5000 });
        expect(result?.report.tests.map((t) => t.status)).toEqual(["passed"]);
        await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "");
        const pid = Number(readFileSync(pidFile, "utf8"));
        expect(alive(pid)).toBe(true);
        await pool.close();
        await until(() => !alive(pid));
        expect(alive(pid)).toBe(false);
      } finally {
        delete process.env.STRAY_PID_FILE;
        pool.stop();
        rmSync(folder, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
