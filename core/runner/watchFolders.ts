// What changed on disk, for `turnlens test --watch`: every folder under the roots is watched (folders
// created later too), files that editors save by rename stay watched, and a burst of events settles
// into one batch of absolute paths. Which tests a batch reruns is watchGraph.ts's business.
import { readdirSync, statSync, watch, type Dirent, type FSWatcher } from "node:fs";
import { basename, join, sep } from "node:path";

/** Quiet time after the last event before a batch is handed over (a save is often several events). */
export const SETTLE_MS = 100;
/** The longest a batch waits from its first event, so a stream of writes still reruns. */
export const MAX_SETTLE_MS = 1000;

/** Folders never watched: installed packages, build output, dot-folders (.git, .cache, …). */
export function isIgnoredFolderName(name: string): boolean {
  return name === "node_modules" || name === "dist" || name.startsWith(".");
}

/**
 * Files an editor writes beside the one it saves and removes again, never a test's input: dot-files
 * (`.x.ts.swp`), backups (`x.ts~`), Vim's write probe `4913`, JetBrains' `x.ts___jb_tmp___`.
 */
export function isEditorScratchName(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~") || name === "4913" || /___jb_(tmp|old)___$/.test(name);
}

/** Whether a path relative to a watched root goes through an ignored folder or names scratch. */
function ignoredRelative(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/);
  const name = parts.pop() ?? "";
  return parts.some(isIgnoredFolderName) || isEditorScratchName(name);
}

/**
 * Native recursive watching, where the platform has it (FSEvents, ReadDirectoryChangesW). Node 20's
 * recursive watch on Linux is emulated by watching each file's inode: a file replaced by rename is a
 * new inode the emulation never watches again, so it is not used there; each folder is watched on
 * its own instead, and a folder's watch names any file renamed into it.
 */
const NATIVE_RECURSIVE = process.platform === "darwin" || process.platform === "win32";

export interface FolderWatcherOptions {
  /** Gets each settled batch: the absolute paths created, changed, renamed or deleted, each once. */
  onBatch(paths: string[]): void;
  /** Where a folder that cannot be watched is reported. */
  log?(message: string): void;
  settleMs?: number;
}

export class FolderWatcher {
  /** Watched folder → its watcher (one per root when recursive, one per folder otherwise). */
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly pending = new Set<string>();
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  private firstPendingAt: number | undefined;
  private closed = false;
  private readonly settleMs: number;

  constructor(private readonly options: FolderWatcherOptions) {
    this.settleMs = options.settleMs ?? SETTLE_MS;
  }

  /** Watches `folder` and everything under it, unless it already is. */
  add(folder: string): void {
    if (this.closed || this.covers(folder)) return;
    if (NATIVE_RECURSIVE) this.watchOne(folder, true);
    else this.watchTree(folder, false);
  }

  /** Whether a change in `folder` is seen already. */
  covers(folder: string): boolean {
    if (this.watchers.has(folder)) return true;
    if (!NATIVE_RECURSIVE) return false;
    return [...this.watchers.keys()].some((root) => folder.startsWith(root + sep));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.settleTimer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.pending.clear();
  }

  /** Watches each folder under `top`; with `reportFiles`, its files count as changed (a folder that just appeared). */
  private watchTree(top: string, reportFiles: boolean): void {
    const folders = [top];
    while (folders.length > 0) {
      const folder = folders.pop() ?? top;
      if (this.watchers.has(folder)) continue;
      let entries: Dirent[];
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue; // gone meanwhile
      }
      if (!this.watchOne(folder, false)) continue;
      for (const entry of entries) {
        if (entry.isDirectory() && !isIgnoredFolderName(entry.name)) folders.push(join(folder, entry.name));
        // A file written before this folder's watch began has no event of its own.
        else if (reportFiles && !isEditorScratchName(entry.name)) this.note(join(folder, entry.name));
      }
    }
  }

  private watchOne(folder: string, recursive: boolean): boolean {
    try {
      const watcher = watch(folder, { recursive }, (event, name) => {
        if (name) this.onEvent(folder, name.toString(), event);
      });
      // A watched folder that is deleted ends its watcher; an error here must not end the command.
      watcher.on("error", () => this.unwatch(folder));
      this.watchers.set(folder, watcher);
      return true;
    } catch (error) {
      this.options.log?.(`cannot watch ${folder}: ${(error as Error).message}`);
      return false;
    }
  }

  private unwatch(folder: string): void {
    for (const [watched, watcher] of this.watchers) {
      if (watched === folder || watched.startsWith(folder + sep)) {
        watcher.close();
        this.watchers.delete(watched);
      }
    }
  }

  private onEvent(folder: string, name: string, event: "rename" | "change"): void {
    if (this.closed || ignoredRelative(name)) return;
    const path = join(folder, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    // A folder's own event is no file's change (its files have theirs), but without native recursion
    // a folder created or moved in gets watched, and one replaced (a checkout deleting and creating
    // it again) is a new folder, watched afresh.
    if (stats?.isDirectory()) {
      if (!NATIVE_RECURSIVE && !isIgnoredFolderName(basename(path)) && (event === "rename" || !this.watchers.has(path))) {
        this.unwatch(path);
        this.watchTree(path, true);
      }
      return;
    }
    // The files a deleted folder held went with it: its path stands for them (watchGraph.ts).
    if (!stats && this.watchers.has(path)) this.unwatch(path);
    this.note(path);
  }

  private note(path: string): void {
    this.pending.add(path);
    const now = performance.now();
    this.firstPendingAt ??= now;
    clearTimeout(this.settleTimer);
    const wait = Math.max(0, Math.min(this.settleMs, this.firstPendingAt + MAX_SETTLE_MS - now));
    this.settleTimer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    const paths = [...this.pending];
    this.pending.clear();
    this.firstPendingAt = undefined;
    if (paths.length > 0 && !this.closed) this.options.onBatch(paths);
  }
}
