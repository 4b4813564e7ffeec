// A run's test files through one worker pool, in order: one worker to start with and more once
// the work left is worth their start, `--bail` and Ctrl-C stopping it, each event to the reporters.
import { readFileSync } from "node:fs";
import { isCI } from "std-env";
import { availableParallelism } from "node:os";
import { WorkerPool, type JobResult } from "../execution/pool.ts";
import { ONE_RUN_RECYCLE } from "../execution/limits.ts";
import { workersWanted } from "./workersWanted.ts";
import type { FileReport, TestReport } from "../execution/report.ts";
import { importedModules } from "../execution/schemaNames.ts";
import { forkWorker } from "../execution/workerProcess.ts";
import { viteSettingsOf } from "../execution/viteSettings.ts";
import { resolveMaxWorkers } from "../project/configFile.ts";
import { takeEarlyWorker } from "./earlyWorker.ts";
import type { ReporterGroup } from "./reporters/reporterGroup.ts";
import { type BlobEvent, replayFile } from "./blobReport.ts";
import { type ResultCache, verifies } from "./resultCache.ts";
import type { CliOptions } from "./testOptions.ts";

/** What stopped a run before its end: Ctrl-C, or `--bail` reached. */
export interface RunStop {
  interrupted: boolean;
  bailed: boolean;
  /** Failed tests (and files that could not run) so far, for `--bail`. */
  failures: number;
  /** Files that had started, and ended no test, when the run stopped. */
  unfinished: string[];
}

/** Files that end before the time a file takes is believed (a worker's first file loads the engine). */
const FILES_BEFORE_ESTIMATE = 3;

