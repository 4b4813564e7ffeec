// Runs one test file in this process: bundle, import (which declares the tests), then run the
// declared tests one at a time with hooks, timeouts and the trace of every testWorkflow call.
// A library function: the CLI's workers call it, and so will the language server's worker.
import { unlinkSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { subscribeToRuns, type RunTrace } from "../testing/trace.ts";
import { nameSchemasWith } from "../testing/schemaNaming.ts";
import { schemaNamerFor } from "./schemaNames.ts";
import {
  type AnyFn,
  type Flavour,
  type HookEntry,
  type SuiteNode,
  type TestNode,
  beginCollect,
  endCollect,
  fileDefaultTimeout,
  setRunning,
  SkipSignal,
} from "../testApi/collector.ts";
import type { ErrorReport, FileReport, Site, TestReport } from "./report.ts";
import { jsonSafe } from "./jsonSafe.ts";
import { fullName } from "./report.ts";
import { errorReport, locationOf, readableThrown } from "./stack.ts";
import { fileSnapshots, snapshotTestStarts, type SnapshotUpdate } from "./snapshotRun.ts";
import { beginFileScope, endFileScope, fileStartedAnything } from "./leftovers.ts";
import { beginNetworkUse, endNetworkUse } from "./networkUse.ts";
import { timerDelay } from "./limits.ts";
import { guardProcess, routeStrayErrors } from "./processGuard.ts";
import { installTestGlobals } from "../testApi/testGlobals.ts";
import { expect, type TestContext } from "../testApi/testApi.ts";
import { expectAfterBody, finishExpectTest, startExpectTest } from "../testApi/vitestExpect.ts";
import { setTestForExpect } from "../testApi/expectTest.ts";
import { BundleError, bundlePathFor, bundleTestFile, takeBundledAhead } from "./transform.ts";
import { writeExclusivelySync } from "../tempFolder/privateFolder.ts";
import { noteBundle } from "./bundleMaps.ts";
import { importModule } from "./importModule.ts";
import { installMutationPlan, startMutatedTest, type MutationPlan } from "../testing/scriptMutation.ts";
import { keepSessionBundle, sessionBundle } from "./mutantBundles.ts";
import { performanceNow, realTimers, SafeMap, SafeSet } from "./primordials.ts";
import { restoreFileMocks } from "../testApi/testApi.ts";
import { resetModuleMocks } from "../testApi/viModules.ts";
import { dirname, isAbsolute, relative, sep } from "node:path";
import { beginFileSystemReach, endFileSystemReach, type FileSystemReach } from "./fileSystemReach.ts";
import { processTempFolderPath, tempRootPath } from "../tempFolder/tempFiles.ts";
import { snapshotFileOf } from "./paths.ts";
import type { LoadedBundle } from "./v8Coverage.ts";
import { runOnVitestRunner } from "./vitestRunner.ts";

/**
 * What a file's code reached as it ran, beyond its bundle: the paths it read, and whether it
 * changed files outside the runner's folders, started a process, a thread or a native addon, or
 * used the network. `--cache` keys a result on the first and never stores one after the others.
 */
export interface FileReach extends FileSystemReach {
  started?: true;
  network?: true;
}

export interface RunFileOptions {
  /** Absolute path of the test file. */
  file: string;
  /** The file's text to run instead of what is on disk (an editor's unsaved buffer). */
  source?: string;
  /** Texts to bundle instead of the disk's, by absolute path (an editor's open buffers); `source` wins for the file. */
  sources?: Readonly<Record<string, string>>;
  /** The project files the file's bundle read (the file first), once it is bundled or failed to be. */
  onInputs?: (inputs: string[]) => void;
  /** What the file's code reached as it ran (FileReach), once it ended; recorded only when given (`--cache`). */
  onReach?: (reach: FileReach) => void;
  /** Only tests whose full name (describe names and test name, space separated) matches run. */
  testNamePattern?: RegExp;
  /** Default per-test timeout. */
  timeoutMs: number;
  /** Cancels the run: the running test fails as cancelled and no further test starts. */
  signal?: AbortSignal;
  /** Only the tests with these ids run; the others are not reported (resuming a killed file). */
  onlyIds?: readonly string[];
  /** Progress, for a watchdog or a live view. */
  onEvent?: (event: RunEvent) => void;
  /** `false`: each test's report has no run traces (`runs` stays empty), for a reporter that shows none. */
  traces?: false;
  /** `turnlens test --mutate`: installed for this file's tests (core/testing/scriptMutation.ts). */
  mutation?: MutationPlan;
  /** The bundle about to be imported (its URL and text), for line coverage (v8Coverage.ts). */
  onBundle?: (bundle: LoadedBundle) => void;
  /** What snapshots are written (`-u`: all; CI: none); absent, snapshotRun.ts's default. */
  updateSnapshot?: SnapshotUpdate;
}

/** What the file runner is doing, so a parent process can tell what hung or crashed. */
export type Phase = { kind: "bundle" } | { kind: "load" } | { kind: "beforeAll" | "afterAll"; suite: string[] } | { kind: "test"; test: TestInfo };

export interface TestInfo {
  id: string;
  name: string;
  path: string[];
  location?: Site;
}

export type RunEvent = { type: "phase"; phase: Phase; deadlineMs: number } | { type: "collected"; tests: TestInfo[] } | { type: "test"; report: TestReport };

// ---------------------------------------------------------------------------------------------
// Calling test and hook functions with a timeout, a done callback and interruption.

class Interrupt {
  private listener: ((error: unknown) => void) | null = null;
  /** Errors of the test that is open but not awaiting anything right now. */
  scope: unknown[] | null = null;
  /** Errors raised when no test was open. */
  readonly stray: unknown[] = [];
  fail(thrown: unknown): void {
    const error = readableThrown(thrown);
    if (this.listener) this.listener(error);
    else if (this.scope) this.scope.push(error);
    else this.stray.push(error);
  }
  listen(listener: ((error: unknown) => void) | null): void {
    this.listener = listener;
  }
}

class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TimeoutError";
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as PromiseLike<unknown>).then === "function";
}

