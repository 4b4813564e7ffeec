// The `turnlens` command line: `turnlens test [paths] [-t pattern] [--watch] [--timeout 5s] [--reporter pretty|json|junit] [--shard i/n] [--coverage[=json]]`
// and `turnlens init [folder]` (init.ts). `turnlens lsp` is dispatched by bin/turnlens.mjs, before this.
import { existsSync, fstatSync, statSync } from "node:fs";
import { basename, dirname, relative, sep } from "node:path";
import { discoverTests, isTestFile, shard, UsageError, type Discovery } from "./discover.ts";
import { initCommand } from "./init.ts";
import { recordCommand } from "./record.ts";
import { availableParallelism } from "node:os";
import { MAX_TIMER_MS } from "./limits.ts";
import { WorkerPool, type JobResult } from "./pool.ts";
import { takeEarlyWorker } from "./earlyWorker.ts";
import { forkWorker } from "./workerProcess.ts";
import { summarize, type FileReport, type RunSummary } from "./report.ts";
import { makeReporter, type Out, type ReporterName } from "./reporters.ts";
import { FolderWatcher } from "./watchFolders.ts";
import { TestGraph } from "./watchGraph.ts";
import { printCoverage, type CoverageFormat } from "./coverageReport.ts";

export const USAGE = `Usage: turnlens test [paths...] [options]

Runs *.test.ts and *.spec.ts files (also .mts .cts .tsx .js .mjs .cjs .jsx), each in a
worker process. Paths are files or folders (searched recursively, skipping node_modules,
dist and dot-folders). Without paths: the "turnlens.include" list of the nearest
package.json, else the current folder. Test files import "bun:test" or "vitest" and
"agentswf/testing"; Turnlens serves those itself.

Options:
  -t, --test-name-pattern <regex>  run only tests whose full name matches
      --timeout <duration>         per-test timeout such as 500ms, 10s or 2m (default 5s)
      --reporter <name>            pretty (default), json or junit
      --shard <i/n>                run the i-th of n shares of the files, such as 1/3
      --watch                      rerun the tests a changed file affects
      --coverage[=json]            after the run, the outcomes each workflow's agents were given and
                                   the call sites no test reached (json: one document on stdout)
  -h, --help                       print this help

Exit code: 0 when all tests pass, 1 when a test failed or no test ran, 2 on a usage error.

turnlens init [folder] [--example] sets a folder up: tsconfig paths for the served modules and,
in a folder with no workflow, a first workflow and its test (turnlens init --help).

turnlens record <run folder> --workflow <file> [--check] writes a test that replays a run from
its run.jsonl and in.jsonl, or checks the run still replays (turnlens record --help).

turnlens lsp --stdio (or --node-ipc) starts the language server for an editor: the tests of the
open files run as you type (turnlens lsp --help).`;

export interface CliOptions {
  paths: string[];
  pattern?: RegExp;
  timeoutMs: number;
  reporter: ReporterName;
  shard?: { index: number; count: number };
  watch: boolean;
  /** `--coverage` (a table) or `--coverage=json` (a document on stdout), printed after the run. */
  coverage?: CoverageFormat;
}

export class CliUsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = false,
  ) {
    super(message);
  }
}

/** `500ms`, `10s`, `2m`, `1.5s`, or a bare number of milliseconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const ms = m[2] === "s" ? n * 1000 : m[2] === "m" ? n * 60_000 : n;
  return ms > 0 && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** Parses the arguments after `test`. Throws CliUsageError. Returns "help" for -h. */
