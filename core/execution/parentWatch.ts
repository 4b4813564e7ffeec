// A worker notices its parent's death at once, even while a test spins in a synchronous loop: a
// thread of its own polls the parent's pid and, when the parent is gone, kills everything the
// worker started (its tagged descendants, its process group) and the worker itself.
import { Worker } from "node:worker_threads";
import { scanTagged } from "./processTree.ts";

/** How often the thread looks at the parent. */
export const PARENT_POLL_MS = 100;

export function watchParent(parent: number, tag: string): void {
  const source = `
    const { workerData } = require("node:worker_threads");
    const fs = require("node:fs");
    const scanTagged = (${scanTagged.toString()});
    const { parent, self, tag, pollMs } = workerData;
    const parentAlive = () => {
      if (process.ppid !== parent) return false;
      try { process.kill(parent, 0); return true; } catch (error) { return error.code === "EPERM"; }
    };
    setInterval(() => {
      if (parentAlive()) return;
      scanTagged(fs, tag, self, true);
      try { process.kill(-self, "SIGKILL"); } catch {}
      process.kill(self, "SIGKILL");
    }, pollMs);
  `;
  const thread = new Worker(source, { eval: true, workerData: { parent, self: process.pid, tag, pollMs: PARENT_POLL_MS }, stdout: true, stderr: true });
  thread.unref();
}
