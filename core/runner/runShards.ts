// Which share of the files a run is, and what it leaves for the next split: the shard a CI's
// variables name (ciShard.ts), the files of this shard by the durations file or by count
// (core/project/shards.ts), and each file's time written after the run (`--durations`).
import { relative, resolve } from "node:path";
import type { FileReport } from "../execution/report.ts";
import { DurationsFileError, readDurations, writeDurations } from "../project/durationsFile.ts";
import { shardPlan } from "../project/shards.ts";
import { type BlobShard, shardPlanHash } from "./blobReport.ts";
import { ciShard, touchShardStatusFile } from "./ciShard.ts";
import type { CliOptions } from "./testOptions.ts";

/**
 * The options with the shard a CI's variables name when `--shard` gave none (`--shard auto`, or
 * Bazel's sharding, whose status file is then touched), said on stderr. Throws CliUsageError.
 */
export function withCiShard(options: CliOptions, env: NodeJS.ProcessEnv): CliOptions {
  const fromCi = ciShard(env, options.shardAuto === true);
  if (options.shard) {
    if (fromCi) process.stderr.write(`--shard ${options.shard.index}/${options.shard.count} is run; ${fromCi.from} are not read\n`);
    return options;
  }
  if (!fromCi) return options;
  if (fromCi.ci === "Bazel") touchShardStatusFile(env);
  process.stderr.write(`shard ${fromCi.index}/${fromCi.count}, from ${fromCi.from}\n`);
  return { ...options, shard: { index: fromCi.index, count: fromCi.count } };
}

/** The shard's files, and the split: by time when the durations file knows any of them (said on stderr), else by count. */
export function shardOf(files: string[], shard: { index: number; count: number }, durationsPath: string | undefined): { files: string[]; split: BlobShard } {
  let durations: Map<string, number> | undefined;
  if (durationsPath !== undefined) {
    try {
      durations = readDurations(resolve(durationsPath));
    } catch (error) {
      if (!(error instanceof DurationsFileError)) throw error;
      process.stderr.write(`${error.message}; the files are split by count\n`);
    }
  }
  const plan = shardPlan(files, shard.count, durations);
  const mine = files.filter((_, position) => plan.shardOf[position] === shard.index - 1);
  if (plan.by === "time") {
    const shown = relative(process.cwd(), resolve(durationsPath!)) || durationsPath!;
    process.stderr.write(
      `shard ${shard.index}/${shard.count}: ${mine.length} of ${files.length} files, split by time (${shown} knows ${plan.known}; ~${(plan.expectedMs[shard.index - 1]! / 1000).toFixed(1)} s of work expected here)\n`,
    );
  }
  const split = { index: shard.index, count: shard.count, plan: shardPlanHash(files, shard.count, plan.shardOf, process.cwd()) };
  return { files: mine, split };
}

/** `--durations`: the time each file that ended took, written into the file (others' entries kept). A file that cannot be written is said, and fails the run. */
export function writeRunDurations(reports: readonly FileReport[], path: string): boolean {
  const measured = new Map(reports.filter((report) => !report.stopped).map((report) => [report.file, report.durationMs]));
  try {
    writeDurations(resolve(path), measured);
    return true;
  } catch (error) {
    process.stderr.write(`turnlens: could not write the durations to ${path}: ${(error as Error).message}\n`);
    return false;
  }
}
