// The `turnlens` command line: `turnlens test [paths] [options]` (parseTestArgs, USAGE; the
// project's config file merged under the flags), its run loop (bail, Ctrl-C, watch mode)
// and `turnlens init [folder]` (init.ts). `turnlens lsp` is dispatched by bin/turnlens.mjs, before this.
import { checkTempFolder, TempFolderError } from "../tempFolder/tempFiles.ts";
import { existsSync, fstatSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { discoverTests, isTestFile, shard, UsageError, type Discovery } from "../project/discover.ts";
import { ConfigError, parsePercent, resolveMaxWorkers, type ProjectConfig, type ReporterChoice } from "../project/configFile.ts";
import { findProjectConfig, loadConfigFile } from "../project/configLoader.ts";
import { suggestName } from "../workflow/unknownOptions.ts";
import { changedTestFiles, ChangedFilesError } from "./changedFiles.ts";
import { initCommand } from "./init.ts";
import { recordCommand } from "../record/record.ts";
import { availableParallelism } from "node:os";
import { MAX_TIMER_MS, workerCap } from "../execution/limits.ts";
import { WorkerPool, type JobResult } from "../execution/pool.ts";
import { takeEarlyWorker } from "./earlyWorker.ts";
import { forkWorker } from "../execution/workerProcess.ts";
import { summarize, type FileReport, type RunSummary, type TestReport } from "../execution/report.ts";
import type { Out } from "./reporters/reporter.ts";
import { chooseReporters, type Chosen, ReporterGroup, ReporterUsageError } from "./reporters/reporterGroup.ts";
import { refuseCodeAsReport } from "./outputFileGuard.ts";
import { importedModules } from "../execution/schemaNames.ts";
import { FolderWatcher } from "./watchFolders.ts";
import { TestGraph } from "./watchGraph.ts";
import { RerunLoopGuard } from "./watchLoop.ts";
import { printCoverage, type CoverageFormat } from "../coverage/coverageReport.ts";
import { DEFAULT_MUTATE_BUDGET_MS, mutateCommand } from "./mutateCommand.ts";
import { prepareTimelineFolder, TimelineFolderError, writeTimelines } from "./timelineFiles.ts";

export const USAGE = `Usage: turnlens test [paths...] [options]

Runs *.test.ts and *.spec.ts files (also .mts .cts .tsx .js .mjs .cjs .jsx), each in a
worker process. Paths are files or folders (searched recursively, skipping node_modules,
dist and dot-folders). Without paths: the "include" list of the project's config
(turnlens.config.ts, .mts, .js, .mjs or .json, or the "turnlens" key of package.json),
else the current folder. Test files import "bun:test" or "vitest" and "agentswf/testing";
Turnlens serves those itself. Flags win over the config file.

Options:
  -t, --testNamePattern <regex>   run only tests whose full name matches (names joined by
                                  " › " or by spaces: "math › adds" and "math adds" both match)
      --testTimeout <duration>    per-test timeout such as 500ms, 10s or 2m (default 5s); 0: none
      --reporter <name>           default, dot, verbose, json, junit, tap, github-actions or
                                  agent; repeat it for several (docs/runner.md, Reporters)
      --outputFile <path>         write the json/junit report to a file (--outputFile.junit=<path>
                                  for one reporter's)
      --silent                    drop what the tests print
      --passWithNoTests           exit 0 when no test ran (nothing found, -t matched nothing,
                                  an empty shard)
      --maxWorkers <n|n%>         at most n worker processes, or n% of the cores
      --bail [n]                  stop after n failed tests (default 1); what finished is reported
      --changed [ref]             only test files changed since the git ref (default: uncommitted
                                  changes), and those importing a changed file
      --shard <i/n>               run the i-th of n shares of the files, such as 1/3
      --config <path>             the config file to use instead of the one found
      --watch                     rerun the tests a changed file affects
      --coverage[=json]           after the run, the outcomes each workflow's agents were given and
                                  the call sites no test reached (json: one document on stdout)
      --mutate[=json]             rerun each passed test with each scripted answer changed, and list
                                  the answers no assertion noticed (docs/mutate.md)
      --mutate-budget <duration>  time a file's mutants may start in (default 30s)
      --mutate-threshold <n>      exit 1 when fewer mutants than this were noticed
      --timeline <dir>            write each test's run timeline to <dir> as HTML, with an index.html
  -h, --help                      print this help
  --test-name-pattern and --timeout are the older names of -t and --testTimeout.

Exit code: 0 when all tests pass, 1 when a test failed or no test ran (0 with
--passWithNoTests), 2 on a usage or config error, 130 when interrupted (Ctrl-C).

turnlens init [folder] [--example] sets a folder up: tsconfig paths for the served modules and,
in a folder with no workflow, a first workflow and its test (turnlens init --help).

turnlens record <run folder> --workflow <file> [--check] writes a test that replays a run from
its run.jsonl and in.jsonl, or checks the run still replays (turnlens record --help).

turnlens lsp --stdio (or --node-ipc) starts the language server for an editor: the tests of the
open files run as you type (turnlens lsp --help).`;

export interface CliOptions {
  paths: string[];
  pattern?: RegExp;
  /** The per-test timeout; `--testTimeout 0` is the longest a timer holds (no timeout). */
  timeoutMs: number;
  /** `--reporter` (repeatable) or the config's `reporters`; empty: the default reporter. */
  reporters: ReporterChoice[];
  /** `--outputFile <path>` (or the config's), or `--outputFile.<reporter>=<path>` per reporter. */
  outputFile?: string | Record<string, string>;
  /** `--silent`: what the tests print is dropped. */
  silent: boolean;
  /** `--passWithNoTests`: exit 0 when no test ran. */
  passWithNoTests: boolean;
  /** `--maxWorkers` as written: a count or a percentage (resolveMaxWorkers). */
  maxWorkers?: number | string;
  /** `--bail [n]`: stop after n failed tests; 0 never stops. */
  bail: number;
  /** `--changed [ref]`: true for the uncommitted changes, else the git ref. */
  changed?: string | true;
  shard?: { index: number; count: number };
  watch: boolean;
  /** `--coverage` (a table) or `--coverage=json` (a document on stdout), printed after the run. */
  coverage?: CoverageFormat;
  /** `--config <path>`: the config file instead of the one found from the current folder. */
  configFile?: string;
  /** Files each worker runs before each test file (the config's `setupFiles`, absolute). */
  setupFiles: string[];
  /** The options a flag set, which the config file does not override. */
  given: ReadonlySet<ConfigurableOption>;
  /** `--mutate` (a table) or `--mutate=json`, with its budget per file and threshold (docs/mutate.md). */
  mutate?: "table" | "json";
  mutateBudgetMs?: number;
  mutateThreshold?: number;
  /** `--timeline <dir>`: each test's run timeline written there as HTML (timelineFiles.ts). */
  timeline?: string;
}

/** The options a config file may set, when no flag did. */
type ConfigurableOption = "pattern" | "timeoutMs" | "reporters" | "outputFile" | "silent" | "passWithNoTests" | "maxWorkers" | "bail";

export class CliUsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = false,
  ) {
    super(message);
  }
}