export function parseTestArgs(args: string[]): CliOptions | "help" {
  const options: CliOptions = { paths: [], timeoutMs: 5000, reporter: "pretty", watch: false };
  let onlyPaths = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (onlyPaths || !arg.startsWith("-") || arg === "-") {
      options.paths.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyPaths = true;
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string | undefined => {
      if (inline !== undefined) return inline;
      const next = args[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) return undefined;
      i++;
      return next;
    };
    switch (flag) {
      case "-h":
      case "--help":
        return "help";
      case "-t":
      case "--test-name-pattern": {
        const v = value();
        if (v === undefined || v === "") throw new CliUsageError("-t needs a pattern");
        try {
          options.pattern = new RegExp(v);
        } catch (error) {
          throw new CliUsageError(`-t needs a valid regular expression: ${(error as Error).message}`);
        }
        break;
      }
      case "--timeout": {
        const v = value();
        const ms = v === undefined ? undefined : parseDuration(v);
        if (ms === undefined) throw new CliUsageError("--timeout needs a duration such as 10s");
        if (ms > MAX_TIMER_MS) throw new CliUsageError(`--timeout takes at most ${MAX_TIMER_MS}ms (about 24 days), what a timer can hold`);
        options.timeoutMs = ms;
        break;
      }
      case "--reporter": {
        const v = value();
        if (v !== "pretty" && v !== "json" && v !== "junit") throw new CliUsageError("--reporter needs pretty, json or junit");
        options.reporter = v;
        break;
      }
      case "--shard": {
        const v = value();
        const m = v === undefined ? null : /^(\d+)\/(\d+)$/.exec(v);
        const index = m ? Number(m[1]) : 0;
        const count = m ? Number(m[2]) : 0;
        if (!m || count < 1 || index < 1 || index > count) throw new CliUsageError("--shard needs i/n such as 1/3");
        options.shard = { index, count };
        break;
      }
      case "--coverage":
        if (inline !== undefined && inline !== "json" && inline !== "table") throw new CliUsageError("--coverage takes no value, or =json");
        options.coverage = inline === "json" ? "json" : "table";
        break;
      case "--watch":
        if (inline !== undefined) throw new CliUsageError(`unknown option: ${arg}`, true);
        options.watch = true;
        break;
      default:
        throw new CliUsageError(`unknown option: ${flag}`, true);
    }
  }
  return options;
}

function useColor(stream: { isTTY?: boolean }): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY) && process.env.TERM !== "dumb";
}

function outputs(): Out {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), color: useColor(process.stdout) };
}

async function selectFiles(options: CliOptions): Promise<Discovery & { note?: string }> {
  const discovery = await discoverTests(options.paths, process.cwd());
  if (!options.shard) return discovery;
  const files = shard(discovery.files, options.shard.index, options.shard.count);
  return { ...discovery, files };
}

/**
 * The work left (files not started × the time a file has taken) past which more workers start. A
 * cold worker costs a few hundred milliseconds before its first test runs: on examples/ (11 files,
 * 2 cores, load 9) one worker took 0.86 s and two 1.10 s.
 */
const MORE_WORKERS_AFTER_MS = 1000;
/** Files that end before the time a file takes is believed (a worker's first file loads the engine). */
const FILES_BEFORE_ESTIMATE = 3;

/** Every file through one worker pool, in order; the pool's workers exit (output flushed) before it resolves. */
async function runFiles(
  files: string[],
  options: CliOptions,
  reporter: ReturnType<typeof makeReporter>,
  signal?: AbortSignal,
  onResult?: (file: string, result: JobResult) => void,
): Promise<FileReport[]> {
  // One worker to start with; the others once the work left is worth their start (docs/runner.md).
  const cores = Math.max(1, Math.min(availableParallelism(), files.length));
  let size = 1;
  // The first pool's first worker was forked as the command began (cliStart.ts).
  const pool = new WorkerPool({ size: () => size, bundleAhead: true, factory: () => takeEarlyWorker() ?? forkWorker() });
  let unstarted = files.length;
  let ended = 0;
  let firstStart: number | undefined;
  const running = new Map<string, number>();
  const growIfWorthIt = () => {
    if (size >= cores || unstarted === 0 || firstStart === undefined) return;
    const now = performance.now();
    const oldest = Math.max(0, ...[...running.values()].map((since) => now - since));
    const perFile = ended >= FILES_BEFORE_ESTIMATE ? (now - firstStart) / ended : 0;
    if (oldest > MORE_WORKERS_AFTER_MS || unstarted * perFile > MORE_WORKERS_AFTER_MS) {
      size = cores;
      pool.resize();
    }
  };
  const sizing = setInterval(growIfWorthIt, 50);
  sizing.unref();
  const onAbort = () => pool.stop();
  signal?.addEventListener("abort", onAbort);
  if (signal?.aborted) pool.stop();
  const pattern = options.pattern ? { pattern: { source: options.pattern.source, flags: options.pattern.flags } } : {};
  // Only the json document carries run traces: for the other reporters they stay in the worker,
  // off the channel and out of this process's memory.
  const traces = options.reporter === "json" || options.coverage ? {} : { traces: false as const };
  const reports = await Promise.all(
    files.map(async (file): Promise<FileReport> => {
      const result = await pool.run({ file, timeoutMs: options.timeoutMs, ...traces, ...pattern }, undefined, {
        onStart: () => {
          unstarted--;
          firstStart ??= performance.now();
          running.set(file, performance.now());
          reporter.fileStart(file);
        },
        onEvent: (event) => {
          if (event.type === "test") reporter.testEnd(file, event.report);
        },
        onOutput: (text, stream) => reporter.output(text, stream),
      });
      running.delete(file);
      ended++;
      growIfWorthIt();
      const report = result?.report ?? { file, tests: [], durationMs: 0 };
      if (result) onResult?.(file, result);
      if (result) reporter.fileEnd(report);
      return report;
    }),
  );
  clearInterval(sizing);
  await pool.close();
  signal?.removeEventListener("abort", onAbort);
  return reports;
}