interface CallOptions {
  timeoutMs: number;
  what: string;
  interrupt: Interrupt;
  /** Wait for the done callback when the function takes a parameter and returns no promise. */
  doneStyle: boolean;
  controller: AbortController;
  makeContext: (done: (error?: unknown) => void) => unknown;
  args?: unknown[];
}

/** Calls fn; resolves with its result, rejects with its error, a timeout or an interruption. */
function call(fn: AnyFn, options: CallOptions): Promise<unknown> {
  return new Promise((resolvePromise, rejectPromise) => {
    let settled = false;
    const finish = (ok: boolean, value: unknown) => {
      if (settled) return;
      settled = true;
      realTimers.clearTimeout(timer);
      options.interrupt.listen(null);
      if (ok) resolvePromise(value);
      else rejectPromise(readableThrown(value));
    };
    // Clamped: a timer given 2^31 ms or more would fire at once. Real, whatever timers the test faked.
    const timer = realTimers.setTimeout(() => {
      options.controller.abort();
      finish(false, new TimeoutError(`${options.what} timed out after ${options.timeoutMs}ms`));
    }, timerDelay(options.timeoutMs));
    options.interrupt.listen((error) => finish(false, error));
    const done = (error?: unknown) => {
      if (error === undefined || error === null) finish(true, undefined);
      else finish(false, error instanceof Error ? error : new Error(String(error)));
    };
    try {
      const args = options.args ?? [options.makeContext(done)];
      const result = fn(...args);
      if (isThenable(result)) {
        result.then(
          (value) => finish(true, value),
          (error) => finish(false, error ?? new Error(`${options.what} rejected with ${String(error)}`)),
        );
      } else if (!(options.doneStyle && fn.length > 0 && !options.args)) {
        finish(true, result);
      }
    } catch (error) {
      finish(false, error);
    }
  });
}

/** Lets unhandled rejections of what just ran surface while it still counts as running. */
function settle(): Promise<void> {
  return new Promise((r) => realTimers.setImmediate(r));
}

// ---------------------------------------------------------------------------------------------
// The plan: ids, selection.

type Selection = "run" | "skip" | "todo" | "omit";

interface Planned {
  node: TestNode;
  info: TestInfo;
  selection: Selection;
}

function suitePath(suite: SuiteNode | undefined): string[] {
  const names: string[] = [];
  for (let s = suite; s?.parent; s = s.parent) names.unshift(s.name);
  return names;
}