/** `500ms`, `10s`, `2m`, `1.5s`, or a bare number of milliseconds; `0` when `zero` allows it. */
export function parseDuration(text: string, zero = false): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const ms = m[2] === "s" ? n * 1000 : m[2] === "m" ? n * 60_000 : n;
  return (ms > 0 || (zero && ms === 0)) && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** The test name pattern of `-t`: a regular expression, refused by name when it is not one. */
function namePattern(source: string, where: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new CliUsageError(`${where} needs a valid regular expression: ${(error as Error).message}`);
  }
}

/** Parses the arguments after `test`. Throws CliUsageError. Returns "help" for -h. */
export function parseTestArgs(args: string[], cwd = process.cwd()): CliOptions | "help" {
  const given = new Set<ConfigurableOption>();
  const options: CliOptions = {
    paths: [],
    timeoutMs: 5000,
    reporters: [],
    silent: false,
    passWithNoTests: false,
    bail: 0,
    watch: false,
    setupFiles: [],
    given,
  };
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
    /** A value only when the next argument is one (`accept`), for flags whose value is optional. */
    const optionalValue = (accept: (next: string) => boolean): string | undefined => {
      if (inline !== undefined) return inline;
      const next = args[i + 1];
      if (next === undefined || next.startsWith("-") || !accept(next)) return undefined;
      i++;
      return next;
    };
    const noValue = () => {
      if (inline !== undefined && inline !== "true" && inline !== "false") throw new CliUsageError(`${flag} takes no value`);
      return inline !== "false";
    };
    // `--outputFile.junit=path`: one reporter's file.
    if (flag.startsWith("--outputFile.")) {
      const reporter = flag.slice("--outputFile.".length);
      const v = value();
      if (reporter === "" || v === undefined || v === "") throw new CliUsageError(`${flag} needs a path, such as ${flag || "--outputFile.junit"}=report.xml`);
      options.outputFile = { ...(typeof options.outputFile === "object" ? options.outputFile : {}), [reporter]: v };
      given.add("outputFile");
      continue;
    }
    switch (flag) {
      case "-h":
      case "--help":
        return "help";
      case "-t":
      case "--testNamePattern":
      case "--test-name-pattern": {
        const v = value();
        if (v === undefined || v === "") throw new CliUsageError(`${flag} needs a pattern`);
        options.pattern = namePattern(v, flag);
        given.add("pattern");
        break;
      }
      case "--testTimeout":
      case "--timeout": {
        const v = value();
        const ms = v === undefined ? undefined : parseDuration(v, true);
        if (ms === undefined) throw new CliUsageError(`${flag} needs a duration such as 10s (0: no timeout)`);
        if (ms > MAX_TIMER_MS) throw new CliUsageError(`${flag} takes at most ${MAX_TIMER_MS}ms (about 24 days), what a timer can hold`);
        options.timeoutMs = ms === 0 ? MAX_TIMER_MS : ms;
        given.add("timeoutMs");
        break;
      }
      case "--reporter": {
        const v = value();
        if (v === undefined || v === "") throw new CliUsageError("--reporter needs a name, such as --reporter dot");
        // Repeated, or comma-separated as Vitest also takes them.
        for (const name of v.split(",")) if (name !== "") options.reporters.push({ name, options: {} });
        given.add("reporters");
        break;
      }
      case "--outputFile": {
        const v = value();
        if (v === undefined || v === "") throw new CliUsageError("--outputFile needs a path, such as --outputFile report.json");
        options.outputFile = v;
        given.add("outputFile");
        break;
      }
      case "--silent":
        options.silent = noValue();
        given.add("silent");
        break;
      case "--passWithNoTests":
        options.passWithNoTests = noValue();
        given.add("passWithNoTests");
        break;
      case "--maxWorkers": {
        const v = value();
        const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
        if (v === undefined || (n === undefined && parsePercent(v) === undefined) || n === 0)
          throw new CliUsageError("--maxWorkers needs a number of workers from 1, or a share of the cores such as 50%");
        options.maxWorkers = n ?? v;
        given.add("maxWorkers");
        break;
      }
      case "--bail": {
        const v = optionalValue((next) => /^\d+$/.test(next));
        if (v !== undefined && !/^\d+$/.test(v)) throw new CliUsageError("--bail takes a number of failed tests, such as --bail 3");
        options.bail = v === undefined ? 1 : Number(v);
        given.add("bail");
        break;
      }
      case "--changed": {
        // The next argument is the ref unless it is a path to test (`--changed test/`); `--changed=x` is always a ref.
        const v = optionalValue((next) => !existsSync(resolve(cwd, next)));
        if (v === "") throw new CliUsageError("--changed= needs a git ref, such as --changed=main");
        options.changed = v ?? true;
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
      case "--config": {
        const v = value();
        if (v === undefined || v === "") throw new CliUsageError("--config needs a path, such as --config turnlens.config.ts");
        options.configFile = v;
        break;
      }
      case "--coverage":
        if (inline !== undefined && inline !== "json" && inline !== "table") throw new CliUsageError("--coverage takes no value, or =json");
        options.coverage = inline === "json" ? "json" : "table";
        break;
      case "--mutate":
        if (inline !== undefined && inline !== "json" && inline !== "table") throw new CliUsageError("--mutate takes no value, or =json");
        options.mutate = inline === "json" ? "json" : "table";
        break;
      case "--mutate-budget": {
        const v = value();
        const ms = v === undefined ? undefined : parseDuration(v);
        if (ms === undefined) throw new CliUsageError("--mutate-budget needs a duration such as 30s");
        options.mutateBudgetMs = ms;
        break;
      }
      case "--mutate-threshold": {
        const v = value();
        const n = v === undefined ? Number.NaN : Number(v.replace(/%$/, ""));
        if (!(n >= 0 && n <= 100)) throw new CliUsageError("--mutate-threshold needs a percent from 0 to 100");
        options.mutateThreshold = n;
        break;
      }
      case "--timeline": {
        const v = value();
        if (v === undefined || v === "") throw new CliUsageError("--timeline needs a folder to write the timelines to");
        options.timeline = v;
        break;
      }
      case "--watch":
        if (inline !== undefined) throw new CliUsageError(`unknown option: ${arg}`, true);
        options.watch = true;
        break;
      default:
        throw new CliUsageError(`unknown option: ${flag}${nearestFlag(flag)}`, true);
    }
  }
  if (options.watch && options.shard) throw new CliUsageError("--shard cannot be used with --watch");
  if (options.watch && options.bail > 0) throw new CliUsageError("--bail cannot be used with --watch");
  if (options.mutate && options.watch) throw new CliUsageError("--mutate does not run under --watch");
  return options;
}

