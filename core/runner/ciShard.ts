// The shard a CI's own variables name, so that no wrapper script turns them into `--shard i/n`:
// Bazel's test sharding protocol (read whenever Bazel shards a test), and GitLab's, CircleCI's and
// Buildkite's parallel jobs (read with `--shard auto`). One table, CI_SHARD_VARIABLES.
import { closeSync, openSync, utimesSync } from "node:fs";
import { CliUsageError } from "./testOptions.ts";

export interface CiShardVariables {
  /** The CI, as the notes name it. */
  readonly ci: string;
  readonly index: string;
  readonly count: string;
  /** The first shard's index: 0 or 1. */
  readonly base: 0 | 1;
  /**
   * Read without `--shard auto`. Only Bazel's: it sets them for sharding alone. GitLab sets its
   * own for `parallel: matrix` jobs too, each of which expects the whole suite; read unasked they
   * would run a share of it and report green.
   */
  readonly unasked: boolean;
}

/** Every CI whose variables name a shard, in the order they are looked for. */
export const CI_SHARD_VARIABLES: readonly CiShardVariables[] = [
  { ci: "Bazel", index: "TEST_SHARD_INDEX", count: "TEST_TOTAL_SHARDS", base: 0, unasked: true },
  { ci: "GitLab", index: "CI_NODE_INDEX", count: "CI_NODE_TOTAL", base: 1, unasked: false },
  { ci: "CircleCI", index: "CIRCLE_NODE_INDEX", count: "CIRCLE_NODE_TOTAL", base: 0, unasked: false },
  { ci: "Buildkite", index: "BUILDKITE_PARALLEL_JOB", count: "BUILDKITE_PARALLEL_JOB_COUNT", base: 0, unasked: false },
];

export interface CiShard {
  /** 1-based, as `--shard` takes it. */
  index: number;
  count: number;
  /** Where it came from: `Bazel's TEST_SHARD_INDEX=2 and TEST_TOTAL_SHARDS=8`. */
  from: string;
  ci: string;
}

/**
 * The shard the environment names: with `auto`, the first CI of the table whose two variables are
 * set; without, Bazel's alone. A count of 1 is no sharding. Throws CliUsageError naming the
 * variables and their values when they are not a shard.
 */
export function ciShard(env: NodeJS.ProcessEnv, auto: boolean): CiShard | undefined {
  for (const variables of CI_SHARD_VARIABLES) {
    if (!auto && !variables.unasked) continue;
    const indexText = env[variables.index];
    const countText = env[variables.count];
    if (indexText === undefined || countText === undefined || indexText === "" || countText === "") continue;
    const from = `${variables.ci}'s ${variables.index}=${indexText} and ${variables.count}=${countText}`;
    const rule = `${from} name no shard: ${variables.index} counts from ${variables.base} and stays below ${variables.base} + ${variables.count}, both whole numbers`;
    if (!/^\d+$/.test(indexText) || !/^\d+$/.test(countText)) throw new CliUsageError(rule);
    const count = Number(countText);
    const index = Number(indexText) - variables.base + 1;
    if (count < 1 || index < 1 || index > count) throw new CliUsageError(rule);
    if (count === 1) return undefined;
    return { index, count, from, ci: variables.ci };
  }
  if (auto) {
    const names = CI_SHARD_VARIABLES.map((variables) => `${variables.index}/${variables.count} (${variables.ci})`).join(", ");
    throw new CliUsageError(`--shard auto reads the shard from a CI's variables, and none is set: ${names}`);
  }
  return undefined;
}

/**
 * Bazel's protocol asks a test runner that shards to touch the status file it names, so that Bazel
 * knows every shard did not run the whole suite.
 */
export function touchShardStatusFile(env: NodeJS.ProcessEnv): void {
  const path = env.TEST_SHARD_STATUS_FILE;
  if (!path) return;
  closeSync(openSync(path, "a"));
  const now = new Date();
  utimesSync(path, now, now);
}