/** Every file through one worker pool, in order; the pool's workers exit (output flushed) before it resolves. */
export async function runFiles(
  files: string[],
  options: CliOptions,
  reporter: ReporterGroup,
  stop: RunStop,
  signal?: AbortSignal,
  onResult?: (file: string, result: JobResult) => void,
  cache?: ResultCache,
): Promise<FileReport[]> {
  // One worker to start with; the others once the work left is worth their start (docs/runner.md),
  // up to the cores, or `--maxWorkers`.
  const limit = options.maxWorkers === undefined ? availableParallelism() : resolveMaxWorkers(options.maxWorkers, availableParallelism());
  const cores = Math.max(1, Math.min(limit, files.length));
  let size = 1;
  // The first pool's first worker was forked as the command began (cliStart.ts).
  const pool = new WorkerPool({ size: () => size, bundleAhead: true, recycle: ONE_RUN_RECYCLE, factory: () => takeEarlyWorker() ?? forkWorker() });
  let unstarted = files.length;
  let endedFiles = 0;
  let estimateFrom: number | undefined;
  const running = new Map<string, number>();
  const started = new Set<string>();
  const growIfWorthIt = () => {
    if (size >= cores || unstarted === 0 || started.size === 0) return;
    const now = performance.now();
    const oldest = Math.max(0, ...[...running.values()].map((since) => now - since));
    // The time a file takes, from the files that ended after the first few (which start the worker
    // and its code): counted from the start, a cold start made every run look long.
    const sinceEstimate = endedFiles - FILES_BEFORE_ESTIMATE;
    const perFile = estimateFrom !== undefined && sinceEstimate > 0 ? (now - estimateFrom) / sinceEstimate : 0;
    const wanted = workersWanted({ cores, oldestMs: oldest, workLeftMs: unstarted * perFile, filesMeasured: Math.max(0, sinceEstimate) });
    if (wanted > size) {
      size = wanted;
      pool.resize();
    }
  };
  const sizing = setInterval(growIfWorthIt, 50);
  sizing.unref();
  const onAbort = () => pool.stop();
  signal?.addEventListener("abort", onAbort);
  if (signal?.aborted) pool.stop();
  // `--bail n`: the n-th failure stops the run; every worker is killed, what finished is reported.
  const failed = (count: number) => {
    stop.failures += count;
    if (options.bail > 0 && stop.failures >= options.bail && !stop.bailed && !stop.interrupted) {
      stop.bailed = true;
      pool.stop();
    }
  };
  const pattern = options.pattern ? { pattern: { source: options.pattern.source, flags: options.pattern.flags } } : {};
  // Only the json document, the agent reporter's fixes and --timeline read run traces: for the other reporters
  // they stay in the worker, off the channel and out of this process's memory.
  const traces = reporter.needsTraces || options.coverage || options.timeline ? {} : { traces: false as const };
  // A file stored in --cache keeps its traces and schema names too: any later run's reporters may read them.
  // Its worker records what its code reached as it ran (the key, and whether it may be stored) only then.
  const worker = options.cache ? { reach: true as const } : traces;
  const setup = options.setupFiles.length > 0 ? { setupFiles: options.setupFiles } : {};
  const vite = { vite: options.vite ?? viteSettingsOf(undefined, process.cwd()) };
  const coverage = options.coverage ? { coverage: true as const } : {};
  const snap = { updateSnapshot: snapshotMode(options) };
  // Before any file is bundled (some are bundled ahead of their start): an input changed after it
  // may have been read before or after the change, and its file's result is not stored.
  const runStartedAt = Date.now();
  const reports = await Promise.all(
    files.map(async (file): Promise<FileReport> => {
      // `--cache`: a file whose inputs are unchanged is told to the reporters from its stored result.
      const lookup = cache ? await cache.lookup(file, traces.traces !== false) : undefined;
      const cached = lookup?.result;
      if (cached && !(options.cacheVerify !== undefined && verifies(lookup.fileKey, options.cacheVerify))) {
        unstarted--;
        const report = replayFile(reporter, cached);
        onResult?.(file, { report, schemas: [...(cached.extras?.schemas ?? [])], ...(cached.coverage ? { coverage: cached.coverage as JobResult["coverage"] } : {}) });
        return report;
      }
      // The tests a file ended before the run stopped are reported, under its name.
      const ended: TestReport[] = [];
      // What the reporters were told, in order, and when the file started: what the cache stores.
      const events: BlobEvent[] = [];
      let startedAt = Date.now();
      // The agent reporter's fixes name the schemas a new entry answers with, as the editor's do.
      const schemaModules = reporter.needsSchemaNames || options.cache ? { schemaModules: importedModules(readIfThere(file)) } : {};
      const result = await pool.run({ file, timeoutMs: options.timeoutMs, ...worker, ...pattern, ...setup, ...vite, ...schemaModules, ...coverage, ...snap }, undefined, {
        onStart: () => {
          startedAt = Date.now();
          started.add(file);
          unstarted--;
          running.set(file, performance.now());
          reporter.fileStart(file);
        },
        onEvent: (event) => {
          if (event.type !== "test" || stop.interrupted || stop.bailed) return;
          ended.push(event.report);
          if (cache) events.push({ test: event.report });
          reporter.testEnd(file, event.report);
          if (event.report.status === "failed") failed(1);
        },
        onOutput: (text, stream) => {
          if (cache) events.push({ output: text, stream });
          reporter.output(text, stream, file);
        },
      });
      running.delete(file);
      endedFiles++;
      if (endedFiles === FILES_BEFORE_ESTIMATE) estimateFrom = performance.now();
      growIfWorthIt();
      const report: FileReport = result?.report ?? { file, tests: ended, durationMs: 0, stopped: true };
      if (result) onResult?.(file, result);
      if (cache && lookup && result) {
        if (cached) cache.compare(file, cached.report, result.report);
        else
          await cache.store(
            lookup.fileKey,
            { file, startedAt, events, report, extras: { schemas: result.schemas }, ...(result.coverage ? { coverage: result.coverage } : {}) },
            result,
            runStartedAt,
          );
      }
      if (result) {
        reporter.fileEnd(report, { schemas: result.schemas });
        if (report.error) failed(1);
      } else if (ended.length > 0) reporter.fileEnd(report);
      else if (started.has(file)) stop.unfinished.push(file);
      return report;
    }),
  );
  clearInterval(sizing);
  await pool.close();
  signal?.removeEventListener("abort", onAbort);
  return reports;
}

/** What a run does with snapshots, by Vitest's rule: `-u` rewrites, a CI writes nothing (a missing snapshot fails), else new ones are written. */
export function snapshotMode(options: CliOptions): "all" | "none" | "new" {
  return options.update ? "all" : isCI ? "none" : "new";
}

/** A file's text, or "" when it is gone (deleted while watched): the worker reports that itself. */
function readIfThere(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