/** Every flag of `turnlens test`, for the nearest-name suggestion and the --help test. */
export const FLAGS = [
  "--testNamePattern",
  "--testTimeout",
  "--reporter",
  "--outputFile",
  "--silent",
  "--passWithNoTests",
  "--maxWorkers",
  "--bail",
  "--changed",
  "--shard",
  "--config",
  "--watch",
  "--coverage",
  "--mutate",
  "--mutate-budget",
  "--mutate-threshold",
  "--timeline",
  "--help",
  "--timeout",
  "--test-name-pattern",
];

/** `; did you mean --x?` for a misspelt flag near one of ours. */
function nearestFlag(flag: string): string {
  const nearest = flag.startsWith("--") ? suggestName(flag, FLAGS) : undefined;
  return nearest ? ` (did you mean ${nearest}?)` : "";
}

/**
 * The options with the project config's values where no flag set them (flags win), its setup
 * files, and the reporter names checked; `maxWorkers` stays as written.
 */
export function withConfig(options: CliOptions, config: ProjectConfig | undefined): CliOptions {
  if (!config) return options;
  const merged: CliOptions = { ...options, setupFiles: config.setupFiles };
  const unset = (key: ConfigurableOption) => !options.given.has(key);
  if (unset("pattern") && config.testNamePattern) merged.pattern = config.testNamePattern;
  if (unset("timeoutMs") && config.testTimeout !== undefined) merged.timeoutMs = config.testTimeout === 0 ? MAX_TIMER_MS : config.testTimeout;
  if (unset("reporters") && config.reporters) merged.reporters = config.reporters;
  // A config's output paths are relative to its folder; a flag's, to the current folder.
  if (unset("outputFile") && config.outputFile !== undefined) {
    const from = (path: string) => resolve(config.root, path);
    merged.outputFile =
      typeof config.outputFile === "string" ? from(config.outputFile) : Object.fromEntries(Object.entries(config.outputFile).map(([name, path]) => [name, from(path)]));
  }
  if (unset("silent") && config.silent !== undefined) merged.silent = config.silent;
  if (unset("passWithNoTests") && config.passWithNoTests !== undefined) merged.passWithNoTests = config.passWithNoTests;
  if (unset("maxWorkers") && config.maxWorkers !== undefined) merged.maxWorkers = config.maxWorkers;
  if (unset("bail") && config.bail !== undefined) merged.bail = config.bail;
  return merged;
}