/** Runs the files once and reports; resolves to the summary. */
async function runOnce(files: string[], options: CliOptions, signal?: AbortSignal, onResult?: (file: string, result: JobResult) => void): Promise<RunSummary> {
  const started = performance.now();
  // `--coverage=json` owns stdout: the test reporter writes to stderr then.
  const out = outputs();
  const reporter = makeReporter(options.reporter, options.coverage === "json" ? { ...out, stdout: process.stderr } : out);
  reporter.start(files.length);
  const reports = await runFiles(files, options, reporter, signal, onResult);
  const summary = summarize(reports);
  let note: string | undefined;
  if (summary.passed + summary.failed === 0) {
    note = files.length === 0 ? "no test ran: no test files found" : "no test ran";
  }
  reporter.finish(summary, performance.now() - started, note);
  // The table beside a json or junit document would break it: it goes to stderr then.
  if (options.coverage)
    printCoverage(reports, options.coverage, options.coverage === "table" && options.reporter !== "pretty" ? { ...out, stdout: process.stderr } : out);
  return summary;
}

function exitCodeOf(summary: RunSummary): number {
  return summary.failed > 0 || summary.passed + summary.failed === 0 ? 1 : 0;
}

/** Files whose change alters how every test file bundles: every test file reruns. */
const BUNDLE_SETTINGS = /^(tsconfig.*\.json|jsconfig\.json|package\.json)$/;

/**
 * What the file's run read, for the watch graph: undefined (rerun on any change) when it did not
 * get as far as its tests, since a bundle that failed read only part of what the file needs (a
 * missing import the user is about to write is in no list).
 */
function inputsOf(result: JobResult): readonly string[] | undefined {
  if (result.report.error && result.report.tests.length === 0) return undefined;
  return result.inputs;
}

/** Up to three paths, then how many more. */
function listed(paths: string[]): string {
  return paths.length <= 3 ? paths.join(", ") : `${paths.slice(0, 3).join(", ")} and ${paths.length - 3} more`;
}

/**
 * `--watch` (docs/runner.md, Watch): one run, then each settled batch of changes reruns the test
 * files whose last bundle read a changed file (watchGraph.ts), picks up new test files and drops
 * deleted ones. Folders are watched so that files saved by rename stay watched (watchFolders.ts).
 */