function anyOnly(suite: SuiteNode): boolean {
  return suite.children.some((c) => c.only || (c.kind === "suite" && anyOnly(c)));
}

// The plan's maps are SafeMaps: a test that spies on Map.prototype.get (and forgets to restore it)
// must not make the runner lose the tests it declared (primordials.ts).
function plan(root: SuiteNode, options: RunFileOptions): SafeMap<TestNode, Planned> {
  const planned = new SafeMap<TestNode, Planned>();
  const seen = new SafeMap<string, number>();
  const hasOnly = anyOnly(root);
  const onlyIds = options.onlyIds ? new SafeSet(options.onlyIds) : undefined;
  const walk = (suite: SuiteNode, skipped: boolean, only: boolean) => {
    for (const child of suite.children) {
      if (child.kind === "suite") {
        walk(child, skipped || child.skip, only || child.only);
        continue;
      }
      const path = [...suitePath(suite), child.name];
      const base = path.join(" › ");
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const id = count === 1 ? base : `${base} (${count})`;
      const info: TestInfo = { id, name: child.name, path };
      if (child.site) info.location = child.site;
      let selection: Selection = "run";
      if (onlyIds && !onlyIds.has(id)) selection = "omit";
      else if (child.todo) selection = "todo";
      else if (skipped || child.skip) selection = "skip";
      else if (hasOnly && !(only || child.only)) selection = "skip";
      else if (options.testNamePattern && !matchesName(options.testNamePattern, path)) selection = "skip";
      planned.set(child, { node: child, info, selection });
    }
  };
  walk(root, root.skip, root.only);
  return planned;
}

/**
 * `-t` against the full name joined by spaces, or by ` › ` (how Turnlens prints it) or ` > ` (how
 * Vitest does): a name copied from either's output matches.
 */
function matchesName(pattern: RegExp, path: readonly string[]): boolean {
  return [fullName(path), path.join(" › "), path.join(" > ")].some((name) => {
    pattern.lastIndex = 0;
    return pattern.test(name);
  });
}

// ---------------------------------------------------------------------------------------------
// Running

function failedReport(info: TestInfo, error: ErrorReport, durationMs = 0): TestReport {
  const report: TestReport = { id: info.id, name: info.name, path: info.path, status: "failed", durationMs, error, runs: [] };
  if (info.location) report.location = info.location;
  return report;
}

class FileRun {
  readonly reports: TestReport[] = [];
  readonly interrupt = new Interrupt();
  private currentRuns: RunTrace[] | null = null;
  private cancelled = false;
  private hookFlavour: Flavour = "bun";

  constructor(
    private readonly options: RunFileOptions,
    private readonly planned: SafeMap<TestNode, Planned>,
    /** What the file's top-level `setDefaultTimeout` set while it loaded. */
    private readonly declaredTimeout?: number,
  ) {}

  setHookFlavour(flavour: Flavour): void {
    this.hookFlavour = flavour;
  }

