// Runs a test file that declares its tests with the served `vitest` names on @vitest/runner (the
// package Vitest itself runs tests with), and turns the runner's events into what runFile.ts reports:
// per-test reports with the run traces each test made, -t and resume filtering, watchdog phases.
import { AsyncLocalStorage } from "node:async_hooks";
import { isAbsolute, relative } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type File,
  getCurrentTest,
  getFn,
  getHooks,
  type Suite,
  startTests,
  type Task,
  type Test,
  type TestAnnotation,
  type TestArtifact,
  type VitestRunner,
} from "@vitest/runner";
import type { VitestRunnerConfig, VitestRunnerImportSource } from "@vitest/runner/types";
import { subscribeToRuns, type RunTrace } from "../testing/trace.ts";
import { nameSchemasWith } from "../testing/schemaNaming.ts";
import { installMutationPlan, startMutatedTest } from "../testing/scriptMutation.ts";
import { checkExpectedAssertions, createExpect, resetExpectForTest, setExpectTestPath, vitestTestName } from "../testApi/vitestExpect.ts";
import { setSnapshotTestOf } from "../testApi/snapshots.ts";
import { onRunnerConfig, type RunnerConfigChange } from "../testApi/runnerConfig.ts";
import { setRunning } from "../testApi/collector.ts";
import { snapshotTestStarts } from "./snapshotRun.ts";
import { type ExpectTask, setTestForExpect } from "../testApi/expectTest.ts";
import { importModule } from "./importModule.ts";
import { timerDelay } from "./limits.ts";
import { routeStrayErrors } from "./processGuard.ts";
import { fullName, type ErrorReport, type FileReport, type TestReport } from "./report.ts";
import { jsonSafe } from "./jsonSafe.ts";
import type { RunEvent, RunFileOptions, TestInfo } from "./runFile.ts";
import { schemaNamerFor } from "./schemaNames.ts";
import { SafeMap, SafeSet } from "./primordials.ts";
import { errorReport, readableThrown } from "./stack.ts";

/** A test as the file's report names it, and whether the plan runs it. */
interface Planned {
  info: TestInfo;
  run: boolean;
}

/** The run of one file on @vitest/runner. */
class TurnlensVitestRunner implements VitestRunner {
  readonly config: VitestRunnerConfig;
  readonly planned = new SafeMap<Test, Planned>();
  readonly recorded = new SafeMap<Test, TestReport>();
  /** Every report, in the order it was sent (the file's report keeps that order). */
  readonly reports: TestReport[] = [];
  private readonly ranks = new SafeMap<TestReport, number>();
  /** Kept reports not sent yet, and the planned tests in the file's order, the first `reportedPrefix` of them reported. */
  private readonly unsent: TestReport[] = [];
  private readonly ordered: Test[] = [];
  private reportedPrefix = 0;
  /** Each test's place in the file's order. */
  private readonly order = new SafeMap<Test, number>();
  /** Tests whose body (or a beforeEach) started: a suite's errors before any are its beforeAll's. */
  readonly started = new SafeSet<Test>();
  /** Each test's run traces, of its current try. */
  private readonly runs = new SafeMap<Test, RunTrace[]>();
  /** What each test threw, as thrown: the runner keeps only a serialized copy, without the run problems. */
  private readonly thrown = new SafeMap<Test, unknown[]>();
  /** Uncaught errors raised while a test ran; the test fails with them. */
  private readonly strays = new SafeMap<Test, unknown[]>();
  /** Uncaught errors raised while no test ran. */
  readonly strayOutside: unknown[] = [];
  /** The test whose body is running, across its awaits (tests may run concurrently). */
  private readonly current = new AsyncLocalStorage<Test>();
  /**
   * `task.file.pool`: Turnlens runs each file in a forked child process (workerProcess.ts), which is
   * what Vitest calls the `forks` pool (a child process, no worker thread; its IPC channel stays the runner's).
   */
  readonly pool = "forks";
  loadError: unknown;
  private initialConfig: RunnerConfigChange | undefined;
  /** Set by startTests for the run: skips what has not run and aborts the running tests' signals. */
  declare cancel?: VitestRunner["cancel"];

