// How many workers `turnlens test` wants at a moment of its run: one to start with, all but one
// core once the work left is worth their start, every core once it is worth the last one's too.

/**
 * The work left (files not started × the time a file takes) past which workers start on all but
 * one core. A cold worker costs a few hundred milliseconds before its first test runs: on
 * examples/ (11 files, 2 cores, load 9) one worker took 0.86 s and two 1.10 s.
 */
export const MORE_WORKERS_AFTER_MS = 1000;

/**
 * ...and past which the last core gets one too. That core is shared with the CLI and esbuild's
 * services, and a fresh worker costs about a second of CPU before it runs at a warm one's pace:
 * on 2 cores, 100 generated files (~1.6 s of work left) took the same wall time with a second
 * worker and a quarter more CPU and half more memory; 200 files (~3.1 s) took 4% less, 400 files
 * 20% less (docs/runner.md, "One worker first").
 */
export const EVERY_CORE_AFTER_MS = 2500;

/**
 * The files measured before the last core's bound is trusted near it. A cold worker's first files
 * take ~25–30 ms where its later ones take 13–18, so on a busy machine a few of them made 100
 * files (~1.6 s left) look like 2.5–3 s, and the run grew a second worker that finished no sooner
 * and held 110 MiB more (BENCHMARKS.md, the fourth round). Twice the bound needs no more files.
 */
export const FILES_MEASURED_FOR_THE_LAST_CORE = 12;

export interface RunMoment {
  /** The most workers the run may have: the cores, or `--maxWorkers`, and no more than its files. */
  cores: number;
  /** How long the file running longest has run. */
  oldestMs: number;
  /** The files not started × the time a file takes (0 until that time is known). */
  workLeftMs: number;
  /** How many files that time was measured on. */
  filesMeasured: number;
}

/** The workers the run wants now (it never gives one back). */
export function workersWanted({ cores, oldestMs, workLeftMs, filesMeasured }: RunMoment): number {
  // A file that holds its worker this long wants the others at once, whatever is left.
  if (oldestMs > MORE_WORKERS_AFTER_MS) return cores;
  const lastCoreWorthIt = filesMeasured >= FILES_MEASURED_FOR_THE_LAST_CORE ? workLeftMs > EVERY_CORE_AFTER_MS : workLeftMs > 2 * EVERY_CORE_AFTER_MS;
  if (lastCoreWorthIt) return cores;
  if (workLeftMs > MORE_WORKERS_AFTER_MS) return Math.max(1, cores - 1);
  return 1;
}