  emit(event: RunEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // a listener's failure must not change the run
    }
  }

  record(report: TestReport): void {
    const safe = jsonSafe(report);
    this.reports.push(safe);
    this.emit({ type: "test", report: safe });
  }

  onRun(trace: RunTrace): void {
    this.currentRuns?.push(trace);
  }

  cancel(): void {
    this.cancelled = true;
    this.interrupt.fail(new Error("the run was cancelled"));
  }

  private defaultTimeout(): number {
    return fileDefaultTimeout() ?? this.declaredTimeout ?? this.options.timeoutMs;
  }

  private context(name: string, controller: AbortController, finishers: AnyFn[], done: (e?: unknown) => void): TestContext {
    const ctx = ((error?: unknown) => done(error)) as TestContext;
    ctx.expect = expect;
    ctx.task = { name };
    ctx.skip = (note?: string): never => {
      throw new SkipSignal(note);
    };
    ctx.signal = controller.signal;
    ctx.onTestFinished = (fn) => {
      finishers.push(fn as AnyFn);
    };
    return ctx;
  }

  private async hook(entry: HookEntry, kind: string, name: string, finishers: AnyFn[], teardowns: AnyFn[]): Promise<void> {
    const controller = new AbortController();
    const timeoutMs = entry.timeout ?? this.defaultTimeout();
    const result = await call(entry.fn, {
      timeoutMs,
      what: `${kind} hook`,
      interrupt: this.interrupt,
      doneStyle: this.hookFlavour === "bun",
      controller,
      makeContext: (done) => this.context(name, controller, finishers, done),
    });
    if (typeof result === "function" && (kind === "beforeAll" || kind === "beforeEach")) teardowns.push(result as AnyFn);
    await settle();
  }

  /** Runs `fns` (each failure recorded), used for teardowns and finishers. */
  private async runAll(fns: AnyFn[], what: string, errors: unknown[]): Promise<void> {
    for (const fn of fns) {
      try {
        await call(fn, {
          timeoutMs: this.defaultTimeout(),
          what,
          interrupt: this.interrupt,
          doneStyle: false,
          controller: new AbortController(),
          makeContext: () => undefined,
          args: [],
        });
      } catch (error) {
        errors.push(error);
      }
    }
  }

  private hasRunnable(suite: SuiteNode): boolean {
    return suite.children.some((c) => (c.kind === "suite" ? this.hasRunnable(c) : this.planned.get(c)?.selection === "run"));
  }

  private reportUnrun(suite: SuiteNode, error?: ErrorReport): void {
    for (const child of suite.children) {
      if (child.kind === "suite") {
        this.reportUnrun(child, error);
        continue;
      }
      const p = this.planned.get(child);
      if (!p || p.selection === "omit") continue;
      if (error && p.selection === "run") this.record(failedReport(p.info, error));
      else {
        const status = p.selection === "todo" ? "todo" : "skipped";
        const report: TestReport = { id: p.info.id, name: p.info.name, path: p.info.path, status, durationMs: 0, runs: [] };
        if (p.info.location) report.location = p.info.location;
        this.record(report);
      }
    }
  }

  async runSuite(suite: SuiteNode, chain: SuiteNode[]): Promise<void> {
    if (this.cancelled) return;
    if (!this.hasRunnable(suite)) {
      this.reportUnrun(suite);
      return;
    }
    const path = suitePath(suite);
    const teardowns: AnyFn[] = [];
    let beforeAllError: ErrorReport | undefined;
    for (const entry of suite.hooks.beforeAll) {
      this.emit({ type: "phase", phase: { kind: "beforeAll", suite: path }, deadlineMs: entry.timeout ?? this.defaultTimeout() });
      try {
        await this.hook(entry, "beforeAll", path.join(" "), [], teardowns);
      } catch (error) {
        beforeAllError = errorReport(error, this.options.file);
        beforeAllError.message = `beforeAll hook failed: ${beforeAllError.message}`;
        if (!beforeAllError.location && entry.site) beforeAllError.location = entry.site;
        break;
      }
    }
    if (beforeAllError) {
      this.reportUnrun(suite, beforeAllError);
    } else {
      const nextChain = [...chain, suite];
      for (const child of suite.children) {
        if (this.cancelled) break;
        if (child.kind === "suite") await this.runSuite(child, nextChain);
        else await this.runTest(child, nextChain);
      }
    }
    const afterErrors: unknown[] = [];
    for (const entry of suite.hooks.afterAll) {
      this.emit({ type: "phase", phase: { kind: "afterAll", suite: path }, deadlineMs: entry.timeout ?? this.defaultTimeout() });
      try {
        await this.hook(entry, "afterAll", path.join(" "), [], []);
      } catch (error) {
        afterErrors.push(error);
      }
    }
    await this.runAll(teardowns.reverse(), "beforeAll teardown", afterErrors);
    if (afterErrors.length > 0) {
      const info: TestInfo = { id: [...path, "afterAll hook"].join(" › "), name: "afterAll hook", path: [...path, "afterAll hook"] };
      const site = suite.hooks.afterAll[0]?.site;
      if (site) info.location = site;
      const error = errorReport(afterErrors[0], this.options.file);
      error.message = `afterAll hook failed: ${error.message}`;
      this.record(failedReport(info, error));
    }
  }

  async runTest(node: TestNode, chain: SuiteNode[]): Promise<void> {
    const p = this.planned.get(node);
    if (!p || p.selection === "omit") return;
    if (p.selection !== "run") {
      const report: TestReport = {
        id: p.info.id,
        name: p.info.name,
        path: p.info.path,
        status: p.selection === "todo" ? "todo" : "skipped",
        durationMs: 0,
        runs: [],
      };
      if (p.info.location) report.location = p.info.location;
      this.record(report);
      return;
    }
    const timeoutMs = node.timeout ?? this.defaultTimeout();
    const started = performanceNow();
    const name = fullName(p.info.path);
    let runs: RunTrace[] = [];
    let errors: unknown[] = [];
    let skipped = false;
    for (let attempt = 0; attempt <= node.retry; attempt++) {
      runs = [];
      errors = [];
      skipped = false;
      this.currentRuns = runs;
      if (this.options.mutation) startMutatedTest();
      this.interrupt.scope = errors;
      const finishers: AnyFn[] = [];
      const teardowns: AnyFn[] = [];
      setRunning({ name, finishers, path: p.info.path, id: p.info.id });
      snapshotTestStarts(p.info.id);
      const expectTask = startExpectTest(p.info.path, this.options.file);
      const phaseDeadline = (hookTimeout?: number) => this.emit({ type: "phase", phase: { kind: "test", test: p.info }, deadlineMs: hookTimeout ?? timeoutMs });
      // Without beforeEach hooks the body's own phase (below) follows at once: one message, not two.
      if (!node.fn || chain.some((suite) => suite.hooks.beforeEach.length > 0)) phaseDeadline();
      try {
        for (const suite of chain) {
          for (const entry of suite.hooks.beforeEach) {
            phaseDeadline(entry.timeout ?? this.defaultTimeout());
            await this.hook(entry, "beforeEach", name, finishers, teardowns);
          }
        }
        if (node.fn) {
          phaseDeadline();
          const controller = new AbortController();
          await call(node.fn, {
            timeoutMs,
            what: `test "${node.name}"`,
            interrupt: this.interrupt,
            doneStyle: node.flavour === "bun",
            controller,
            makeContext: (done) => this.context(name, controller, finishers, done),
            ...(node.args ? { args: node.args } : {}),
          });
          await expectAfterBody(expectTask);
          await settle();
        }
      } catch (error) {
        if (error instanceof SkipSignal) skipped = true;
        else errors.push(error);
      }
      for (const suite of [...chain].reverse()) {
        for (const entry of suite.hooks.afterEach) {
          phaseDeadline(entry.timeout ?? this.defaultTimeout());
          try {
            await this.hook(entry, "afterEach", name, finishers, []);
          } catch (error) {
            errors.push(error);
          }
        }
      }
      await this.runAll(teardowns.reverse(), "beforeEach teardown", errors);
      await this.runAll(finishers, "onTestFinished callback", errors);
      const fromExpect = await finishExpectTest(expectTask);
      errors = [...fromExpect.soft, ...errors, ...fromExpect.atEnd];
      setRunning(null);
      this.interrupt.scope = null;
      if (node.failing && !skipped) {
        errors = errors.length > 0 ? [] : [new Error("this test is marked failing, but it passed")];
      }
      if (errors.length === 0 || this.cancelled) break;
    }
    this.currentRuns = null;
    const report: TestReport = {
      id: p.info.id,
      name: p.info.name,
      path: p.info.path,
      status: skipped ? "skipped" : errors.length > 0 ? "failed" : "passed",
      durationMs: Math.round((performanceNow() - started) * 100) / 100,
      runs,
    };
    if (p.info.location) report.location = p.info.location;
    if (errors.length > 0) {
      const error = errorReport(errors[0], this.options.file);
      if (!error.location && node.site) error.location = node.site;
      if (errors.length > 1) {
        error.message += `\n\n(and ${errors.length - 1} more error${errors.length > 2 ? "s" : ""}: ${errors
          .slice(1)
          .map((e) => (e instanceof Error ? e.message : String(e)).split("\n")[0])
          .join("; ")})`;
      }
      report.error = error;
    }
    this.record(report);
  }
}

