// Bundles one bench entry (a .ts file) with esbuild into a temporary folder and runs it in a fresh
// node process, so a bench needs no dist/ and measures a process of its own. Shared by the benches.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

export const root = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Bundles `entry` (relative to the repo) with `options` added, runs it with `nodeArgs` and `args`;
 * returns the exit code. With `onStdout`, the child's stdout is handed to it once the child ends
 * (instead of going straight to this process's).
 */
export async function bundleAndRun(entry, { options = {}, nodeArgs = [], args = [], onStdout } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), "turnlens-bench-"));
  const outfile = join(scratch, basename(entry).replace(/\.ts$/, ".mjs"));
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile,
      logLevel: "warning",
      ...options,
    });
    const stdio = onStdout ? ["inherit", "pipe", "inherit"] : "inherit";
    const child = spawnSync(process.execPath, ["--no-warnings", ...nodeArgs, outfile, ...args], { cwd: root, stdio, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (child.error) throw child.error;
    if (onStdout) onStdout(child.stdout);
    return child.status ?? 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
