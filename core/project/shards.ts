// Which of a run's test files one shard runs (`--shard i/n`): split by the time each file took when
// a durations file knows them (durationsFile.ts), by count when it knows none. Every shard computes
// the same split on its own, from the same sorted list and the same durations: no shard talks to another.

export interface ShardPlan {
  /** Each file's shard (0-based), by its position in the list. */
  shardOf: number[];
  /** Each shard's expected time in ms, by the durations (unknown files counted at the median known); all 0 by count. */
  expectedMs: number[];
  /** How the split was made. */
  by: "time" | "count";
  /** The files the durations knew. */
  known: number;
}

/**
 * The split of `files` into `count` shards. By count (every n-th file, as before durations existed)
 * when no file has a duration; else longest first, each to the shard expected to end first (ties:
 * the one with fewer files, then the lower index), with a file the durations do not know counted at
 * the median of those they do, so new files spread over the shards by count.
 */
export function shardPlan(files: readonly string[], count: number, durations?: ReadonlyMap<string, number>): ShardPlan {
  const measured = files.map((file) => durations?.get(file));
  const knownTimes = measured.filter((ms): ms is number => ms !== undefined);
  if (knownTimes.length === 0) {
    return { shardOf: files.map((_, position) => position % count), expectedMs: new Array(count).fill(0), by: "count", known: 0 };
  }
  const sorted = [...knownTimes].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const weights = measured.map((ms) => ms ?? median);
  // Longest first; equal times keep the files' sorted order, so every shard orders them alike.
  const order = files.map((_, position) => position).sort((a, b) => weights[b]! - weights[a]! || a - b);
  const expectedMs = new Array<number>(count).fill(0);
  const sizes = new Array<number>(count).fill(0);
  const shardOf = new Array<number>(files.length);
  for (const position of order) {
    let best = 0;
    for (let shard = 1; shard < count; shard++) {
      if (expectedMs[shard]! < expectedMs[best]! || (expectedMs[shard] === expectedMs[best] && sizes[shard]! < sizes[best]!)) best = shard;
    }
    shardOf[position] = best;
    expectedMs[best] = expectedMs[best]! + weights[position]!;
    sizes[best] = sizes[best]! + 1;
  }
  return { shardOf, expectedMs, by: "time", known: knownTimes.length };
}
