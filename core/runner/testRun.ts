// One run of `turnlens test`: the test files it selects (paths or the config's include, then
// `--changed` and `--shard`), run once through runFiles.ts (with `--cache`'s stores) and reported;
// and the exit code it earns.
import { resolve } from "node:path";
import type { JobResult } from "../execution/pool.ts";
import { summarize, type RunSummary } from "../execution/report.ts";
import { discoverTests, type Discovery } from "../project/discover.ts";
import type { BlobShard } from "./blobReport.ts";
import { DEFAULT_CACHE_FOLDER, FolderStore, HttpStore } from "./cacheStore.ts";
import { changedTestFiles } from "./changedFiles.ts";
import { ResultCache } from "./resultCache.ts";
import { shardOf, writeRunDurations } from "./runShards.ts";
import { chooseReporters, ReporterGroup } from "./reporters/reporterGroup.ts";
import { endNote, outputs, writeAfterRun } from "./runOutput.ts";
import { runFiles, type RunStop, snapshotMode } from "./runFiles.ts";
import { projectConfig, type CliOptions } from "./testOptions.ts";

/** The test files of a run: found under its paths (or the config's include), then `--changed` and `--shard`. */
export async function selectFiles(options: CliOptions): Promise<Discovery & { split?: BlobShard }> {
  const discovery = await discoverTests(options.paths, process.cwd(), { config: await projectConfig(options) });
  let files = discovery.files;
  if (options.changed !== undefined) files = await changedTestFiles(files, options.changed, process.cwd());
  if (!options.shard) return { ...discovery, files };
  return { ...discovery, ...shardOf(files, options.shard, options.durations) };
}

/** Runs the files once and reports; resolves to the summary and what stopped it, if anything. */
export async function runOnce(
  files: string[],
  options: CliOptions,
  signal?: AbortSignal,
  onResult?: (file: string, result: JobResult) => void,
): Promise<{ summary: RunSummary; stop: RunStop }> {
  const started = performance.now();
  // `--coverage=json` owns stdout: the test reporter writes to stderr then.
  const out = outputs();
  const reporter = new ReporterGroup(chooseReporters(options.reporters, options.outputFile, process.env, options.shard), out, {
    silent: options.silent,
    stdoutTaken: options.coverage === "json",
  });
  const stop: RunStop = { interrupted: false, bailed: false, failures: 0, unfinished: [] };
  const onAbort = () => (stop.interrupted = !stop.bailed);
  signal?.addEventListener("abort", onAbort, { once: true });
  reporter.start(files.length);
  // `--watch` passes one signal to every rerun: the listener goes with its run, or they pile up
  // (MaxListenersExceededWarning past 10 reruns).
  // Each file's line coverage, merged once the run ended (--coverage).
  const coverage: JobResult["coverage"][] = [];
  const collect = (file: string, result: JobResult) => {
    coverage.push(result.coverage);
    onResult?.(file, result);
  };
  const cache = options.cache ? openCache(options, out.cwd) : undefined;
  const reports = await runFiles(files, options, reporter, stop, signal, collect, cache).finally(() => signal?.removeEventListener("abort", onAbort));
  if (cache) {
    for (const difference of cache.differences)
      out.stderr.write(`cache-verify: ${difference}, against its cached result: the cache gave a wrong result (a bug; the run fails)\n`);
    out.stderr.write(`${cache.summary()}\n`);
  }
  const summary = summarize(reports);
  reporter.runEnded({
    ...(options.split ? { shard: options.split } : {}),
    unfinished: stop.unfinished,
    interrupted: stop.interrupted,
    bailed: stop.bailed,
    ...(options.coverage ? { coverage } : {}),
  });
  reporter.finish(summary, performance.now() - started, endNote(files, reports, summary, stop, options));
  const written = writeAfterRun(reports, stop, options, out, reporter.stdoutIsDocument, { coverage, testFiles: new Set(files) });
  // A shard leaves the durations file as every shard read it (merge-reports writes all of theirs).
  const durationsWritten = options.durations === undefined || options.shard !== undefined || stop.interrupted || writeRunDurations(reports, options.durations);
  // A report file, a timeline or the durations that could not be written fail the run, as does a cached result --cache-verify found wrong.
  const failedBeside = reporter.writeFailed || !written || !durationsWritten || (cache?.differences.length ?? 0) > 0;
  return { summary: failedBeside ? { ...summary, failed: Math.max(1, summary.failed) } : summary, stop };
}

/** 0 when every test passed (and one ran, unless `--passWithNoTests`), else 1. */
export function exitCodeOf(summary: RunSummary, options: CliOptions): number {
  if (summary.failed > 0) return 1;
  return summary.passed === 0 && !options.passWithNoTests ? 1 : 0;
}

/** `--cache`'s stores (the folder first, then the remote) and its key of the run's settings. */
function openCache(options: CliOptions, cwd: string): ResultCache {
  const stores = [new FolderStore(resolve(cwd, options.cache?.dir ?? DEFAULT_CACHE_FOLDER)), ...(options.cache?.remote ? [new HttpStore(options.cache.remote)] : [])];
  const settings = {
    ...(options.pattern ? { pattern: { source: options.pattern.source, flags: options.pattern.flags } } : {}),
    timeoutMs: options.timeoutMs,
    setupFiles: options.setupFiles,
    vite: options.vite ?? null,
    updateSnapshot: snapshotMode(options),
    coverage: options.coverage !== undefined,
  };
  return ResultCache.open(stores, settings, cwd, (line) => process.stderr.write(`${line}\n`));
}
