// The runner's documented limits (docs/runner.md), in one place: what timers can hold, how much
// of a test's output is kept, and when a warm worker is recycled.

/** The longest delay a Node timer holds; a longer one fires at once. Timeouts are clamped to it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay clamped to what a timer can hold (and never negative). */
export function timerDelay(ms: number): number {
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), MAX_TIMER_MS) : MAX_TIMER_MS;
}

/** Output kept per test (stdout and stderr together); past it the report says how much was cut. */
export const OUTPUT_CAP_BYTES = 4 * 1024 * 1024;

/** A warm worker is replaced after this many files... */
export const RECYCLE_AFTER_RUNS = 100;

/** ...or as soon as a file leaves it holding more than this much memory (resident set). */
export const RECYCLE_ABOVE_RSS_BYTES = 512 * 1024 * 1024;

/**
 * The rule of a pool that runs a fixed list of files once (`turnlens test`, `--mutate`): a fresh
 * worker costs about a second of CPU before its code runs as fast as a warm one's, and a file
 * leaves ~0.25 MB behind, so it lives three times as long (docs/runner.md, "Bounded memory").
 */
export const ONE_RUN_RECYCLE = { afterRuns: 300, aboveRssBytes: RECYCLE_ABOVE_RSS_BYTES } as const;

/**
 * How long a script config (turnlens.config.ts) may take to load, in its own process, before it is
 * stopped and refused: far past a config's few tens of milliseconds even on a loaded machine.
 */
export const CONFIG_LOAD_TIMEOUT_MS = 10_000;

/** The heap a script config's process may use (a config that allocates without end is stopped there). */
export const CONFIG_HEAP_MB = 256;

/** The largest file a test's bundle reads (a source file, or anything else it imports); a larger one fails the file. */
export const BUNDLE_FILE_CAP_BYTES = 32 * 1024 * 1024;

/**
 * The most worker processes a run starts, whatever `--maxWorkers` or the config asks: twice the
 * cores, and at least 4. Past it, workers only compete for the cores and each holds its own memory
 * (`--maxWorkers 1000` on 2 cores started 49 processes, 2.3 GB, for no speed).
 */
export function workerCap(cores: number): number {
  return Math.max(2 * cores, 4);
}
