// The `turnlens` command line: `turnlens test [paths] [-t pattern] [--watch] [--timeout 5s] [--reporter pretty|json|junit] [--shard i/n]`
// and `turnlens init [folder]` (init.ts). `turnlens lsp` is dispatched by bin/turnlens.mjs, before this.
import { existsSync, readdirSync, watch, type FSWatcher } from "node:fs";
import { basename, join, resolve, sep } from "node:path";
import { discoverTests, isTestFile, shard, UsageError, type Discovery } from "./discover.ts";
import { initCommand } from "./init.ts";
import { availableParallelism } from "node:os";
import { MAX_TIMER_MS } from "./limits.ts";
import { WorkerPool } from "./pool.ts";
import { takeEarlyWorker } from "./earlyWorker.ts";
import { forkWorker } from "./workerProcess.ts";
import { summarize, type FileReport, type RunSummary } from "./report.ts";
import { makeReporter, type Out, type ReporterName } from "./reporters.ts";

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
      --watch                      rerun tests when files change
  -h, --help                       print this help

Exit code: 0 when all tests pass, 1 when a test failed or no test ran, 2 on a usage error.

turnlens init [folder] [--example] sets a folder up: tsconfig paths for the served modules and,
in a folder with no workflow, a first workflow and its test (turnlens init --help).

turnlens lsp --stdio (or --node-ipc) starts the language server for an editor: the tests of the
open files run as you type (turnlens lsp --help).`;

export interface CliOptions {
  paths: string[];
  pattern?: RegExp;
  timeoutMs: number;
  reporter: ReporterName;
  shard?: { index: number; count: number };
  watch: boolean;
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
async function runFiles(files: string[], options: CliOptions, reporter: ReturnType<typeof makeReporter>, signal?: AbortSignal): Promise<FileReport[]> {
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
  const traces = options.reporter === "json" ? {} : { traces: false as const };
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
async function runOnce(files: string[], options: CliOptions, signal?: AbortSignal): Promise<RunSummary> {
  const started = performance.now();
  const reporter = makeReporter(options.reporter, outputs());
  reporter.start(files.length);
  const reports = await runFiles(files, options, reporter, signal);
  const summary = summarize(reports);
  let note: string | undefined;
  if (summary.passed + summary.failed === 0) {
    note = files.length === 0 ? "no test ran: no test files found" : "no test ran";
  }
  reporter.finish(summary, performance.now() - started, note);
  return summary;
}

function exitCodeOf(summary: RunSummary): number {
  return summary.failed > 0 || summary.passed + summary.failed === 0 ? 1 : 0;
}

const IGNORED_DIR = /(^|[\\/])(node_modules|dist|\.[^\\/]+)([\\/]|$)/;

async function watchMode(options: CliOptions): Promise<number> {
  const controller = new AbortController();
  let current = await selectFiles(options);
  const watchers: FSWatcher[] = [];
  const changedTests = new Set<string>();
  let changedOther = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  let stopping = false;

  const run = async (files: string[]) => {
    const summary = await runOnce(files, options, controller.signal);
    if (!stopping) process.stderr.write(`\nwatching for changes (${exitCodeOf(summary) === 0 ? "all passed" : "some failed"}); press Ctrl-C to exit\n`);
  };

  const rerun = async () => {
    if (running) {
      timer = setTimeout(() => void rerun(), 100);
      return;
    }
    const tests = [...changedTests];
    const all = changedOther;
    changedTests.clear();
    changedOther = false;
    let files: string[];
    try {
      current = await selectFiles(options);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      return;
    }
    if (all) files = current.files;
    else files = tests.filter((f) => existsSync(f) && (current.files.includes(f) || options.paths.length > 0));
    if (files.length === 0) return;
    process.stdout.write(`\n${all ? "files changed: rerunning all tests" : `rerunning ${files.map((f) => basename(f)).join(", ")}`}\n`);
    running = run(files).finally(() => (running = null));
  };

  const onChange = (dir: string, filename: string | Buffer | null) => {
    if (!filename) return;
    const name = filename.toString();
    if (IGNORED_DIR.test(name)) return;
    const abs = resolve(dir, name);
    if (isTestFile(abs)) changedTests.add(abs);
    else if (/\.(m|c)?[jt]sx?$|\.json$/.test(abs)) changedOther = true;
    else return;
    clearTimeout(timer);
    timer = setTimeout(() => void rerun(), 150);
  };

  // Watch the searched folders and the project's own top-level folders (sources a test imports),
  // never node_modules or dist.
  const roots = new Set<string>(current.dirs);
  const projectRoot = current.config?.root ?? process.cwd();
  for (const entry of readdirSync(projectRoot, { withFileTypes: true })) {
    if (entry.isDirectory() && !IGNORED_DIR.test(entry.name)) roots.add(join(projectRoot, entry.name));
  }
  for (const file of current.files) if (!roots.has(file)) roots.add(join(file, "..") + sep);
  const watched: string[] = [];
  for (const root of roots) {
    const dir = root.endsWith(sep) ? root.slice(0, -1) : root;
    if (watched.some((w) => dir === w || dir.startsWith(w + sep))) continue;
    try {
      watchers.push(watch(dir, { recursive: true }, (_event, filename) => onChange(dir, filename)));
      watched.push(dir);
    } catch {
      // a folder we cannot watch is skipped
    }
  }
  try {
    watchers.push(watch(projectRoot, { recursive: false }, (_event, filename) => onChange(projectRoot, filename)));
  } catch {
    // ignore
  }

  running = run(current.files).finally(() => (running = null));

  return new Promise<number>((resolveExit) => {
    process.once("SIGINT", () => {
      stopping = true;
      controller.abort();
      for (const w of watchers) w.close();
      clearTimeout(timer);
      resolveExit(130);
      // Recursive fs.watch can keep internal handles open; Ctrl-C must end the command.
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