// ---------------------------------------------------------------------------------------------

/** Runs one test file and reports every test it declares. Never throws for a bad test file. */
export async function runTestFile(options: RunFileOptions): Promise<FileReport> {
  guardProcess();
  installTestGlobals();
  const started = performanceNow();
  const file = options.file;
  const finish = (tests: TestReport[], error?: ErrorReport): FileReport => {
    const report: FileReport = { file, tests, durationMs: Math.round((performanceNow() - started) * 100) / 100 };
    if (error) report.error = error;
    return report;
  };
  const emit = (event: RunEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // ignore
    }
  };

  // 1. Bundle.
  emit({ type: "phase", phase: { kind: "bundle" }, deadlineMs: 60_000 });
  const sources = options.source === undefined ? (options.sources ?? {}) : { ...options.sources, [file]: options.source };
  // Bundled ahead with the files before it (the pool's hint), unless it runs an editor's text.
  const made = Object.keys(sources).length === 0 ? await takeBundledAhead(file) : undefined;
  const outfile = made?.outfile ?? bundlePathFor(file);
  let served: Set<string>;
  const session = options.mutation?.session;
  try {
    const reused = session !== undefined ? sessionBundle(session, file, sources) : undefined;
    const bundle = made ?? reused ?? (await bundleTestFile(file, outfile, sources));
    if (session !== undefined && !reused) keepSessionBundle(session, file, sources, bundle);
    served = bundle.served;
    options.onInputs?.(bundle.inputs);
    // Written synchronously, as it is removed: a bundle is small, and the awaits of fs/promises'
    // open, write, close and rename each crossed libuv's thread pool (2.9 ms a file, now 1.7, at load 15).
    writeExclusivelySync(outfile, bundle.code);
    const url = pathToFileURL(outfile).href;
    noteBundle(url, bundle.code);
    options.onBundle?.({ url, code: bundle.code });
  } catch (error) {
    if (error instanceof BundleError) {
      options.onInputs?.(error.inputs);
      return finish([], error.report);
    }
    return finish([], errorReport(error, file));
  }

  // 2. Import: the file declares its tests. From here on, what the file starts is its own, and is
  // reaped when the file ends (leftovers.ts).
  beginFileScope();
  const onReach = options.onReach;
  if (onReach) {
    beginNetworkUse();
    // The runner's own: its private folder (checked before use), this worker's subfolder (run folders, bundles), the snapshot file.
    const snapshotFile = snapshotFileOf(file);
    beginFileSystemReach([tempRootPath(), `${processTempFolderPath()}${sep}`, snapshotFile, dirname(snapshotFile)]);
  }
  try {
    return await loadAndRun(options, outfile, served, finish, emit);
  } finally {
    if (onReach) {
      const started = fileStartedAnything();
      const network = endNetworkUse();
      onReach({ ...endFileSystemReach(), ...(started ? { started: true } : {}), ...(network ? { network: true } : {}) });
    }
    endFileScope();
    // Spies and replaced properties the file made and did not restore end with it, as the file's
    // timers do: a forgotten spy on Map.prototype.get must not reach the next file.
    restoreFileMocks();
    // A file's module mocks end with it: the next file's bundle declares its own (moduleMocks.ts).
    resetModuleMocks();
  }
}