  constructor(
    private readonly options: RunFileOptions,
    private readonly outfile: string,
    private readonly emit: (event: RunEvent) => void,
  ) {
    const timeout = timerDelay(options.timeoutMs);
    this.config = {
      root: process.cwd(),
      setupFiles: [],
      name: undefined,
      // A file with no test is refused by runFile's own rule, before the run.
      passWithNoTests: true,
      // -t is matched as runFile.ts matches it (three spellings of the full name), in onCollected.
      testNamePattern: undefined,
      allowOnly: true,
      sequence: { shuffle: false, concurrent: false, seed: Date.now(), hooks: "stack", setupFiles: "parallel" },
      chaiConfig: undefined,
      // Vitest's default.
      maxConcurrency: 5,
      testTimeout: timeout,
      hookTimeout: timeout,
      retry: 0,
      includeTaskLocation: true,
      tags: [],
      tagsFilter: undefined,
      strictTags: false,
    };
  }

  /** The test an event (a run trace, an uncaught error) belongs to. */
  testNow(): Test | undefined {
    return this.current.getStore() ?? getCurrentTest<Test | undefined>();
  }

  async importFile(_path: string, source: VitestRunnerImportSource): Promise<void> {
    if (source !== "collect") return;
    setExpectTestPath(this.options.file);
    this.emit({ type: "phase", phase: { kind: "load" }, deadlineMs: this.options.timeoutMs });
    const limit = Math.max(this.options.timeoutMs, 1000);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        importModule(pathToFileURL(this.outfile).href),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the file's top-level code did not finish within ${limit}ms`)), timerDelay(limit));
        }),
      ]);
      await new Promise((r) => setImmediate(r));
      if (this.strayOutside.length > 0) throw this.strayOutside.shift();
    } catch (error) {
      this.loadError = readableThrown(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  onCollected(files: File[]): void {
    const file = files[0];
    if (!file || file.result?.state === "fail") return;
    const onlyIds = this.options.onlyIds ? new SafeSet(this.options.onlyIds) : undefined;
    const seen = new SafeMap<string, number>();
    for (const test of testsOf(file)) {
      const path = pathOf(test);
      const base = path.join(" › ");
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const info: TestInfo = { id: count === 1 ? base : `${base} (${count})`, name: test.name, path };
      if (test.location) info.location = { file: this.options.file, line: test.location.line, column: test.location.column };
      if (onlyIds && !onlyIds.has(info.id)) {
        test.mode = "skip";
        continue;
      }
      this.order.set(test, this.ordered.length);
      this.ordered.push(test);
      if (runs(test.mode) && this.options.testNamePattern && !matchesName(this.options.testNamePattern, path)) test.mode = "skip";
      this.planned.set(test, { info, run: runs(test.mode) });
    }
    // A suite none of whose tests runs runs no hook either.
    skipIdleSuites(file);
    this.emit({ type: "collected", tests: [...this.planned.values()].map((p) => p.info) });
  }

  onBeforeRunTask(test: Test): void {
    // A test the runner will not run is reported as it is passed over, in the file's order.
    if (!runs(test.mode)) this.recordOnce(test);
  }

  onAfterRetryTask(test: Test): void {
    // A test that skipped itself (`context.skip()`) ends here: the runner calls nothing after.
    if ((test.result as { pending?: boolean } | undefined)?.pending) this.recordOnce(test);
  }

  onAfterRunSuite(suite: Suite): void {
    const errors = suite.result?.errors ?? [];
    if (errors.length === 0) return;
    if (!testsOf(suite).some((t) => this.started.has(t))) {
      // No test started: the errors are its beforeAll's, and the tests it would have run fail with them.
      const error = errorReport(errors[0], this.options.file);
      error.message = `beforeAll hook failed: ${error.message}`;
      for (const test of testsOf(suite)) this.recordOnce(test, error);
      return;
    }
    for (const test of testsOf(suite)) this.recordOnce(test);
    const path = [...pathOf(suite), "afterAll hook"];
    const error = errorReport(errors[0], this.options.file);
    error.message = `afterAll hook failed: ${error.message}`;
    const last = testsOf(suite).at(-1);
    const rank = last ? 2 * (this.order.get(last) ?? 0) + 1 : undefined;
    this.push({ id: path.join(" › "), name: "afterAll hook", path, status: "failed", durationMs: 0, error, runs: [] }, rank);
  }

  onBeforeRunSuite(suite: Suite): void {
    // A suite the runner passes over calls nothing for its tests: they are reported now.
    if (!runs(suite.mode)) {
      for (const test of testsOf(suite)) this.recordOnce(test);
      return;
    }
    if (hasHooks(suite)) {
      this.emit({ type: "phase", phase: { kind: "beforeAll", suite: pathOf(suite) }, deadlineMs: this.config.hookTimeout });
    }
  }

  onBeforeTryTask(test: Test): void {
    this.started.add(test);
    this.runs.set(test, []);
    this.thrown.delete(test);
    if (this.options.mutation) startMutatedTest();
    // Vitest's own pair around each try: the assertion count from zero, and the test `expect.soft`/`poll` record on.
    resetExpectForTest(vitestTestName(pathOf(test)), this.options.file);
    setTestForExpect(test as unknown as ExpectTask);
    // The test a snapshot's key names (snapshots.ts reads the collector's running test).
    const info = this.planned.get(test)?.info;
    if (info) {
      setRunning({ name: fullName(info.path), finishers: [], path: info.path, id: info.id, onVitestRunner: true });
      snapshotTestStarts(info.id);
    }
    const planned = this.planned.get(test);
    if (planned) this.emit({ type: "phase", phase: { kind: "test", test: planned.info }, deadlineMs: test.timeout ?? this.config.testTimeout });
  }

  async runTask(test: Test): Promise<void> {
    const fn = getFn(test);
    try {
      // Only a concurrent test needs its body's awaits told apart: on Node 20 an AsyncLocalStorage
      // in use marks every promise with its store, which a test printing a promise would see.
      await (test.concurrent ? this.current.run(test, () => fn()) : fn());
    } catch (error) {
      const list = this.thrown.get(test) ?? [];
      list.push(error);
      this.thrown.set(test, list);
      throw error;
    }
  }

  onAfterTryTask(test: Test): void {
    // `expect.assertions(n)` and `expect.hasAssertions()`, checked as the test's own failure.
    if (test.result?.state === "fail") return;
    // The test's own `context.expect` counted its assertions when it used it (Vitest's `_local`).
    const local = (test.context as { _local?: boolean; expect?: ReturnType<typeof createExpect> })._local;
    checkExpectedAssertions(local ? test.context.expect : undefined);
  }

  onTaskFinished(test: Test): void {
    const strays = this.strays.get(test);
    if (strays && strays.length > 0) {
      this.strays.delete(test);
      throw strays[0];
    }
  }

  onAfterRunTask(test: Test): void {
    this.recordOnce(test);
  }

  /**
   * `context.annotate(message, type?, attachment?)`: the runner keeps it on `task.annotations`, as
   * under Vitest; Turnlens's reporters do not print annotations yet (docs/vitest.md).
   */
  async onTestAnnotate(_test: Test, annotation: TestAnnotation): Promise<TestAnnotation> {
    return annotation;
  }

  /** `recordArtifact(task, artifact)`: kept on the task as an annotation is. */
  async onTestArtifactRecord<Artifact extends TestArtifact>(_test: Test, artifact: Artifact): Promise<Artifact> {
    return artifact;
  }

  /** `context.expect`: an `expect` of the test's own (Vitest's), made when first read, so its snapshots and soft failures are the test's even among concurrent ones. */
  extendTaskContext<T>(context: T): T {
    const task = (context as { task: Test }).task;
    let own: ReturnType<typeof createExpect> | undefined;
    Object.defineProperty(context, "expect", {
      get: () => {
        own ??= createExpect(task as unknown as ExpectTask);
        return own;
      },
    });
    Object.defineProperty(context, "_local", { get: () => own !== undefined });
    return context;
  }

  /** `vi.setConfig`'s `sequence` and `maxConcurrency` (merged into the file's), or `undefined`: back as the file began. */
  changeConfig(change: RunnerConfigChange | undefined): void {
    this.initialConfig ??= { sequence: { ...this.config.sequence }, maxConcurrency: this.config.maxConcurrency };
    const next = change ?? this.initialConfig;
    if (next.sequence) this.config.sequence = { ...this.config.sequence, ...next.sequence };
    if (next.maxConcurrency !== undefined) this.config.maxConcurrency = next.maxConcurrency;
  }

  endConcurrency(): void {
    this.current.disable();
  }

  /** The test a snapshot made by an `expect` bound to `task` belongs to, as the file's report names it. */
  snapshotTestOf(task: unknown): { name: string; id: string } | undefined {
    const info = this.planned.get(task as Test)?.info;
    return info ? { name: info.path.join(" > "), id: info.id } : undefined;
  }

  onRun(trace: RunTrace): void {
    const test = this.testNow();
    if (test) this.runs.get(test)?.push(trace);
  }

  onStray(error: unknown): void {
    const test = this.testNow();
    if (test?.result?.state !== "run") {
      this.strayOutside.push(readableThrown(error));
      return;
    }
    const list = this.strays.get(test) ?? [];
    list.push(readableThrown(error));
    this.strays.set(test, list);
  }

  /** Reports `test` unless it was: `beforeAllError` fails it when it was to run and never started. */
  recordOnce(test: Test, beforeAllError?: ErrorReport): void {
    if (this.recorded.has(test)) return;
    const report = this.reportOf(test, beforeAllError);
    if (report) this.record(test, report);
  }

  record(test: Test, report: TestReport): void {
    const rank = 2 * (this.order.get(test) ?? Number.MAX_SAFE_INTEGER / 2);
    // Marked recorded before it is kept, so the send that follows counts it among the reported.
    this.recorded.set(test, report);
    this.recorded.set(test, this.push(report, rank));
  }

  /**
   * The reports in the order the file declares its tests (concurrent tests end in any order): an
   * afterAll entry after its suite's last test, uncaught errors outside a test last.
   */
  inFileOrder(): TestReport[] {
    return [...this.reports].sort((a, b) => this.rankOf(a) - this.rankOf(b));
  }

  private rankOf(report: TestReport): number {
    return this.ranks.get(report) ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * Keeps a report for the file's report, ranked `rank` in the file's order, and sends every kept
   * report whose earlier tests have all been reported: the events come in the file's order too,
   * as the reporters and the pool expect, while tests that run one at a time are sent at once.
   */
  push(report: TestReport, rank?: number): TestReport {
    const safe = jsonSafe(report);
    this.reports.push(safe);
    if (rank !== undefined) this.ranks.set(safe, rank);
    this.unsent.push(safe);
    this.send(false);
    return safe;
  }

  /** Sends what may be sent; `all`: everything left, at the file's end. */
  send(all: boolean): void {
    while (this.reportedPrefix < this.ordered.length && this.recorded.has(this.ordered[this.reportedPrefix]!)) this.reportedPrefix++;
    const ready = this.unsent.filter((report) => all || this.rankOf(report) < 2 * this.reportedPrefix).sort((a, b) => this.rankOf(a) - this.rankOf(b));
    for (const report of ready) {
      this.unsent.splice(this.unsent.indexOf(report), 1);
      this.emit({ type: "test", report });
    }
  }

  /** The report of a test that ended, from the runner's result; undefined for one left out (onlyIds). */
  reportOf(test: Test, beforeAllError?: ErrorReport): TestReport | undefined {
    const planned = this.planned.get(test);
    if (!planned) return undefined;
    const { info } = planned;
    const state = test.result?.state;
    const report: TestReport = { id: info.id, name: info.name, path: info.path, status: "skipped", durationMs: round(test.result?.duration ?? 0), runs: [] };
    if (info.location) report.location = info.location;
    if (this.options.traces !== false) report.runs = this.runs.get(test) ?? [];
    if (test.mode === "todo") report.status = "todo";
    else if (state === "pass") report.status = "passed";
    else if (state === "fail") {
      report.status = "failed";
      report.error = this.errorOf(test);
    } else if (planned.run && beforeAllError && !this.started.has(test)) {
      report.status = "failed";
      report.error = beforeAllError;
    }
    return report;
  }

  private errorOf(test: Test): ErrorReport {
    const errors = test.result?.errors ?? [];
    const thrown = this.thrown.get(test) ?? [];
    // The error as thrown when it is the one the runner kept (it carries the run's problems).
    // A thrown value that cannot be read (a revoked Proxy) is said as such by errorReport.
    const first: unknown =
      thrown.find((e) => messageOf(e) === errors[0]?.message) ??
      thrown.find((e) => typeof e === "object" && e !== null && messageOf(e) === undefined) ??
      errors[0] ??
      new Error("the test failed");
    const report = errorReport(first, this.options.file);
    if (!report.location && this.planned.get(test)?.info.location) report.location = this.planned.get(test)!.info.location!;
    if (errors.length > 1) {
      const rest = errors.slice(1).map((e) => String(e.message ?? "").split("\n")[0]);
      report.message += `\n\n(and ${rest.length} more error${rest.length > 1 ? "s" : ""}: ${rest.join("; ")})`;
    }
    return report;
  }
}

/** A thrown object's message; undefined for one that is not an object or cannot be read (a revoked Proxy). */
function messageOf(error: unknown): string | undefined {
  try {
    return typeof error === "object" && error !== null ? String((error as { message?: unknown }).message ?? "") : undefined;
  } catch {
    return undefined;
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** The describe names, then the test's (the file task is not part of the path). */
function pathOf(task: Task): string[] {
  const names: string[] = [];
  for (let t: Task | undefined = task; t && !("filepath" in t); t = t.suite) names.unshift(t.name);
  return names;
}

function testsOf(suite: Suite): Test[] {
  const tests: Test[] = [];
  for (const task of suite.tasks) {
    if (task.type === "test") tests.push(task);
    else if (task.type === "suite") tests.push(...testsOf(task));
  }
  return tests;
}

function hasHooks(suite: Suite): boolean {
  // A file whose collection failed has no hooks set.
  return (getHooks(suite)?.beforeAll.length ?? 0) > 0;
}

/** Whether the runner will run a task of this mode. */
function runs(mode: Task["mode"]): boolean {
  return mode === "run" || mode === "queued";
}

function skipIdleSuites(suite: Suite): boolean {
  let any = false;
  for (const task of suite.tasks) {
    if (task.type === "test") any ||= runs(task.mode);
    else if (task.type === "suite") any = skipIdleSuites(task) || any;
  }
  if (!any && runs(suite.mode) && !("filepath" in suite)) suite.mode = "skip";
  return any;
}

/**
 * `-t` against the full name joined by spaces, or by ` › ` (how Turnlens prints it) or ` > ` (how
 * Vitest does): a name copied from either's output matches (as runFile.ts matches it).
 */
function matchesName(pattern: RegExp, path: readonly string[]): boolean {
  return [fullName(path), path.join(" › "), path.join(" > ")].some((name) => {
    pattern.lastIndex = 0;
    return pattern.test(name);
  });
}

/** A file as a message names it: relative to the current folder when inside it. */
function shownPath(file: string): string {
  const inside = relative(process.cwd(), file);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : file;
}

function loadErrorOf(error: unknown, file: string, outfile: string): ErrorReport {
  const report = errorReport(error, file);
  const bundleUrl = pathToFileURL(outfile).href;
  report.message = report.message.split(bundleUrl).join(file).split(outfile).join(file);
  if (report.stack) report.stack = report.stack.split(bundleUrl).join(file).split(outfile).join(file);
  return report;
}

/**
 * Collects and runs the bundled test file `outfile` (of `options.file`) on @vitest/runner.
 * Never throws for a bad test file: what went wrong is on the file's report.
 */
export async function runOnVitestRunner(
  options: RunFileOptions,
  outfile: string,
  finish: (tests: TestReport[], error?: ErrorReport) => FileReport,
  emit: (event: RunEvent) => void,
): Promise<FileReport> {
  const file = options.file;
  const runner = new TurnlensVitestRunner(options, outfile, emit);
  routeStrayErrors((error) => runner.onStray(error));
  const unsubscribe = options.traces === false ? () => {} : subscribeToRuns((trace) => runner.onRun(trace));
  const stopNaming = nameSchemasWith(schemaNamerFor(file, options.source ?? options.sources?.[file]));
  const onAbort = () => runner.cancel?.("keyboard-input");
  options.signal?.addEventListener("abort", onAbort);
  installMutationPlan(options.mutation);
  setSnapshotTestOf((task) => runner.snapshotTestOf(task));
  onRunnerConfig((change) => runner.changeConfig(change));
  let files: File[];
  try {
    // Collected before the run starts so an abort already given stops it at once.
    files = await startTests([{ filepath: file }], runner);
    await new Promise((r) => setImmediate(r));
  } catch (error) {
    // The runner itself failed; report it on the file rather than lose the tests run so far.
    runner.send(true);
    return finish(runner.inFileOrder(), runner.loadError === undefined ? errorReport(error, file) : loadErrorOf(runner.loadError, file, outfile));
  } finally {
    installMutationPlan(undefined);
    setSnapshotTestOf(undefined);
    onRunnerConfig(undefined);
    // The promise hooks it enabled are off again for the worker's next file.
    runner.endConcurrency();
    unsubscribe();
    stopNaming();
    options.signal?.removeEventListener("abort", onAbort);
    routeStrayErrors(null);
    process.exitCode = undefined;
  }
  const root = files[0];
  if (!root || runner.loadError !== undefined || (root.result?.state === "fail" && root.tasks.length === 0)) {
    const error = runner.loadError ?? root?.result?.errors?.[0] ?? new Error("the file could not be collected");
    return finish([], loadErrorOf(error, file, outfile));
  }
  if (runner.planned.size === 0 && testsOf(root).length === 0) return finish([], { message: `no test found in ${shownPath(file)}` });

  // Whatever the runner's events left unreported, reported now rather than lost.
  for (const test of testsOf(root)) runner.recordOnce(test);
  for (const error of runner.strayOutside) {
    const name = "uncaught error outside a test";
    runner.push({ id: name, name, path: [name], status: "failed", durationMs: 0, error: errorReport(error, file), runs: [] });
  }
  runner.send(true);
  return finish(runner.inFileOrder());
}