async function watchMode(options: CliOptions): Promise<number> {
  const controller = new AbortController();
  const cwd = process.cwd();
  const shown = (path: string) => {
    const rel = relative(cwd, path);
    return rel === "" || rel.startsWith("..") ? path : rel;
  };
  // Output sent to a file inside the project changes with each run: it is not a change to rerun for.
  const outputFiles = [1, 2].flatMap((fd) => {
    try {
      const stats = fstatSync(fd);
      return stats.isFile() ? [`${stats.dev}:${stats.ino}`] : [];
    } catch {
      return []; // closed
    }
  });
  const ownOutput = (path: string) => {
    if (outputFiles.length === 0) return false;
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats !== undefined && outputFiles.includes(`${stats.dev}:${stats.ino}`);
  };
  const first = await selectFiles(options);
  const graph = new TestGraph();
  graph.setFiles(first.files);
  let stopping = false;
  const queued: string[] = [];
  let draining: Promise<void> | undefined;

  const watcher = new FolderWatcher({
    onBatch: (paths) => {
      queued.push(...paths);
      draining ??= drain().finally(() => (draining = undefined));
    },
    log: (message) => process.stderr.write(`turnlens: ${message}\n`),
  });
  // The project (its config's folder, else the current one), the searched folders, the named files' folders.
  watcher.add(first.config?.root ?? cwd);
  for (const dir of first.dirs) watcher.add(dir);
  for (const file of first.files) watcher.add(dirname(file));

  const run = async (files: string[]) => {
    const summary = await runOnce(files, options, controller.signal, (file, result) => graph.record(file, inputsOf(result)));
    // An input outside the watched folders (a sibling package) is watched from now on.
    for (const input of graph.allInputs()) {
      if (!input.split(sep).includes("node_modules") && !watcher.covers(dirname(input))) watcher.add(dirname(input));
    }
    if (!stopping) process.stderr.write(`\nwatching for changes (${exitCodeOf(summary) === 0 ? "all passed" : "some failed"}); press Ctrl-C to exit\n`);
  };

  const rerunFor = async (changed: string[]) => {
    let added: string[] = [];
    let removed: string[] = [];
    // A deleted path may have been a folder of test files: look for the test files again then too.
    if (changed.some((path) => isTestFile(path) || basename(path) === "package.json" || (!existsSync(path) && graph.reads(path)))) {
      try {
        ({ added, removed } = graph.setFiles((await selectFiles(options)).files));
      } catch (error) {
        process.stderr.write(`${(error as Error).message}\n`);
        return;
      }
    }
    const lines: string[] = [];
    if (removed.length > 0) lines.push(`dropped ${listed(removed.map(shown))}: ${removed.every((file) => !existsSync(file)) ? "deleted" : "no longer included"}`);
    if (added.length > 0) lines.push(`new test file${added.length > 1 ? "s" : ""} ${listed(added.map(shown))}: running ${added.length > 1 ? "them" : "it"}`);
    // A path gone again that no test read was an editor's scratch file (sed -i's, say).
    const handled = new Set([...added, ...removed]);
    const relevant = changed.filter((path) => !handled.has(path) && !ownOutput(path) && (existsSync(path) || graph.reads(path)));
    const settings = relevant.some((path) => BUNDLE_SETTINGS.test(basename(path)));
    const affected = (settings ? graph.files : graph.affected(relevant)).filter((file) => !added.includes(file));
    const names = listed(relevant.map(shown));
    // With a new test file running, whose graph is not known yet, a file no other test reads may well be its.
    if (relevant.length > 0 && affected.length === 0 && added.length === 0)
      lines.push(`changed ${names}: no test imports ${relevant.length > 1 ? "them" : "it"}, nothing to rerun`);
    else if (relevant.length > 0 && affected.length > 0) lines.push(`changed ${names}: rerunning ${listed(affected.map(shown))}`);
    const files = graph.files.filter((file) => affected.includes(file) || added.includes(file));
    if (lines.length > 0) process.stdout.write(`\n${lines.join("\n")}\n`);
    if (files.length > 0 && !stopping) await run(files);
  };

  // One batch at a time: changes during a run wait for it and make one rerun together.
  const drain = async () => {
    while (queued.length > 0 && !stopping) {
      try {
        await rerunFor([...new Set(queued.splice(0))]);
      } catch (error) {
        // A rerun that went wrong is reported; the watch goes on for the next change.
        process.stderr.write(`turnlens: ${(error as Error).stack ?? String(error)}\n`);
      }
    }
  };

  draining = run(first.files)
    .then(drain)
    .finally(() => (draining = undefined));

  return new Promise<number>((resolveExit) => {
    process.once("SIGINT", () => {
      stopping = true;
      controller.abort();
      watcher.close();
      resolveExit(130);
      setImmediate(() => process.exit(130));
    });
  });
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help" || command === "help") {
    (command === undefined ? process.stderr : process.stdout).write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === "init") return initCommand(rest, { stdout: process.stdout, stderr: process.stderr });
  if (command === "record") return recordCommand(rest, { stdout: process.stdout, stderr: process.stderr });
  if (command !== "test") {
    process.stderr.write(`unknown command: ${command}\n\n${USAGE}\n`);
    return 2;
  }
  let options: CliOptions;
  try {
    const parsed = parseTestArgs(rest);
    if (parsed === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    options = parsed;
  } catch (error) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`${error.message}\n${error.showUsage ? `\n${USAGE}\n` : ""}`);
      return 2;
    }
    throw error;
  }

  try {
    if (options.watch) return await watchMode(options);
    const { files } = await selectFiles(options);
    const controller = new AbortController();
    const onSigint = () => {
      controller.abort();
      process.exitCode = 130;
    };
    process.once("SIGINT", onSigint);
    const summary = await runOnce(files, options, controller.signal);
    process.off("SIGINT", onSigint);
    if (controller.signal.aborted) return 130;
    return exitCodeOf(summary);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
