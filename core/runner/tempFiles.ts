// Temporary files a worker leaves in the OS temp dir are always removed: each name carries the pid
// of the process that made it (a file's bundle `<name>.bundle.<pid>.<n>.mjs` in bundleCacheDir(),
// a run's folder `turnlens-run-<pid>-*` from testWorkflow), so the pool removes a worker's when it
// dies, however it died, and each new worker removes those of processes no longer alive.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { turnlensRoot } from "./paths.ts";

let cacheDir: string | undefined;
/** Where bundles are written before import: a folder in the OS temp dir, one per Turnlens copy. */
export function bundleCacheDir(): string {
  if (!cacheDir) {
    const hash = createHash("sha1").update(turnlensRoot()).digest("hex").slice(0, 10);
    cacheDir = join(tmpdir(), `turnlens-${hash}`);
    mkdirSync(cacheDir, { recursive: true });
  }
  return cacheDir;
}

const BUNDLE = /\.bundle\.(\d+)\.\d+\.mjs$/;
const RUN_FOLDER = /^turnlens-run-(\d+)-/;

function entries(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the temporary files of the processes `owned` says are gone; returns how many. */
function removeWhere(owned: (pid: number) => boolean): number {
  let removed = 0;
  const bundles = bundleCacheDir();
  for (const name of entries(bundles)) {
    const pid = BUNDLE.exec(name)?.[1];
    if (pid && owned(Number(pid))) {
      rmSync(join(bundles, name), { force: true });
      removed++;
    }
  }
  for (const name of entries(tmpdir())) {
    const pid = RUN_FOLDER.exec(name)?.[1];
    if (pid && owned(Number(pid))) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

/** A worker died: its bundles and run folders go. */
export function removeTempFilesOf(pid: number): number {
  return removeWhere((owner) => owner === pid);
}

/** At a worker's start: whatever processes that are no longer alive left behind goes. */
export function removeStaleTempFiles(): number {
  return removeWhere((owner) => owner !== process.pid && !alive(owner));
}
