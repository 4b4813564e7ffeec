// `turnlens merge-reports [dir]` (and `turnlens test --merge-reports [dir]`, Vitest's flag): the
// blob reports of one run's shards read back and told to the chosen reporters, in the order one run
// would have told them, then coverage, timelines, the mutation table and the durations file as that
// run would write them.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { summarize } from "../execution/report.ts";
import { inRunOrder } from "../project/discover.ts";
import { type BlobDocument, DEFAULT_BLOB_FOLDER, readBlob, replayFile } from "./blobReport.ts";
import { chooseReporters, ReporterGroup } from "./reporters/reporterGroup.ts";
import { outputs, writeAfterRun } from "./runOutput.ts";
import type { RunStop } from "./runFiles.ts";
import { flagNamed, flagWritten, TEST_FLAGS } from "./testFlags.ts";
import { CliUsageError, type CliOptions } from "./testOptions.ts";
import { writeRunDurations } from "./runShards.ts";
import { exitCodeOf } from "./testRun.ts";
import { versionLine } from "./versionLine.ts";
import { belowThreshold, printMutation } from "./mutateCommand.ts";
import type { MutationResults } from "../mutate/mutate.ts";

/** A blob as read, with the name it is reported by. */
interface NamedBlob {
  name: string;
  blob: BlobDocument;
}

/** The blob reports in `folder`: every `.json` file there, by name. Throws CliUsageError naming what is wrong. */
export function readBlobs(folder: string, cwd: string): NamedBlob[] {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".json"));
  } catch (error) {
    throw new CliUsageError(`merge-reports reads the blob reports in ${folder}, which could not be read: ${(error as Error).message}`);
  }
  if (names.length === 0)
    throw new CliUsageError(`no blob reports in ${folder}: run each shard with --reporter blob (it writes ${DEFAULT_BLOB_FOLDER}/blob-<i>-<n>.json)`);
  return names.sort().map((name) => {
    try {
      return { name, blob: readBlob(join(folder, name), cwd) };
    } catch (error) {
      throw new CliUsageError(`merge-reports: ${(error as Error).message}`);
    }
  });
}

/**
 * What keeps the blobs from being one whole run, each a sentence: a whole run's blob beside others,
 * shards of different splits, a shard twice, a shard missing. The merged report then fails.
 */
export function splitProblems(blobs: readonly NamedBlob[]): string[] {
  if (blobs.length === 1 && !blobs[0]!.blob.shard) return [];
  const whole = blobs.find(({ blob }) => !blob.shard);
  if (whole) return [`${whole.name} is a whole run's blob, not a shard's: merge-reports merges the shards of one run`];
  const problems: string[] = [];
  const first = blobs[0]!;
  const firstShard = first.blob.shard!;
  for (const { name, blob } of blobs.slice(1)) {
    const shard = blob.shard!;
    if (shard.count !== firstShard.count || shard.plan !== firstShard.plan) {
      problems.push(
        `${name} (shard ${shard.index}/${shard.count}) was split from other files or other durations than ${first.name} (shard ${firstShard.index}/${firstShard.count}): give every shard the same files and the same --durations file`,
      );
    }
  }
  if (problems.length > 0) return problems;
  const byIndex = new Map<number, string>();
  for (const { name, blob } of blobs) {
    const earlier = byIndex.get(blob.shard!.index);
    if (earlier) problems.push(`shard ${blob.shard!.index}/${firstShard.count} is in both ${earlier} and ${name}`);
    byIndex.set(blob.shard!.index, name);
  }
  for (let index = 1; index <= firstShard.count; index++) {
    if (!byIndex.has(index)) problems.push(`shard ${index}/${firstShard.count} has no blob here: its files are not in this report`);
  }
  return problems;
}

