// What a test file's code did with the file system while it ran: the paths it read (files, folders,
// whether one exists), and whether it changed anything outside the runner's own folders. `--cache`
// keys a file's result on what it read, and never stores one that wrote elsewhere (docs/ci.md).
import { constants } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { shapedLike } from "./shapedLike.ts";

/** What a function of `fs` (or `fs.promises`) does with its path arguments. */
export type Access =
  /** Reads its first argument. */
  | "read"
  /** Reads its first argument and writes its second (a copy). */
  | "copy"
  /** Reads its first argument, or writes it, as its flags (the second argument) say. */
  | "open"
  /** Works on a descriptor a tracked `open` gave, or on nothing: nothing to record. */
  | "none"
  /** Changes its first argument. */
  | "write"
  /** Changes both its arguments (a rename, a hard link). */
  | "writeBoth"
  /** Changes its second argument only (a symbolic link: the first is its text). */
  | "writeSecond";

/**
 * Each function of `fs` and `fs.promises` by what it does, one table for both. A function not in it
 * counts as a write (new ones in a later Node are never taken for reads), and so does `statfs`: a
 * disk's free space is no file's bytes.
 */
export const FILE_SYSTEM_ACCESS: Readonly<Record<string, Access>> = {
  access: "read",
  exists: "read",
  lstat: "read",
  opendir: "read",
  openAsBlob: "read",
  readdir: "read",
  readFile: "read",
  readlink: "read",
  realpath: "read",
  stat: "read",
  watch: "read",
  watchFile: "read",
  unwatchFile: "none",
  createReadStream: "read",
  copyFile: "copy",
  cp: "copy",
  open: "open",
  close: "none",
  fdatasync: "none",
  fstat: "none",
  fsync: "none",
  read: "none",
  readv: "none",
  write: "none",
  writev: "none",
  _toUnixTimestamp: "none",
  rename: "writeBoth",
  link: "writeBoth",
  symlink: "writeSecond",
};

/** The access of the `fs` function `name` (its `Sync` twin's is its own). */
export function accessOf(name: string): Access {
  return FILE_SYSTEM_ACCESS[name.endsWith("Sync") ? name.slice(0, -"Sync".length) : name] ?? "write";
}

/** What a file's code read, and the first path it changed outside the runner's folders. */
export interface FileSystemReach {
  /** Absolute paths read (files, folders, paths only checked for), in the order first read. */
  reads: string[];
  /** A path written outside the runner's folders: the result may depend on more than its inputs. */
  wroteOutside?: string;
}

interface Recording {
  reads: Set<string>;
  wroteOutside?: string;
  /** Paths whose use is the runner's own, not the file's: the worker's temporary folder, the file's snapshot file. */
  own: readonly string[];
}

let recording: Recording | null = null;
let installed = false;

/** A path argument as an absolute path; undefined for a descriptor or anything else. */
function pathOf(argument: unknown): string | undefined {
  if (typeof argument === "string") return resolve(argument);
  if (argument instanceof URL) return argument.protocol === "file:" ? fileURLToPath(argument) : undefined;
  if (Buffer.isBuffer(argument)) return resolve(argument.toString("utf8"));
  return undefined;
}

/** Whether `path` is one of `own`: a path ending in a separator is a folder and all under it, another that path alone. */
const isOwn = (path: string, own: readonly string[]) => own.some((mine) => (mine.endsWith(sep) ? path.startsWith(mine) || path === mine.slice(0, -1) : path === mine));

/** Whether `open`'s flags only read: absent, `r`, `rs`, `sr`, or a number opening read-only that creates, truncates and appends nothing. */
export function readsOnly(flags: unknown): boolean {
  if (flags === undefined || flags === null) return true;
  if (typeof flags === "number") {
    const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = constants;
    return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) === 0;
  }
  return typeof flags === "string" && /^(?:r|rs|sr)$/.test(flags);
}

/** The paths a call of a function with `access` and `args` reads and changes (a descriptor's call: none). */
export function pathsTouched(access: Access, args: readonly unknown[]): { reads: string[]; writes: string[] } {
  const first = pathOf(args[0]);
  const second = () => pathOf(args[1]);
  const only = (path: string | undefined) => (path === undefined ? [] : [path]);
  switch (access) {
    case "none":
      return { reads: [], writes: [] };
    case "read":
      return { reads: only(first), writes: [] };
    case "copy":
      return { reads: only(first), writes: only(second()) };
    case "open":
      return readsOnly(args[1]) ? { reads: only(first), writes: [] } : { reads: [], writes: only(first) };
    case "writeBoth":
      return { reads: [], writes: [...only(first), ...only(second())] };
    case "writeSecond":
      return { reads: [], writes: only(second()) };
    case "write":
      // A descriptor's change is its open's (classified there); a change to no path still counts.
      return { reads: [], writes: typeof args[0] === "number" ? [] : [first ?? "(no path)"] };
    default:
      return access satisfies never;
  }
}

function record(access: Access, args: unknown[]): void {
  const now = recording;
  if (!now || access === "none") return;
  const { reads, writes } = pathsTouched(access, args);
  for (const path of reads) if (!isOwn(path, now.own)) now.reads.add(path);
  for (const path of writes) if (!isOwn(path, now.own)) now.wroteOutside ??= path;
}

/** Replaces each function of `object` (fs or fs.promises) with one that records its access first. */
function wrapAll(object: Record<string, unknown>): void {
  for (const name of Object.keys(object)) {
    const original = object[name];
    // Classes (Stats, ReadStream...) and constants are left alone.
    if (typeof original !== "function" || /^[A-Z]/.test(name)) continue;
    const access = accessOf(name);
    object[name] = shapedLike(
      function (this: unknown, ...args: unknown[]) {
        if (recording) record(access, args);
        return Reflect.apply(original, this, args);
      },
      original as (...args: never[]) => unknown,
    );
  }
}

/** Wraps `fs` and `fs.promises` once, at the worker's start (before the picture of its builtins). */
export function installFileSystemReach(): void {
  if (installed) return;
  installed = true;
  const fs = createRequire(import.meta.url)("node:fs") as Record<string, unknown> & { promises: Record<string, unknown> };
  wrapAll(fs.promises);
  wrapAll(fs);
  // A test's `import { readFile } from "node:fs/promises"` reads the ES module view, synced here.
  syncBuiltinESMExports();
}

/** Starts recording a file's reach; `own` are the paths whose use is the runner's, not the file's (isOwn). */
export function beginFileSystemReach(own: readonly string[]): void {
  recording = { reads: new Set(), own };
}

/** Paths the file's code read by other means than `fs` (a module bundled for its run-time `import()`). */
export function noteReads(paths: readonly string[]): void {
  for (const path of paths) recording?.reads.add(path);
}

/** Stops recording and says what the file read and whether it wrote outside. */
export function endFileSystemReach(): FileSystemReach {
  const ended = recording;
  recording = null;
  if (!ended) return { reads: [] };
  return { reads: [...ended.reads], ...(ended.wroteOutside !== undefined ? { wroteOutside: ended.wroteOutside } : {}) };
}