function useColor(stream: { isTTY?: boolean }): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY) && process.env.TERM !== "dumb";
}

function outputs(): Out & { stdout: NodeJS.WriteStream } {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), color: useColor(process.stdout), env: process.env };
}

/** The project's config: `--config`'s file, else the nearest one in the project (configFile.ts). Rejects with a ConfigError. */
function projectConfig(options: CliOptions): Promise<ProjectConfig | undefined> {
  return options.configFile ? loadConfigFile(resolve(process.cwd(), options.configFile)) : findProjectConfig(process.cwd());
}

async function selectFiles(options: CliOptions): Promise<Discovery & { note?: string }> {
  const discovery = await discoverTests(options.paths, process.cwd(), { config: await projectConfig(options) });
  let files = discovery.files;
  if (options.changed !== undefined) files = await changedTestFiles(files, options.changed, process.cwd());
  if (options.shard) files = shard(files, options.shard.index, options.shard.count);
  return { ...discovery, files };
}

/** What stopped a run before its end: Ctrl-C, or `--bail` reached. */
interface RunStop {
  interrupted: boolean;
  bailed: boolean;
  /** Failed tests (and files that could not run) so far, for `--bail`. */
  failures: number;
  /** Files that had started, and ended no test, when the run stopped. */
  unfinished: string[];
}

