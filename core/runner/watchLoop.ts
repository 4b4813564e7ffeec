// How `turnlens test --watch` ends a rerun loop: a test that writes a file it imports (a fixture
// it regenerates) changes that file during every run, which would rerun it for ever. A change
// written while a run was going on, run after run, is the run's own; past a few such reruns its
// writes during runs of those test files stop rerunning, and the command says which file and test.
import { statSync } from "node:fs";

/** Reruns in a row caused only by files the run before wrote, before the loop is stopped. */
export const MAX_SELF_TRIGGERED_RERUNS = 3;

/**
 * How much earlier than the run's start a file's mtime may read: a file system's clock is coarser
 * than Date.now() (a kernel tick on ext4, whole seconds on HFS+ and some network file systems).
 */
const MTIME_SLACK_MS = 1000;

interface RunWindow {
  startMs: number;
  endMs: number;
  files: readonly string[];
}

export interface LoopVerdict {
  /** The changed paths that rerun tests. */
  rerunFor: string[];
  /** What to say about the paths left out. */
  lines: string[];
}

export class RerunLoopGuard {
  private current: { startMs: number; files: readonly string[] } | undefined;
  private last: RunWindow | undefined;
  private selfTriggered = 0;
  /** A file found rewriting itself through a loop → the test files whose runs wrote it. */
  private readonly writtenByRuns = new Map<string, Set<string>>();

  /** `show` makes a path as the command prints it (relative to the current folder). */
  constructor(private readonly show: (path: string) => string) {}

  runStarted(files: readonly string[]): void {
    this.current = { startMs: Date.now(), files };
  }

  runEnded(): void {
    if (this.current) this.last = { ...this.current, endMs: Date.now() };
    this.current = undefined;
  }

  /**
   * Which of `changed` (the paths a settled batch would rerun for) still rerun: a file a loop was
   * found in is left out while the run that changed it ran its writers; a batch made only of files
   * the last run wrote counts toward a loop, and the one past the limit is left out and named.
   */
  judge(changed: readonly string[]): LoopVerdict {
    const last = this.last;
    if (!last || changed.length === 0) return { rerunFor: [...changed], lines: [] };
    const writtenDuringLast = (path: string) => {
      const mtime = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      return mtime !== undefined && mtime >= last.startMs - MTIME_SLACK_MS && mtime <= last.endMs;
    };
    const during = changed.filter(writtenDuringLast);
    const knownWrites = during.filter((path) => last.files.some((file) => this.writtenByRuns.get(path)?.has(file)));
    const lines = knownWrites.map((path) => `changed ${this.show(path)} during the run, as its test writes it: not rerunning for it (a change between runs does)`);
    const rest = changed.filter((path) => !knownWrites.includes(path));
    if (rest.length === 0) return { rerunFor: [], lines };
    if (!rest.every(writtenDuringLast)) {
      this.selfTriggered = 0;
      return { rerunFor: rest, lines };
    }
    this.selfTriggered++;
    if (this.selfTriggered <= MAX_SELF_TRIGGERED_RERUNS) return { rerunFor: rest, lines };
    this.selfTriggered = 0;
    for (const path of rest) {
      const writers = this.writtenByRuns.get(path) ?? new Set<string>();
      for (const file of last.files) writers.add(file);
      this.writtenByRuns.set(path, writers);
    }
    const paths = rest.map(this.show).join(", ");
    const writers = last.files.map(this.show).join(", ");
    lines.push(
      `stopped a rerun loop: ${paths} changed during each of the last ${MAX_SELF_TRIGGERED_RERUNS + 1} runs, written while ${writers} ran; ` +
        `a test that writes a file it imports would rerun for ever, so what its runs write no longer reruns it (a change between runs does)`,
    );
    return { rerunFor: [], lines };
  }
}
