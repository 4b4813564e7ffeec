// Turnlens's temporary files live in a folder of this user's own, `$TMPDIR/turnlens-<uid>`
// (privateFolder.ts: made 0700, its owner and mode checked before each use), in one subfolder per
// process named for who it is (processIdentity.ts): its bundles, the served modules' shims and
// testWorkflow's run folders. A process's subfolder goes when it ends: at its own exit, when the
// pool killed it or saw it end, else at the next worker's start, which removes the subfolders of
// processes provably dead (same boot and PID namespace; pid gone, or reused).
import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { identityName, ownIdentity, parseIdentityName, provablyDead, sameNamespace, type ProcessIdentity } from "./processIdentity.ts";
import { makePrivateFolder, privateFolderProblem } from "./privateFolder.ts";

/** Turnlens's temporary folder is not this user's own: nothing is written to or run from it. */
export class TempFolderError extends Error {
  constructor(folder: string, problem: string) {
    super(
      `Turnlens's temporary folder ${folder} is not private to you: ${problem}. Another user may have made it to have you run their code, so Turnlens does not use it. Remove it (as its owner or root), or set TMPDIR to a folder of your own.`,
    );
    this.name = "TempFolderError";
    // What is wrong is said in full; a stack would only hide it.
    this.stack = `${this.name}: ${this.message}`;
  }
}

// Read once per process: tmpdir() reads the environment at each call.
let root: string | undefined;
/** `$TMPDIR/turnlens-<uid>` (`turnlens` where there are no uids: Windows's temp dir is the user's own). */
export function tempRootPath(): string {
  if (root) return root;
  const uid = process.getuid?.();
  return (root = join(tmpdir(), uid === undefined ? "turnlens" : `turnlens-${uid}`));
}

/** This process's subfolder, by name only (nothing is made or checked). */
export function processTempFolderPath(): string {
  return join(tempRootPath(), identityName(ownIdentity()));
}

let ownMade = false;
/**
 * This process's subfolder, made the first time; the user's folder is checked at every call (throws
 * a TempFolderError when it is not private to the user), so nothing is written where another could.
 */
export function processTempFolder(): string {
  const folder = tempRootPath();
  const problem = ownMade ? privateFolderProblem(folder) : makePrivateFolder(folder);
  if (problem) throw new TempFolderError(folder, problem);
  const own = processTempFolderPath();
  if (!ownMade) {
    // Made by this process alone: no other process has its identity.
    const ownProblem = makePrivateFolder(own);
    if (ownProblem) throw new TempFolderError(own, ownProblem);
    ownMade = true;
    // A clean exit leaves nothing; a killed process's folder is removed by its pool or the next worker.
    process.once("exit", removeOwnTempFiles);
  }
  return own;
}

/** Checks, once, that Turnlens's temporary folder can be used; throws a TempFolderError when it cannot. */
export function checkTempFolder(): void {
  const folder = tempRootPath();
  const problem = makePrivateFolder(folder);
  if (problem) throw new TempFolderError(folder, problem);
}

/** Removes this process's subfolder (at its exit). */
export function removeOwnTempFiles(): void {
  if (!ownMade) return;
  ownMade = false;
  rmSync(processTempFolderPath(), { recursive: true, force: true });
}

/** Removes the subfolders `gone` picks; returns how many. Nothing when the user's folder is not private. */
function removeWhere(gone: (identity: ProcessIdentity) => boolean): number {
  const folder = tempRootPath();
  if (privateFolderProblem(folder)) return 0;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const identity = parseIdentityName(name);
    if (!identity || !gone(identity)) continue;
    rmSync(join(folder, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** A child worker ended (its exit seen): its subfolder goes, unless its pid is already another live process's. */
export function removeTempFilesOf(pid: number): number {
  return removeWhere((identity) => identity.pid === pid && provablyDead(identity));
}

/**
 * A child this process has just sent SIGKILL (it runs no more code, though it may not have been
 * reaped yet): every subfolder of that pid in this namespace is its, or an earlier dead process's.
 */
export function removeTempFilesOfKilled(pid: number): number {
  return removeWhere((identity) => identity.pid === pid && sameNamespace(identity) && identity.pid !== process.pid);
}

/** At a worker's start: the subfolders of processes provably dead go. */
export function removeStaleTempFiles(): number {
  return removeWhere(provablyDead);
}