async function loadAndRun(
  options: RunFileOptions,
  outfile: string,
  served: Set<string>,
  finish: (tests: TestReport[], error?: ErrorReport) => FileReport,
  emit: (event: RunEvent) => void,
): Promise<FileReport> {
  const file = options.file;
  // A file that takes its test API from `vitest` alone runs on @vitest/runner (vitestRunner.ts).
  if (served.has("vitest") && !served.has("bun:test")) {
    try {
      // Snapshots around the whole file, as below: the report the runner finished with, then the file's end.
      const snapshots = await fileSnapshots(options);
      let finished: { tests: TestReport[]; error?: ErrorReport } = { tests: [] };
      await runOnVitestRunner(options, outfile, (tests, error) => ((finished = { tests, ...(error ? { error } : {}) }), finish(tests, error)), emit);
      const reports = [...finished.tests];
      // The file's tests are over: what they changed (a forgotten spy on Map.prototype.get) is
      // undone before the snapshot state, which runs on those builtins, is ended.
      restoreFileMocks();
      await snapshots.end(
        {
          reports,
          // A test the file's end adds (obsolete snapshots) is reported as it is found, like any other.
          record: (report) => {
            reports.push(report);
            emit({ type: "test", report });
          },
        },
        [],
      );
      return snapshots.into(finish(reports, finished.error));
    } finally {
      // The next file this worker runs (maybe a bun:test one) starts with no test running.
      setRunning(null);
      setTestForExpect(undefined);
      removeBundle(outfile);
    }
  }
  const interrupt = new Interrupt();
  const state = beginCollect(file, (stack) => locationOf(stack, file));
  routeStrayErrors((error) => interrupt.fail(error));
  emit({ type: "phase", phase: { kind: "load" }, deadlineMs: options.timeoutMs });
  try {
    await call(() => importModule(pathToFileURL(outfile).href), {
      timeoutMs: Math.max(options.timeoutMs, 1000),
      what: "loading the test file",
      interrupt,
      doneStyle: false,
      controller: new AbortController(),
      makeContext: () => undefined,
      args: [],
    });
    await settle();
    if (interrupt.stray.length > 0) throw interrupt.stray[0];
  } catch (error) {
    routeStrayErrors(null);
    endCollect();
    removeBundle(outfile);
    return finish([], loadError(error, file, outfile));
  } finally {
    endCollect();
  }
  removeBundle(outfile);

  // 3. Run.
  const planned = plan(state.root, options);
  // As in Vitest, a file that declares no test fails: a file whose tests were lost (a broken
  // import, a realm a test changed) must never count as a pass. `--passWithNoTests` is about the
  // run, not a file (docs/runner.md, Which files run).
  if (planned.size === 0) return finish([], { message: `no test found in ${shownPath(file)}` });
  emit({ type: "collected", tests: [...planned.values()].filter((p) => p.selection !== "omit").map((p) => p.info) });
  const run = new FileRun(options, planned, state.defaultTimeout);
  run.setHookFlavour(served.has("vitest") && !served.has("bun:test") ? "vitest" : "bun");
  routeStrayErrors((error) => run.interrupt.fail(error));
  const unsubscribe = options.traces === false ? () => {} : subscribeToRuns((trace) => run.onRun(trace));
  // A schema mismatch names each schema as the source does: the exports of the modules the file imports.
  const stopNaming = nameSchemasWith(schemaNamerFor(file, options.source ?? options.sources?.[file]));
  const onAbort = () => run.cancel();
  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) run.cancel();
  installMutationPlan(options.mutation);
  const snapshots = await fileSnapshots(options);
  try {
    await run.runSuite(state.root, []);
    await settle();
    // As above: the tests' spies and timers undone before the snapshot state is ended.
    restoreFileMocks();
    await snapshots.end(
      run,
      [...planned.values()].filter((p) => p.selection === "skip" || p.selection === "omit").map((p) => p.info.path),
    );
  } catch (error) {
    // The runner itself failed; report it on the file rather than lose the tests run so far.
    return finish(run.reports, errorReport(error, file));
  } finally {
    installMutationPlan(undefined);
    unsubscribe();
    stopNaming();
    options.signal?.removeEventListener("abort", onAbort);
    setRunning(null);
    setTestForExpect(undefined);
    routeStrayErrors(null);
    process.exitCode = undefined;
  }
  for (const error of run.interrupt.stray) {
    const info: TestInfo = { id: "uncaught error outside a test", name: "uncaught error outside a test", path: ["uncaught error outside a test"] };
    run.record(failedReport(info, errorReport(error, file)));
  }
  return snapshots.into(finish(run.reports));
}

/** The bundle's file, once imported (or failed to be): gone, or already gone. */
function removeBundle(outfile: string): void {
  try {
    unlinkSync(outfile);
  } catch {
    // removed with its worker's folder at the latest
  }
}

/** A file as a message names it: relative to the current folder when inside it. */
function shownPath(file: string): string {
  const inside = relative(process.cwd(), file);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : file;
}

function loadError(error: unknown, file: string, outfile: string): ErrorReport {
  const report = errorReport(error, file);
  const bundleUrl = pathToFileURL(outfile).href;
  report.message = report.message.split(bundleUrl).join(file).split(outfile).join(file);
  if (report.stack) report.stack = report.stack.split(bundleUrl).join(file).split(outfile).join(file);
  if (error instanceof TimeoutError) {
    report.message = `the file's top-level code did not finish within ${error.message.replace(/.*after /, "")}`;
  }
  return report;
}
