// One run of `turnlens test`: the test files it selects (paths or the config's include, then
// `--changed` and `--shard`), run once through runFiles.ts and reported; and the exit code it earns.
import type { JobResult } from "../execution/pool.ts";
import { summarize, type RunSummary } from "../execution/report.ts";
import { discoverTests, shard, type Discovery } from "../project/discover.ts";
import { changedTestFiles } from "./changedFiles.ts";
import { chooseReporters, ReporterGroup } from "./reporters/reporterGroup.ts";
import { endNote, outputs, writeAfterRun } from "./runOutput.ts";
import { runFiles, type RunStop } from "./runFiles.ts";
import { projectConfig, type CliOptions } from "./testOptions.ts";

/** The test files of a run: found under its paths (or the config's include), then `--changed` and `--shard`. */
export async function selectFiles(options: CliOptions): Promise<Discovery & { note?: string }> {
  const discovery = await discoverTests(options.paths, process.cwd(), { config: await projectConfig(options) });
  let files = discovery.files;
  if (options.changed !== undefined) files = await changedTestFiles(files, options.changed, process.cwd());
  if (options.shard) files = shard(files, options.shard.index, options.shard.count);
  return { ...discovery, files };
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
  const reporter = new ReporterGroup(chooseReporters(options.reporters, options.outputFile, process.env), out, {
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
  const reports = await runFiles(files, options, reporter, stop, signal, collect).finally(() => signal?.removeEventListener("abort", onAbort));
  const summary = summarize(reports);
  reporter.finish(summary, performance.now() - started, endNote(files, reports, summary, stop, options));
  const written = writeAfterRun(reports, stop, options, out, reporter.stdoutIsDocument, { coverage, testFiles: new Set(files) });
  // A report file or a timeline that could not be written fails the run.
  return { summary: reporter.writeFailed || !written ? { ...summary, failed: Math.max(1, summary.failed) } : summary, stop };
}

/** 0 when every test passed (and one ran, unless `--passWithNoTests`), else 1. */
export function exitCodeOf(summary: RunSummary, options: CliOptions): number {
  if (summary.failed > 0) return 1;
  return summary.passed === 0 && !options.passWithNoTests ? 1 : 0;
}