/** Runs merge-reports with the folder and the options (reporters, outputFile, coverage, timeline, durations); resolves to the exit code. */
export function mergeReports(folderArgument: string | undefined, options: CliOptions): number {
  const cwd = process.cwd();
  const folder = resolve(cwd, folderArgument ?? DEFAULT_BLOB_FOLDER);
  const blobs = readBlobs(folder, cwd);
  const mutated = blobs.filter(({ blob }) => blob.mutation);
  if (options.mutate && mutated.length === 0)
    throw new CliUsageError(`merge-reports --mutate: the blobs in ${folder} carry no mutation results: run each shard with --mutate --reporter blob`);
  const problems = splitProblems(blobs);
  // A shard without mutants would leave its files out of the one table and score.
  if (mutated.length > 0 && mutated.length < blobs.length) {
    const unmutated = blobs.filter(({ blob }) => !blob.mutation).map(({ name }) => name);
    problems.push(`${unmutated.join(", ")} ran without --mutate: the mutation table would count the other shards' files only`);
  }
  const out = outputs();
  const shards = blobs[0]!.blob.shard;
  out.stderr.write(`merge-reports: ${blobs.length} blob report${blobs.length === 1 ? "" : "s"} from ${folder}${shards ? `, shards of ${shards.count}` : ""}\n`);
  const lines = versionLines(blobs);
  if (lines.length > 1) out.stderr.write(`merge-reports: the blobs were written by ${lines.join(" and by ")}\n`);
  const reporter = new ReporterGroup(chooseReporters(options.reporters, options.outputFile, process.env), out, {
    silent: options.silent,
    stdoutTaken: options.coverage === "json" || (mutated.length > 0 && options.mutate === "json"),
  });
  reporter.start(blobs.reduce((sum, { blob }) => sum + blob.fileCount, 0));
  // One run tells its reporters about files in its sorted order when one worker runs them: so does the merge.
  const entries = blobs.flatMap(({ blob }) => blob.files).sort((a, b) => inRunOrder(a.file, b.file));
  const reports = entries.map((entry) => replayFile(reporter, entry));
  const stop: RunStop = {
    interrupted: blobs.some(({ blob }) => blob.interrupted),
    bailed: blobs.some(({ blob }) => blob.bailed),
    failures: 0,
    unfinished: blobs.flatMap(({ blob }) => blob.unfinished),
  };
  const summary = summarize(reports);
  const coverage = blobs.flatMap(({ blob }) => blob.coverage ?? []);
  const uncovered = blobs.filter(({ blob }) => !blob.coverage).map(({ name }) => name);
  if (options.coverage && uncovered.length === blobs.length) {
    out.stderr.write("merge-reports: the shards ran without --coverage: there is no line coverage to merge, only the outcomes their run traces give\n");
  } else if (options.coverage && uncovered.length > 0) {
    out.stderr.write(`merge-reports: ${uncovered.join(", ")} ran without --coverage: the line coverage counts the other shards' files only\n`);
  }
  reporter.runEnded({
    unfinished: stop.unfinished,
    interrupted: stop.interrupted,
    bailed: stop.bailed,
    ...(coverage.length > 0 ? { coverage } : {}),
  });
  const durationMs = Math.max(0, ...blobs.map(({ blob }) => blob.durationMs));
  reporter.finish(summary, durationMs, mergedNote(blobs, problems));
  const mutation = mergedMutation(mutated);
  if (mutation) printMutation(mutation, reports, options.mutate ?? "table", out, reporter.stdoutIsDocument);
  const testFiles = new Set(reports.map((report) => report.file));
  const lineCoverage = uncovered.length < blobs.length ? { coverage, testFiles } : undefined;
  const written = writeAfterRun(reports, stop, options, out, reporter.stdoutIsDocument, lineCoverage);
  const durationsWritten = options.durations === undefined || writeRunDurations(reports, options.durations);
  if (problems.length > 0 || reporter.writeFailed || !written || !durationsWritten) return 1;
  if (stop.interrupted) return 130;
  const code = exitCodeOf(summary, options);
  return code === 0 && mutation && belowThreshold(mutation.mutants, options.mutateThreshold, out) ? 1 : code;
}

/** The shards' mutants as one run's, in its file order; the budget theirs, the time the longest shard's (they ran side by side). */
function mergedMutation(mutated: readonly NamedBlob[]): MutationResults | undefined {
  if (mutated.length === 0) return undefined;
  const results = mutated.map(({ blob }) => blob.mutation!);
  return {
    budgetMs: results[0]!.budgetMs,
    durationMs: Math.max(...results.map((result) => result.durationMs)),
    mutants: results.flatMap((result) => result.mutants).sort((a, b) => inRunOrder(a.file, b.file)),
  };
}

/** The line before the count: the merge's problems, and each shard's own note (interrupted, bailed). */
function mergedNote(blobs: readonly NamedBlob[], problems: readonly string[]): string | undefined {
  const notes = blobs.flatMap(({ blob }) =>
    blob.note !== undefined && (blob.interrupted || blob.bailed) ? [`${blob.shard ? `shard ${blob.shard.index}/${blob.shard.count}` : "the run"}: ${blob.note}`] : [],
  );
  const lines = [...problems.map((problem) => `merge-reports: ${problem}`), ...notes];
  return lines.length > 0 ? lines.join("\n") : undefined;
}

/** The distinct turnlens versions (and platforms) that wrote the blobs, this one's first when it is among them. */
function versionLines(blobs: readonly NamedBlob[]): string[] {
  const lines = [...new Set(blobs.map(({ blob }) => blob.versionLine))];
  const own = versionLine();
  return lines.includes(own) ? [own, ...lines.filter((line) => line !== own)] : lines;
}

/**
 * `turnlens merge-reports [dir] [flags]` and `turnlens test --merge-reports [dir]`: only the flags
 * that mean something without a run are taken (a usage error names the others), then the merge.
 */
export function mergeCommand(args: readonly string[], options: CliOptions): number {
  const end = args.indexOf("--");
  for (const arg of end === -1 ? args : args.slice(0, end)) {
    if (!arg.startsWith("-") || arg === "-") continue;
    const flag = flagWritten(arg);
    const entry = flagNamed(flag);
    if (entry && !entry.merges) {
      const taken = TEST_FLAGS.filter((candidate) => candidate.merges && candidate.name !== "--merge-reports").map((candidate) => candidate.name);
      throw new CliUsageError(`${flag} is not for merge-reports, which runs no test; it takes ${taken.join(", ")}`);
    }
  }
  const folder = typeof options.mergeReports === "string" ? options.mergeReports : options.paths[0];
  const more = typeof options.mergeReports === "string" ? options.paths : options.paths.slice(1);
  if (more.length > 0) throw new CliUsageError(`merge-reports reads one folder of blob reports; ${more.join(" ")} is more`);
  return mergeReports(folder, options);
}