/**
 * The work left (files not started × the time a file has taken) past which more workers start. A
 * cold worker costs a few hundred milliseconds before its first test runs: on examples/ (11 files,
 * 2 cores, load 9) one worker took 0.86 s and two 1.10 s.
 */
const MORE_WORKERS_AFTER_MS = 1000;
/** Files that end before the time a file takes is believed (a worker's first file loads the engine). */
const FILES_BEFORE_ESTIMATE = 3;

/**
 * `--maxWorkers` (or the config's) above workerCap is lowered to it, with a note on stderr saying
 * what was asked and what it became; otherwise the options are as given.
 */
function capMaxWorkers(options: CliOptions, configFile: string | undefined): CliOptions {
  if (options.maxWorkers === undefined) return options;
  const cores = availableParallelism();
  const asked = resolveMaxWorkers(options.maxWorkers, cores);
  const cap = workerCap(cores);
  if (asked <= cap) return options;
  const where = options.given.has("maxWorkers") ? `--maxWorkers ${options.maxWorkers}` : `maxWorkers ${options.maxWorkers} (${configFile ?? "the config"})`;
  const counted = typeof options.maxWorkers === "string" ? ` (${asked} workers)` : "";
  process.stderr.write(`${where}${counted} is capped at ${cap} workers: twice the ${cores} core${cores === 1 ? "" : "s"}, at least 4\n`);
  return { ...options, maxWorkers: cap };
}

