// Temporary files (bundles, testWorkflow's run folders) never stay in the OS temp dir: a killed
// worker's are removed by the pool at once, and those of processes killed with their pool are
// removed by the next worker that starts.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleCacheDir } from "../../core/runner/tempFiles.ts";
import { fixture, SLOW, turnlens } from "./harness.ts";

function workerPids(stdout: string): number[] {
  return [...stdout.matchAll(/^worker (\d+)$/gm)].map((match) => Number(match[1]));
}

/** The temporary entries made by process `pid`. */
function leftBy(pid: number): string[] {
  const bundles = readdirSync(bundleCacheDir()).filter((name) => name.includes(`.bundle.${pid}.`));
  const runs = readdirSync(tmpdir()).filter((name) => name.startsWith(`turnlens-run-${pid}-`));
  return [...bundles, ...runs];
}

/** A pid no process has now. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) if (!existsSync(`/proc/${pid}`)) return pid;
}

describe("temporary files are always removed", () => {
  test(
    "a worker killed while loading a file or inside a run leaves no bundle and no run folder",
    async () => {
      const result = await turnlens([fixture("tempFiles"), "--timeout", "300ms"]);
      expect(result.code).toBe(1);
      const pids = workerPids(result.stdout);
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(leftBy(pid)).toEqual([]);
    },
    SLOW,
  );

  test(
    "what a process killed with its pool left is removed when the next worker starts",
    async () => {
      const pid = deadPid();
      const bundle = join(bundleCacheDir(), `gone.test.ts.bundle.${pid}.1.mjs`);
      const folder = join(tmpdir(), `turnlens-run-${pid}-abcdef`);
      writeFileSync(bundle, "export {};\n");
      mkdirSync(join(folder, "inside"), { recursive: true });
      expect(leftBy(pid)).toHaveLength(2);
      const result = await turnlens([fixture("pass")]);
      expect(result.code).toBe(0);
      expect(leftBy(pid)).toEqual([]);
    },
    SLOW,
  );
});
