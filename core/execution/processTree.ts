// Finding and killing every process a run started, even those that left its process group or were
// re-parented: each carries, in the environment it inherits, the tags of the owners above it
// (`owner-<pid>` for the CLI or server, `worker-<pid>` for a worker, `file-…` for one file's run).
// Linux reads them from /proc/<pid>/environ; elsewhere only the process group is killed.
import * as fs from "node:fs";
import { removeTempFilesOfKilled } from "../tempFolder/tempFiles.ts";
import { onProcessStart } from "./processStarts.ts";
import { processSlot } from "./processSlot.ts";

/** The variable holding the tags, colon separated; children inherit it. */
export const TREE_VARIABLE = "TURNLENS_TREES";

/** `env`'s tags with `tag` added. */
export function withTag(tags: string | undefined, tag: string): string {
  return tags ? `${tags}:${tag}` : tag;
}

/** Adds `tag` to this process's environment, so every process it starts from now on carries it. */
export function tagDescendants(tag: string): void {
  process.env[TREE_VARIABLE] = withTag(process.env[TREE_VARIABLE], tag);
}

/** Takes `tag` off this process's environment again. */
export function untagDescendants(tag: string): void {
  const kept = (process.env[TREE_VARIABLE] ?? "").split(":").filter((entry) => entry !== "" && entry !== tag);
  if (kept.length > 0) process.env[TREE_VARIABLE] = kept.join(":");
  else delete process.env[TREE_VARIABLE];
}

/**
 * The pids of every process whose environment carries `tag`, but `spare` and this process; with
 * `kill`, each is sent SIGKILL first. Self-contained (only its parameters and globals): the parent
 * watch runs its source in a thread of its own.
 */
export function scanTagged(fsModule: typeof fs, tag: string, spare: number, kill: boolean): number[] {
  const found: number[] = [];
  let names: string[];
  try {
    names = fsModule.readdirSync("/proc");
  } catch {
    return found;
  }
  const variable = "TURNLENS_TREES=";
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === spare || pid === process.pid) continue;
    let line: string | undefined;
    try {
      line = fsModule
        .readFileSync(`/proc/${name}/environ`, "latin1")
        .split("\0")
        .find((entry) => entry.startsWith(variable));
    } catch {
      continue; // gone, or another user's
    }
    if (!line?.slice(variable.length).split(":").includes(tag)) continue;
    found.push(pid);
    if (kill) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
  }
  return found;
}

/** Kills every process carrying `tag` (but `spare`); returns their pids. */
export function killTagged(tag: string, spare = -1): number[] {
  return scanTagged(fs, tag, spare, true);
}

/** The pids of the processes carrying `tag`, for checks and benchmarks. */
export function taggedPids(tag: string): number[] {
  return scanTagged(fs, tag, -1, false);
}

/** SIGKILL to the process group led by `pid` (a worker is forked as one), then to `pid` itself. */
export function killGroup(pid: number): void {
  if (process.platform !== "win32") {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // no such group any more
    }
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone already
  }
}

/** Kills a worker and everything it started: its process group, then whatever carries its tag. */
export function killWorkerTree(pid: number): void {
  killGroup(pid);
  killTagged(workerTag(pid));
}

export function workerTag(pid: number): string {
  return `worker-${pid}`;
}

export function ownerTag(pid: number = process.pid): string {
  return `owner-${pid}`;
}

interface Ownership {
  /** The processes the owner started that have not been seen to end having started nothing. */
  unaccounted: Set<number>;
  /** Whether it started a process it could not follow (a synchronous one, a native addon's). */
  untracked: boolean;
}
/**
 * One per process, not per copy of this module: the language server's bundles each have a copy
 * (dist/server.js owns the tree before its fork; the pool that sees a worker end clean is in
 * another). Made by ownProcessTree only, so no global is added to a process that owns nothing (a worker).
 */
const ownership = processSlot<Ownership>("processOwnership");

/**
 * A process the owner started ended, and provably left nothing that carries its tag (a worker that
 * said, as it exited when asked, that nothing started a process in it: pool.ts).
 */
export function endedClean(pid: number): void {
  ownership.get()?.unaccounted.delete(pid);
}

/**
 * Makes this process (the CLI or the language server) the owner of every process it starts from
 * now on: they carry its tag, and whenever it exits (an `exit` notification, stdin closing, an
 * uncaught error that ends it, a signal handled by `endOnSignals`) every one of them is killed.
 * /proc is searched for them at the exit unless every process it started ended clean (endedClean):
 * only its own descendants carry its tag, and each of those came through one it started.
 */
export function ownProcessTree(): void {
  if (ownership.get()) return;
  const owner: Ownership = { unaccounted: new Set<number>(), untracked: false };
  ownership.set(owner);
  tagDescendants(ownerTag());
  onProcessStart((pid) => {
    if (pid === undefined) owner.untracked = true;
    else owner.unaccounted.add(pid);
  });
  // Their temporary files too: a killed worker cannot remove its own (tempFiles.ts).
  process.on("exit", () => {
    if (owner.unaccounted.size === 0 && !owner.untracked) return;
    for (const pid of killTagged(ownerTag())) removeTempFilesOfKilled(pid);
  });
}

/** SIGTERM, SIGINT and SIGHUP kill the tree and end the process with 128 + the signal's number. */
export function endOnSignals(signals: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"]): void {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
  for (const signal of signals) {
    process.on(signal, () => {
      killTagged(ownerTag());
      process.exit(128 + (numbers[signal] ?? 0));
    });
  }
}