/** Every file through one worker pool, in order; the pool's workers exit (output flushed) before it resolves. */
async function runFiles(
  files: string[],
  options: CliOptions,
  reporter: ReporterGroup,
  stop: RunStop,
  signal?: AbortSignal,
  onResult?: (file: string, result: JobResult) => void,
): Promise<FileReport[]> {
  // One worker to start with; the others once the work left is worth their start (docs/runner.md),
  // up to the cores, or `--maxWorkers`.
  const limit = options.maxWorkers === undefined ? availableParallelism() : resolveMaxWorkers(options.maxWorkers, availableParallelism());
  const cores = Math.max(1, Math.min(limit, files.length));
  let size = 1;
  // The first pool's first worker was forked as the command began (cliStart.ts).
  const pool = new WorkerPool({ size: () => size, bundleAhead: true, factory: () => takeEarlyWorker() ?? forkWorker() });
  let unstarted = files.length;
  let endedFiles = 0;
  let firstStart: number | undefined;
  const running = new Map<string, number>();
  const started = new Set<string>();
  const growIfWorthIt = () => {
    if (size >= cores || unstarted === 0 || firstStart === undefined) return;
    const now = performance.now();
    const oldest = Math.max(0, ...[...running.values()].map((since) => now - since));
    const perFile = endedFiles >= FILES_BEFORE_ESTIMATE ? (now - firstStart) / endedFiles : 0;
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
  const setup = options.setupFiles.length > 0 ? { setupFiles: options.setupFiles } : {};
  const reports = await Promise.all(
    files.map(async (file): Promise<FileReport> => {
      // The tests a file ended before the run stopped are reported, under its name.
      const ended: TestReport[] = [];
      // The agent reporter's fixes name the schemas a new entry answers with, as the editor's do.
      const schemaModules = reporter.needsSchemaNames ? { schemaModules: importedModules(readIfThere(file)) } : {};
      const result = await pool.run({ file, timeoutMs: options.timeoutMs, ...traces, ...pattern, ...setup, ...schemaModules }, undefined, {
        onStart: () => {
          started.add(file);
          unstarted--;
          firstStart ??= performance.now();
          running.set(file, performance.now());
          reporter.fileStart(file);
        },
        onEvent: (event) => {
          if (event.type !== "test" || stop.interrupted || stop.bailed) return;
          ended.push(event.report);
          reporter.testEnd(file, event.report);
          if (event.report.status === "failed") failed(1);
        },
        onOutput: (text, stream) => reporter.output(text, stream, file),
      });
      running.delete(file);
      endedFiles++;
      growIfWorthIt();
      const report: FileReport = result?.report ?? { file, tests: ended, durationMs: 0, stopped: true };
      if (result) onResult?.(file, result);
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

/** A file's text, or "" when it is gone (deleted while watched): the worker reports that itself. */
function readIfThere(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Runs the files once and reports; resolves to the summary and what stopped it, if anything. */
async function runOnce(
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
  signal?.addEventListener("abort", () => (stop.interrupted = !stop.bailed), { once: true });
  reporter.start(files.length);
  const reports = await runFiles(files, options, reporter, stop, signal, onResult);
  const summary = summarize(reports);
  const finished = reports.filter((report) => !report.stopped).length;
  const ofFiles = `${finished} of ${files.length} file${files.length === 1 ? "" : "s"} finished`;
  const cwd = process.cwd();
  const unfinished = stop.unfinished.length > 0 ? `, stopped while ${listed(stop.unfinished.map((file) => relative(cwd, file) || file))} ran` : "";
  let note: string | undefined;
  if (stop.interrupted) note = `interrupted (Ctrl-C): ${ofFiles}${unfinished}`;
  else if (stop.bailed) note = `bailed out after ${stop.failures} failure${stop.failures === 1 ? "" : "s"} (--bail ${options.bail}): ${ofFiles}${unfinished}`;
  else if (summary.passed + summary.failed === 0) {
    const allow = options.passWithNoTests ? " (--passWithNoTests: exit 0)" : "; --passWithNoTests exits 0 then";
    if (files.length === 0)
      note = `no test ran: no test files found${options.changed !== undefined ? " changed" : ""}${options.shard ? ` in shard ${options.shard.index}/${options.shard.count}` : ""}${allow}`;
    else if (options.pattern) note = `no test ran: no test name matched ${options.pattern}${allow}`;
    else note = `no test ran${allow}`;
  }
  reporter.finish(summary, performance.now() - started, note);
  // The table beside a json or junit document would break it: it goes to stderr then.
  if (options.coverage && !stop.interrupted)
    printCoverage(reports, options.coverage, options.coverage === "table" && reporter.stdoutIsDocument ? { ...out, stdout: process.stderr } : out);
  let timelineFailed = false;
  if (options.timeline) {
    try {
      const written = writeTimelines(reports, options.timeline, out.cwd);
      const shown = relative(out.cwd, written.index);
      process.stderr.write(`timelines: ${written.pages} tests in ${shown.startsWith("..") || !shown ? written.index : shown}\n`);
    } catch (error) {
      // The folder was checked before the run; one changed since gets the same words, and fails the run.
      if (!(error instanceof TimelineFolderError)) throw error;
      process.stderr.write(`${error.message}\n`);
      timelineFailed = true;
    }
  }
  // A report file or a timeline that could not be written fails the run.
  return { summary: reporter.writeFailed || timelineFailed ? { ...summary, failed: Math.max(1, summary.failed) } : summary, stop };
}

function exitCodeOf(summary: RunSummary, options: CliOptions): number {
  if (summary.failed > 0) return 1;
  return summary.passed === 0 && !options.passWithNoTests ? 1 : 0;
}

/** Files whose change alters how every test file bundles: every test file reruns. */
const BUNDLE_SETTINGS = /^(tsconfig.*\.json|jsconfig\.json|package\.json|turnlens\.config\.[cm]?[jt]s|turnlens\.config\.json)$/;

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
  const loopGuard = new RerunLoopGuard(shown);
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
    loopGuard.runStarted(files);
    const { summary } = await runOnce(files, options, controller.signal, (file, result) => graph.record(file, inputsOf(result))).finally(() => loopGuard.runEnded());
    // An input outside the watched folders (a sibling package) is watched from now on.
    for (const input of graph.allInputs()) {
      if (!input.split(sep).includes("node_modules") && !watcher.covers(dirname(input))) watcher.add(dirname(input));
    }
    if (!stopping) process.stderr.write(`\nwatching for changes (${exitCodeOf(summary, options) === 0 ? "all passed" : "some failed"}); press Ctrl-C to exit\n`);
  };

  const rerunFor = async (changed: string[]) => {
    let added: string[] = [];
    let removed: string[] = [];
    // A deleted path may have been a folder of test files: look for the test files again then too.
    if (changed.some((path) => isTestFile(path) || BUNDLE_SETTINGS.test(basename(path)) || (!existsSync(path) && graph.reads(path)))) {
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
    const candidates = changed.filter((path) => !handled.has(path) && !ownOutput(path) && (existsSync(path) || graph.reads(path)));
    // A file the last run wrote, run after run, is the run's own doing (watchLoop.ts).
    const verdict = loopGuard.judge(candidates.filter((path) => graph.reads(path)));
    lines.push(...verdict.lines);
    const relevant = candidates.filter((path) => !graph.reads(path) || verdict.rerunFor.includes(path));
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
  let reportFiles: Chosen[];
  let configFile: string | undefined;
  try {
    const parsed = parseTestArgs(rest);
    if (parsed === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    // Before any file is bundled: a temporary folder another user made is said once, not per file.
    checkTempFolder();
    const config = await projectConfig(parsed);
    options = capMaxWorkers(withConfig(parsed, config), config?.file);
    reportFiles = chooseReporters(options.reporters, options.outputFile, process.env);
    configFile = config?.file;
    refuseCodeAsReport(reportFiles, process.cwd(), [], configFile);
  } catch (error) {
    if (error instanceof TempFolderError) {
      process.stderr.write(`turnlens: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CliUsageError || error instanceof ReporterUsageError) {
      process.stderr.write(`${error.message}\n${error instanceof CliUsageError && error.showUsage ? `\n${USAGE}\n` : ""}`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }

  try {
    // A folder the timelines may not go into is refused before the run, not after it.
    if (options.timeline) prepareTimelineFolder(options.timeline);
    if (options.watch) return await watchMode(options);
    const { files } = await selectFiles(options);
    // A test file the run found is never a report's file, whatever its name.
    refuseCodeAsReport(reportFiles, process.cwd(), files, configFile);
    const controller = new AbortController();
    // Ctrl-C stops the run: every worker is killed, what finished is reported, and the exit is 130.
    // A second Ctrl-C while that report is written ends at once.
    const onSigint = () => {
      if (controller.signal.aborted) process.exit(130);
      controller.abort();
      process.exitCode = 130;
    };
    process.on("SIGINT", onSigint);
    if (options.mutate) {
      const { mutate: format, mutateBudgetMs: budgetMs = DEFAULT_MUTATE_BUDGET_MS, mutateThreshold } = options;
      const mutateOptions = { ...options, format, budgetMs, ...(mutateThreshold !== undefined ? { threshold: mutateThreshold } : {}) };
      return await mutateCommand(files, mutateOptions, outputs(), controller.signal).finally(() => process.off("SIGINT", onSigint));
    }
    const { summary, stop } = await runOnce(files, options, controller.signal);
    process.off("SIGINT", onSigint);
    if (stop.interrupted) return 130;
    return exitCodeOf(summary, options);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof ChangedFilesError || error instanceof TimelineFolderError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
