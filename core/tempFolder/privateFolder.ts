// A folder of ours in a shared temp dir: made by this user with mode 0700, and before each use
// checked to be a real folder (not a link), owned by this process's uid, with no access for group
// or others; and files written into it exclusively, then renamed into place. Another user who made
// the folder first (its name is predictable) could read, swap or plant what runs: it is never used.
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";

/** Why `path` is not a private folder of this user's ("it …"; it may not exist); undefined when it is one. */
export function privateFolderProblem(path: string): string | undefined {
  const uid = process.getuid?.();
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch (error) {
    return `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  if (stat.isSymbolicLink()) return "it is a symbolic link, not a folder Turnlens made";
  if (!stat.isDirectory()) return "it is not a folder";
  // Windows has no uid: its temp dir is the user's own already.
  if (uid === undefined) return undefined;
  if (stat.uid !== uid) return `it belongs to uid ${stat.uid}, not to you (uid ${uid})`;
  if ((stat.mode & 0o077) !== 0) return `its mode is ${(stat.mode & 0o777).toString(8)}, open to other users, not 700`;
  return undefined;
}

/**
 * Makes `path` (its parent must exist) as a private folder of this user's, or finds the one made
 * before; answers why it cannot be used otherwise (someone else made it, or opened it up).
 */
export function makePrivateFolder(path: string): string | undefined {
  try {
    // Not recursive: an existing folder (anyone's) is never taken as made here; it is checked below.
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return `it cannot be made (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  return privateFolderProblem(path);
}

/** A name beside `path` no one else can have taken: the file is first written there, then renamed. */
function temporaryBeside(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
}

/**
 * Writes `data` to `path` whole or not at all: into a new file beside it (flag "wx": never through a
 * file or link already there), mode 0600, then renamed over `path`.
 */
export function writeExclusivelySync(path: string, data: string | NodeJS.ArrayBufferView): void {
  const temporary = temporaryBeside(path);
  try {
    writeFileSync(temporary, data, { flag: "wx", mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** writeExclusivelySync, without blocking. */
export async function writeExclusively(path: string, data: string): Promise<void> {
  const temporary = temporaryBeside(path);
  try {
    await writeFile(temporary, data, { flag: "wx", mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
