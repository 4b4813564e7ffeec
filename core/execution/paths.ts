// Where Turnlens itself is installed, and which of its files are served to test files.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cachedRoot: string | undefined;

/** The folder holding Turnlens's package.json (the parent of `dist/` and `core/`). */
export function turnlensRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, "utf8")).name === "turnlens") return (cachedRoot = dir);
      } catch {
        // not ours; keep looking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Fallback: dist/ or core/runner/ layouts.
  const here = dirname(fileURLToPath(import.meta.url));
  cachedRoot = here.endsWith(join("core", "runner")) ? dirname(dirname(here)) : dirname(here);
  return cachedRoot;
}

/** The worker entry the CLI forks. */
export function workerEntry(): string {
  return join(turnlensRoot(), "dist", "worker.mjs");
}

/** A test file's snapshot file, as Vitest places it: `__snapshots__/<file>.snap` beside it. */
export function snapshotFileOf(testFile: string): string {
  return join(dirname(testFile), "__snapshots__", `${basename(testFile)}.snap`);
}
