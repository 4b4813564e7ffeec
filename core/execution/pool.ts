// The one pool of worker processes that run test files, for `turnlens test` and the language server
// alike: a watchdog kills a worker whose phase overruns its deadline plus a grace, a dead worker has
// its running test reported and the rest of its file resumed in a fresh worker, a cancelled run
// kills its worker (or, when the caller asks, abandons it: the worker finishes or is killed after a
// grace), and workers stay warm between runs until the pool closes; prewarm() starts them early.
import type { ChildProcess } from "node:child_process";
import { isAbsolute, relative } from "node:path";
import { endedClean, killGroup, killWorkerTree } from "./processTree.ts";
import { removeTempFilesOf, removeTempFilesOfKilled } from "../tempFolder/tempFiles.ts";
import { forkWorker } from "./workerProcess.ts";
import { RECYCLE_ABOVE_RSS_BYTES, RECYCLE_AFTER_RUNS, timerDelay } from "./limits.ts";
import { readWorkerMessage, type ParentMessage, type WorkerMessage } from "./workerMessages.ts";
import { hookFailureReport, type ErrorReport, type FileReport, type TestReport } from "./report.ts";
import type { FileReach, Phase, RunEvent, TestInfo } from "./runFile.ts";
import type { SchemaName } from "./schemaNames.ts";
import type { MutationPlan } from "../testing/scriptMutation.ts";
import type { LineCoverageData } from "./v8Coverage.ts";
import type { ViteSettings } from "./viteSettings.ts";

/** Time a blocked worker gets past its deadline before it is killed. */
export const GRACE_MS = 2000;

/** Time a worker asked to exit gets to flush and exit before it is killed. */
export const EXIT_GRACE_MS = 5000;

/** Files a worker is promised next, and bundles in one esbuild build while it runs the current one. */
const AHEAD_FILES = 16;

/** Starts one worker process (dist/worker.mjs with an IPC channel). */
export type WorkerFactory = () => ChildProcess;

export interface FileJob {
  /** Absolute path of the test file. */
  file: string;
  /** The editor's text of the file; absent runs what is on disk. */
  source?: string;
  /** Texts bundled instead of the disk's, by absolute path (the editor's open buffers, any file the bundle loads). */
  sources?: Record<string, string>;
  timeoutMs: number;
  /** Only tests whose full name matches run (`-t`). */
  pattern?: { source: string; flags: string };
  /** Runner test ids (path joined by " › ") to run; absent runs the whole file. */
  onlyIds?: string[];
  /** Modules whose exported schemas the worker names for new script entries. */
  schemaModules?: string[];
  /** `false`: reports come without their run traces (`runs` is empty), which the CLI never shows. */
  traces?: false;
  /** Files run in the file's bundle before its own code (the config's `setupFiles`, absolute). */
  setupFiles?: string[];
  /** The config's define, env and `.env` folder (viteSettings.ts). */
  vite?: ViteSettings;
  /** `turnlens test --mutate` (mutate.ts): the file's testWorkflow calls numbered, and maybe one entry changed. */
  mutation?: MutationPlan;
  /**
   * Goes ahead of the queued files that are not `first` (behind those that are): the language
   * server's run of a document open in the editor, which must not wait behind a Run All of the
   * whole workspace from disk.
   */
  first?: boolean;
  /** Line coverage of the project's files the bundle holds, in the result (`--coverage`, Run with Coverage). */
  coverage?: true;
  /** Which snapshots are written (`-u`: all, a CI: none); absent, the worker's default (snapshotRun.ts). */
  updateSnapshot?: "all" | "new" | "none";
  /** Record what the file's code reached as it ran (runFile.ts's FileReach), in the result: `--cache`. */
  reach?: true;
}

export interface JobResult {
  report: FileReport;
  schemas: SchemaName[];
  /**
   * The absolute paths of the project files the file's bundle read, the file first (not
   * node_modules, not the served modules): what a change to reruns it. Absent when its worker
   * ended before the file was done (a crash, a kill) and no resumed run reported them.
   */
  inputs?: string[];
  /** With a `reach` job: what the file's code reached as it ran (runFile.ts's FileReach); absent when its worker ended mid-file. */
  reach?: FileReach;
  /**
   * The pids of the workers that ran the file, in order: one, or more when a worker died mid-file
   * and another resumed its remaining tests. Empty when no worker took it (cancelled while queued,
   * or no worker could start).
   */
  workers?: number[];
  /**
   * With a `coverage` job: Istanbul's data of each project file the test file's bundle holds, by
   * absolute path (not the test file, not node_modules); absent when the worker ended mid-file.
   */
  coverage?: LineCoverageData;
}

export interface JobListener {
  /** The file's first dispatch to a worker (not its resumptions). */
  onStart?(): void;
  /** Progress, including the report of a test its worker's death ended. */
  onEvent?(event: RunEvent): void;
  /** What the file's tests wrote to stdout or stderr. */
  onOutput?(text: string, stream: "stdout" | "stderr"): void;
}

const ABANDON_WORK = Symbol.for("turnlens.abandonWork");

/**
 * The reason to abort a run's signal with to abandon the worker's work instead of killing the
 * worker at once: the run resolves as cancelled at once and nothing more of it is reported; the
 * worker takes no other file until it ends this one, and is killed if it has not within `graceMs`
 * (a short run ends sooner than a fresh worker would start; a test that loops does not).
 */
export class AbandonWork {
  /** A brand, not instanceof: the language server's pool may come from another bundle (server/start.ts). */
  readonly [ABANDON_WORK] = true;
  constructor(readonly graceMs: number) {}
}

function isAbandonWork(reason: unknown): reason is AbandonWork {
  return (
    typeof reason === "object" && reason !== null && (reason as Record<symbol, unknown>)[ABANDON_WORK] === true && typeof (reason as AbandonWork).graceMs === "number"
  );
}

export interface WorkerPoolOptions {
  /** How many workers may run at once; read at each dispatch so a settings change applies. */
  size: () => number;
  /** Starts a worker; defaults to forking dist/worker.mjs. */
  factory?: WorkerFactory;
  /** Time a blocked worker gets past its deadline before it is killed. */
  graceMs?: number;
  /** Time a worker asked to exit gets before it is killed (EXIT_GRACE_MS). */
  exitGraceMs?: number;
  /** Where the pool says what went wrong with a worker, and output no run owns. */
  log?: (message: string) => void;
  /** When a warm worker is replaced by a fresh one (limits.ts has the defaults). */
  recycle?: { afterRuns: number; aboveRssBytes: number };
  /**
   * Promise workers their next files and have them bundle those ahead (reserveAhead). For a run
   * whose files do not change while it lasts (`turnlens test`); a long-lived pool, whose files the
   * user edits between runs, leaves it off.
   */
  bundleAhead?: boolean;
  /** Told when a worker is ready and when a warm-up file ended (the language server times its start with them). */
  observe?: (event: "ready" | "warm-up done") => void;
}

interface Pending {
  job: FileJob;
  /** A prewarm() job: any real file goes first, and its result goes nowhere. */
  warmup?: boolean;
  listener: JobListener;
  resolve: (result: JobResult | undefined) => void;
  /** Tests reported by workers that died earlier in this job. */
  carried: TestReport[];
  carriedMs: number;
  started: boolean;
  settled: boolean;
  /** The pids of the workers it was dispatched to, in order (a resumed file has more than one). */
  workers: number[];
  /** What cancels it (hurry() finds it by it). */
  signal?: AbortSignal;
}

interface Active {
  pending: Pending;
  /** The job as sent, which for a resumed file lists the remaining ids. */
  job: FileJob;
  started: number;
  phase?: Phase;
  deadlineMs: number;
  collected: TestInfo[];
  reported: TestReport[];
  killedByWatchdog: boolean;
  /** Why the pool killed the worker for a message it does not accept. */
  refused?: string;
  cancelled: boolean;
  /** Abandoned: its run was settled as cancelled; the worker is freed by its `done` or killed. */
  abandoned?: ReturnType<typeof setTimeout>;
  abandonGraceMs?: number;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  dead: boolean;
  exiting: boolean;
  active?: Active;
  watchdog?: ReturnType<typeof setTimeout>;
  startupErr: string;
  /** The end of what it wrote to stderr, to tell an out-of-memory death. */
  stderrTail: string;
  /** Files it has run. */
  runs: number;
  /** The warm-up prewarm() gives it once ready and idle, unless a real file comes first. */
  warmup?: FileJob;
  /** Files promised to it next (it bundles them ahead); another worker takes one only when idle. */
  reserved: Pending[];
  exited: Promise<void>;
  /** Its VITEST_POOL_ID (the lowest free from 1 when it started) and VITEST_WORKER_ID (how many started before it). */
  ids: { poolId: number; workerId: number };
  /** It said, exiting as asked, that nothing started a process in it since its first file began (`leaving`). */
  leaving?: boolean;
}

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private startupFailures = 0;
  private readonly graceMs: number;
  private readonly exitGraceMs: number;
  private readonly factory: WorkerFactory;
  private readonly log: (message: string) => void;
  private readonly recycle: { afterRuns: number; aboveRssBytes: number };
  /** Set by warm(): a recycled worker is replaced at once, so the next run finds one ready. */
  private keepWarm = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.graceMs = options.graceMs ?? GRACE_MS;
    this.exitGraceMs = options.exitGraceMs ?? EXIT_GRACE_MS;
    this.factory = options.factory ?? (() => forkWorker());
    this.log = options.log ?? ((message) => process.stderr.write(`turnlens: ${message}\n`));
    this.recycle = options.recycle ?? { afterRuns: RECYCLE_AFTER_RUNS, aboveRssBytes: RECYCLE_ABOVE_RSS_BYTES };
  }

  /** The pids of the live workers. */
  get pids(): number[] {
    return [...this.slots].flatMap((slot) => (slot.child.pid ? [slot.child.pid] : []));
  }

  /** Starts a worker ahead of the first run, so that run finds the engine loaded. */
  warm(): void {
    this.keepWarm = true;
    if (![...this.slots].some((slot) => !slot.dead && !slot.exiting)) this.spawn();
  }

  /**
   * Starts workers ahead of the first run, up to `count` live ones (never above the pool's size),
   * and keeps them warm like warm(). Each started here is sent `warmups.withFork` with its fork
   * (what any first file pays anyway: esbuild's service, the served modules), and then, once
   * ready and if no real file waits, `warmups.whenIdle` (the JIT warmed on a test); a warm-up's
   * result goes nowhere. The first is sent with the fork, not once the worker says it is ready:
   * the worker reads it as soon as it listens (Node keeps what came before), even while this
   * process is busy (the language server loading its own bundle), so it never waits for this event loop.
   */
  prewarm(count = 1, warmups: { withFork?: FileJob; whenIdle?: FileJob } = {}): void {
    this.keepWarm = true;
    const live = () => [...this.slots].filter((slot) => !slot.dead && !slot.exiting).length;
    const wanted = Math.min(count, this.options.size());
    while (live() < wanted) {
      const slot = this.spawn();
      if (!slot) return;
      if (warmups.whenIdle) slot.warmup = warmups.whenIdle;
      if (warmups.withFork) this.dispatch(slot, warmupPending(warmups.withFork));
    }
  }

  /** Applies a change of `size()` now, not at the next dispatch (more workers start for the queue). */
  resize(): void {
    this.pump();
  }

  /** Runs a file. Resolves with its report, or undefined when the run was cancelled. Never rejects. */
  run(job: FileJob, signal?: AbortSignal, listener: JobListener = {}): Promise<JobResult | undefined> {
    return new Promise((resolve) => {
      const pending: Pending = { job, listener, resolve, carried: [], carriedMs: 0, started: false, settled: false, workers: [] };
      if (signal?.aborted) return resolve(undefined);
      signal?.addEventListener("abort", () => this.cancel(pending, signal.reason), { once: true });
      if (signal) pending.signal = signal;
      this.enqueue(pending);
      this.pump();
    });
  }

  /** Queues a file: at the end, or a `first` one after the other `first` ones. */
  private enqueue(pending: Pending): void {
    const before = pending.job.first ? this.queue.findIndex((queued) => !queued.job.first) : -1;
    if (before < 0) this.queue.push(pending);
    else this.queue.splice(before, 0, pending);
  }

  /**
   * The queued run of `signal` (not yet given to a worker) goes ahead as a `first` one would: the
   * language server's run of a file from disk, whose document has just been opened, is what that
   * document's own run waits for.
   */
  hurry(signal: AbortSignal): void {
    const index = this.queue.findIndex((pending) => pending.signal === signal);
    if (index < 0) return;
    const [pending] = this.queue.splice(index, 1);
    if (!pending) return;
    pending.job = { ...pending.job, first: true };
    this.enqueue(pending);
  }

  /** Kills every worker and ends every run as cancelled. */
  stop(): void {
    for (const pending of this.queue.splice(0)) this.settle(pending, undefined);
    for (const slot of this.slots) {
      for (const pending of slot.reserved.splice(0)) this.settle(pending, undefined);
      if (slot.active) {
        slot.active.cancelled = true;
        this.settle(slot.active.pending, undefined);
      }
      this.kill(slot);
    }
  }

  /** Lets idle workers exit (their output flushed) and resolves once every worker is gone. */
  async close(): Promise<void> {
    for (const slot of this.slots) {
      if (!slot.active) this.retire(slot);
    }
    await Promise.all([...this.slots].map((slot) => slot.exited));
  }

  private cancel(pending: Pending, reason?: unknown): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) this.queue.splice(queued, 1);
    for (const slot of this.slots) {
      const reserved = slot.reserved.indexOf(pending);
      if (reserved >= 0) slot.reserved.splice(reserved, 1);
    }
    for (const slot of this.slots) {
      const active = slot.active;
      if (active?.pending !== pending) continue;
      active.cancelled = true;
      const grace = isAbandonWork(reason) ? reason.graceMs : 0;
      if (grace > 0) {
        // Abandoned: the worker most likely ends the file sooner than a new one would start. A
        // test stuck in a loop (synchronous or not) goes silent, and is stopped for sure by the kill.
        active.abandonGraceMs = grace;
        this.armAbandoned(slot, active);
      } else {
        // The test may be stuck in a synchronous loop: only killing the process stops it for sure.
        this.kill(slot);
      }
    }
    this.settle(pending, undefined);
  }

  /** An abandoned file is killed once it has been silent for its grace: each event it sends re-arms it. */
  private armAbandoned(slot: Slot, active: Active): void {
    clearTimeout(active.abandoned);
    active.abandoned = setTimeout(
      () => {
        if (slot.active === active) this.kill(slot);
      },
      timerDelay(active.abandonGraceMs ?? 0),
    );
  }

  private settle(pending: Pending, result: JobResult | undefined): void {
    if (pending.settled) return;
    pending.settled = true;
    pending.resolve(result && pending.workers.length > 0 ? { ...result, workers: [...pending.workers] } : result);
  }

  /** Kills the worker, its process group and every process carrying its tag. */
  private kill(slot: Slot): void {
    clearTimeout(slot.watchdog);
    // Dying: no file is dispatched to it, even if a `done` already on its way frees it.
    slot.exiting = true;
    this.release(slot);
    if (slot.child.pid !== undefined) {
      killWorkerTree(slot.child.pid);
      // At once, not at its exit event: a server told `shutdown` then `exit` may be gone by then.
      removeTempFilesOfKilled(slot.child.pid);
    } else slot.child.kill("SIGKILL");
  }

  /** Asks an idle worker to exit once its output is flushed. */
  private retire(slot: Slot): void {
    if (slot.exiting || slot.dead) return;
    slot.exiting = true;
    this.release(slot);
    this.send(slot, { type: "exit" });
    // Shutdown is bounded: a worker that has not exited within the grace (a test's exit handler
    // that never returns, a flush that never ends) is killed, so close() and the CLI always end.
    clearTimeout(slot.watchdog);
    slot.watchdog = setTimeout(() => {
      if (slot.dead) return;
      this.log(`worker ${slot.child.pid} did not exit within ${this.exitGraceMs}ms of being asked (an exit handler that never returns?); it was killed`);
      this.kill(slot);
    }, this.exitGraceMs);
  }

  /** A leaving worker's promised files go back to the front of the queue, in their order. */
  private release(slot: Slot): void {
    this.queue.unshift(...slot.reserved.splice(0).filter((pending) => !pending.settled));
  }

  /**
   * Promises `slot` the next files of the queue (as many as leaves the other workers their share,
   * and no more than it runs before it is recycled), and tells it to bundle them now, in one build.
   * Only files run from disk, whole: an editor's text or a resumed file is bundled when it runs.
   */
  private reserveAhead(slot: Slot): void {
    if (!this.options.bundleAhead || slot.reserved.length > 0) return;
    const share = Math.floor(this.queue.length / Math.max(1, this.options.size()));
    const count = Math.min(AHEAD_FILES, share, this.recycle.afterRuns - slot.runs - 1);
    const taken: Pending[] = [];
    for (const pending of this.queue) {
      if (taken.length >= count || pending.job.source !== undefined || pending.job.sources || pending.job.onlyIds || pending.warmup) break;
      taken.push(pending);
    }
    if (taken.length < 2) return;
    this.queue.splice(0, taken.length);
    slot.reserved = taken;
    const setupFiles = taken[0]?.job.setupFiles;
    const coverage = taken[0]?.job.coverage ? { coverage: true as const } : {};
    const vite = taken[0]?.job.vite;
    this.send(slot, { type: "ahead", files: taken.map((pending) => pending.job.file), ...(setupFiles ? { setupFiles } : {}), ...coverage, ...(vite ? { vite } : {}) });
  }

  private idleSlots(): Slot[] {
    return [...this.slots].filter((slot) => slot.ready && !slot.dead && !slot.exiting && !slot.active);
  }

  private pump(): void {
    // A worker prewarm() started runs its idle warm-up when no real file waits for it.
    if (this.queue.length === 0) {
      for (const slot of this.slots) {
        if (!slot.warmup || !slot.ready || slot.dead || slot.exiting || slot.active) continue;
        const job = slot.warmup;
        slot.warmup = undefined;
        this.dispatch(slot, warmupPending(job));
      }
    }
    // A worker runs the files promised to it first: it has bundled them.
    for (const slot of this.idleSlots()) {
      const next = slot.reserved.shift();
      if (!next) continue;
      slot.warmup = undefined;
      this.dispatch(slot, next);
      this.reserveAhead(slot);
    }
    while (this.queue.length > 0) {
      const idle = this.idleSlots()[0];
      const next = this.queue[0];
      if (idle && next) {
        // A real file goes first: the idle warm-up of this worker is not needed any more.
        idle.warmup = undefined;
        this.queue.shift();
        this.dispatch(idle, next);
        this.reserveAhead(idle);
        continue;
      }
      const live = [...this.slots].filter((slot) => !slot.dead && !slot.exiting);
      // A worker on its warm-up is about to be free: counted as starting, so a real file waits for
      // it rather than for a cold fork. One finishing an abandoned file is not: a second worker
      // starts beside it (the file may loop), and whichever is free first takes the file.
      const starting = live.filter((slot) => !slot.ready || slot.active?.pending.warmup === true).length;
      if (live.length < this.options.size() && starting < this.queue.length) {
        this.spawn();
        continue;
      }
      return;
    }
    // Nothing queued: an idle worker takes the last file promised to the busiest other one.
    for (const slot of this.idleSlots()) {
      const donor = [...this.slots].filter((other) => other !== slot).sort((a, b) => b.reserved.length - a.reserved.length)[0];
      const stolen = donor?.reserved.pop();
      if (stolen) this.dispatch(slot, stolen);
    }
    // Workers beyond the size (the setting went down) leave once idle.
    const idle = [...this.slots].filter((slot) => slot.ready && !slot.active && !slot.dead && !slot.exiting);
    const live = [...this.slots].filter((slot) => !slot.dead && !slot.exiting).length;
    for (const slot of idle.slice(0, Math.max(0, live - this.options.size()))) this.retire(slot);
  }

  private dispatch(slot: Slot, pending: Pending): void {
    const job = pending.job;
    slot.active = { pending, job, started: performance.now(), deadlineMs: 0, collected: [], reported: [], killedByWatchdog: false, cancelled: false };
    if (slot.child.pid !== undefined) pending.workers.push(slot.child.pid);
    if (!pending.started) {
      pending.started = true;
      pending.listener.onStart?.();
    }
    const message: ParentMessage = { type: "run", file: job.file, timeoutMs: job.timeoutMs, ids: slot.ids };
    if (job.vite) message.vite = job.vite;
    if (job.source !== undefined) message.source = job.source;
    if (job.sources) message.sources = job.sources;
    if (job.pattern) message.pattern = job.pattern;
    if (job.onlyIds) message.onlyIds = job.onlyIds;
    if (job.schemaModules) message.schemaModules = job.schemaModules;
    if (job.traces === false) message.traces = false;
    if (job.setupFiles) message.setupFiles = job.setupFiles;
    if (job.mutation) message.mutation = job.mutation;
    if (job.coverage) message.coverage = true;
    if (job.updateSnapshot) message.updateSnapshot = job.updateSnapshot;
    if (job.reach) message.reach = true;
    this.send(slot, message);
  }

  private send(slot: Slot, message: ParentMessage): void {
    try {
      slot.child.send(message);
    } catch {
      // It died; the exit handler reports the job.
    }
  }

  private arm(slot: Slot, deadlineMs: number): void {
    clearTimeout(slot.watchdog);
    if (slot.active) slot.active.deadlineMs = deadlineMs;
    slot.watchdog = setTimeout(
      () => {
        if (slot.active) slot.active.killedByWatchdog = true;
        this.kill(slot);
      },
      timerDelay(deadlineMs + this.graceMs),
    );
  }

  private started = 0;

  /** A new worker's ids: the lowest pool id no living worker has, and the count of workers started before it. */
  private nextIds(): Slot["ids"] {
    const taken = new Set([...this.slots].filter((slot) => !slot.dead).map((slot) => slot.ids.poolId));
    let poolId = 1;
    while (taken.has(poolId)) poolId++;
    // Vitest 4 counts its workers from 0.
    return { poolId, workerId: this.started++ };
  }

  private spawn(): Slot | undefined {
    let child: ChildProcess;
    try {
      child = this.factory();
    } catch (error) {
      this.log(`could not start a worker: ${error instanceof Error ? error.message : String(error)}`);
      for (const pending of this.queue.splice(0)) this.settle(pending, { report: fileError(pending.job.file, "turnlens could not start a worker process"), schemas: [] });
      return undefined;
    }
    let resolveExit!: () => void;
    const slot: Slot = {
      child,
      ready: false,
      dead: false,
      exiting: false,
      startupErr: "",
      stderrTail: "",
      runs: 0,
      reserved: [],
      exited: new Promise((resolve) => (resolveExit = resolve)),
      ids: this.nextIds(),
    };
    this.slots.add(slot);
    child.stdout?.on("data", (chunk: Buffer) => this.output(slot, chunk.toString(), "stdout"));
    child.stderr?.on("data", (chunk: Buffer) => {
      if (!slot.ready) slot.startupErr = (slot.startupErr + chunk.toString()).slice(-4000);
      slot.stderrTail = (slot.stderrTail + chunk.toString()).slice(-2000);
      this.output(slot, chunk.toString(), "stderr");
    });
    // The death is handled once its pipes closed, so the last output (V8's out-of-memory words
    // included) is in; a pipe some stray process still holds open gets a second to let go.
    child.on("exit", (code, signal) => {
      // A worker that may be leaving clean is searched for (or not) at its close, once its last
      // message is in (onExit); any other at once.
      if (child.pid !== undefined && !mayLeaveClean(slot, code, signal)) killWorkerTree(child.pid);
      const late = setTimeout(() => {
        resolveExit();
        this.onExit(slot, code, signal);
      }, 1000);
      child.once("close", () => {
        clearTimeout(late);
        resolveExit();
        this.onExit(slot, code, signal);
      });
    });
    child.on("error", (error) => {
      this.log(`worker error: ${error.message}`);
      if (child.exitCode !== null || child.signalCode !== null) {
        resolveExit();
        this.onExit(slot, child.exitCode, child.signalCode);
      }
    });
    guardChannel(child, (why) => this.refuse(slot, why));
    child.on("message", (raw) => {
      // A worker whose realm a test changed sends its messages as JSON text it wrote itself (worker.ts).
      if (typeof raw === "string") {
        try {
          raw = JSON.parse(raw);
        } catch {
          return this.refuse(slot, "a text that is not JSON");
        }
      }
      // A worker sends a test's report with the next phase as one batch (worker.ts), read in order.
      for (const each of Array.isArray(raw) ? raw : [raw]) {
        const read = readWorkerMessage(each);
        if ("refused" in read) return this.refuse(slot, read.refused);
        this.onMessage(slot, read.message);
      }
    });
    return slot;
  }

  private output(slot: Slot, text: string, stream: "stdout" | "stderr"): void {
    const listener = slot.active?.pending.listener;
    if (listener?.onOutput) listener.onOutput(text, stream);
    else if (slot.ready) this.log(`worker output: ${text.trimEnd()}`);
  }

  /** A message no worker sends: the test behind it fails and the worker is killed. */
  private refuse(slot: Slot, why: string): void {
    this.log(`worker ${slot.child.pid} sent ${why}; it was killed`);
    if (slot.active) slot.active.refused ??= why;
    this.kill(slot);
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.type === "ready") {
      if (slot.ready) return this.refuse(slot, 'a second "ready" message');
      slot.ready = true;
      // Retired while it started: the exit sent then may have come before it listened.
      if (slot.exiting) return this.send(slot, { type: "exit" });
      this.startupFailures = 0;
      this.options.observe?.("ready");
      this.pump();
      return;
    }
    if (message.type === "leaving") {
      slot.leaving = slot.exiting && !slot.active;
      return;
    }
    const active = slot.active;
    // An abandoned file's `done` frees its worker; nothing else of it is reported.
    if (active?.abandoned !== undefined) {
      if (message.type === "done") return this.finished(slot, message.rss, message.changedBuiltins);
      // Still making progress (a test began or ended): it is given the grace again.
      if (message.type === "event" && message.file === active.job.file && message.event.type !== "collected") this.armAbandoned(slot, active);
      return;
    }
    if (!active || active.cancelled) return;
    if (message.file !== active.job.file) return this.refuse(slot, `a "${message.type}" message for ${message.file}, which it was not running`);
    if (message.type === "output") {
      active.pending.listener.onOutput?.(message.text, message.stream);
    } else if (message.type === "event") {
      const event = message.event;
      if (event.type === "phase") {
        active.phase = event.phase;
        this.arm(slot, event.deadlineMs);
      } else if (event.type === "collected") {
        active.collected = event.tests;
      } else if (event.type === "test") {
        active.reported.push(event.report);
      }
      active.pending.listener.onEvent?.(event);
    } else if (message.type === "done") {
      const pending = active.pending;
      const report: FileReport = {
        file: pending.job.file,
        tests: [...pending.carried, ...active.reported],
        durationMs: Math.round((pending.carriedMs + message.durationMs) * 100) / 100,
      };
      if (message.error) report.error = message.error;
      if (message.snapshots) report.snapshots = message.snapshots;
      const changed = message.changedBuiltins;
      if (changed && changed.length > 0) report.warnings = [`${shownPath(pending.job.file)} changed ${changed.join(", ")}; its worker was replaced`];
      this.settle(pending, {
        report,
        schemas: message.schemas ?? [],
        ...(message.inputs ? { inputs: message.inputs } : {}),
        ...(message.reach ? { reach: message.reach } : {}),
        ...(message.coverage ? { coverage: message.coverage } : {}),
      });
      if (pending.warmup) this.options.observe?.("warm-up done");
      this.finished(slot, message.rss, changed);
    }
  }

  /** A file ended in the worker (a real one, a warm-up or an abandoned one): recycle or reuse it. */
  private finished(slot: Slot, rss: number, changedBuiltins?: string[]): void {
    clearTimeout(slot.watchdog);
    clearTimeout(slot.active?.abandoned);
    // A warm-up is not one of the files the run limit counts (its RSS still does).
    if (slot.active?.pending.warmup !== true) slot.runs++;
    slot.active = undefined;
    // A file changed the builtins: whatever the worker put back, no other file runs in that realm
    // (the file's report says so; no log line repeats it).
    if (changedBuiltins && changedBuiltins.length > 0) {
      this.retire(slot);
      if (this.keepWarm && this.queue.length === 0) this.spawn();
      this.pump();
      return;
    }
    // Bounded memory: a worker that ran enough files, or holds too much, leaves for a fresh one.
    if (slot.runs >= this.recycle.afterRuns || rss > this.recycle.aboveRssBytes) {
      this.log(`worker ${slot.child.pid} recycled after ${slot.runs} files at ${Math.round(rss / 1048576)} MB`);
      this.retire(slot);
      if (this.keepWarm && this.queue.length === 0) this.spawn();
    }
    this.pump();
  }

  private onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.dead) return;
    slot.dead = true;
    clearTimeout(slot.watchdog);
    // What its tests spawned dies with it, and its temporary files go, whatever way it died. A
    // worker that exited as asked, saying nothing started a process in it, left nothing but its
    // esbuild service, in its process group: /proc (milliseconds on a busy machine) is not searched.
    if (slot.child.pid !== undefined) {
      if (mayLeaveClean(slot, code, signal) && slot.leaving) {
        killGroup(slot.child.pid);
        endedClean(slot.child.pid);
      } else killWorkerTree(slot.child.pid);
      removeTempFilesOf(slot.child.pid);
    }
    this.slots.delete(slot);
    this.release(slot);
    const active = slot.active;
    slot.active = undefined;
    clearTimeout(active?.abandoned);
    if (active && !active.cancelled && !active.pending.settled && !active.pending.warmup) this.reportDeath(slot, active, code, signal);
    // A worker that died before it was ready failed to start, whether or not its warm-up was sent.
    if (!slot.ready && (!active || active.pending.warmup === true)) {
      this.startupFailures++;
      if (this.startupFailures >= 2) {
        const why = `turnlens could not start a worker process (${signal ? `signal ${signal}` : `exit code ${code}`})`;
        const message = slot.startupErr.trim() ? `${why}:\n${slot.startupErr.trim()}` : why;
        this.log(message);
        for (const pending of this.queue.splice(0)) this.settle(pending, { report: fileError(pending.job.file, message), schemas: [] });
      }
    }
    this.pump();
  }

  /** A worker died mid-run: report what it was doing, and resume the file's other tests. */
  private reportDeath(slot: Slot, active: Active, code: number | null, signal: NodeJS.Signals | null): void {
    const pending = active.pending;
    const elapsed = performance.now() - active.started;
    const why = active.refused
      ? `sent turnlens's worker channel ${active.refused} (the channel is the runner's, not the test's); the worker was killed`
      : active.killedByWatchdog
        ? `did not finish within its ${active.deadlineMs}ms timeout (plus ${this.graceMs}ms grace) and blocked its worker process (a synchronous infinite loop?); the worker was killed`
        : outOfMemory(slot.stderrTail)
          ? `ran its worker process out of memory (the JavaScript heap limit was reached) running ${pending.job.file} and ended it (${signal ? `killed by signal ${signal}` : `exit code ${code}`})`
          : `ended its worker process (${signal ? `killed by signal ${signal}` : `exit code ${code}`}); did it call process.kill, run out of memory or crash node?`;
    pending.carried.push(...active.reported);
    pending.carriedMs += elapsed;
    const phase = active.phase;
    const ended = (report?: FileReport) =>
      this.settle(pending, { report: report ?? { file: pending.job.file, tests: pending.carried, durationMs: Math.round(pending.carriedMs) }, schemas: [] });
    // The test of the phase had already sent its report (it ended; the worker died before the next
    // phase: while the file ended, or a test's exit handler): it keeps that one result, and is not
    // reported a second time as the death's (a test that closed fd 1 and 2 counted twice).
    // The rest of the file goes first, ahead of files not yet started; false when none is left.
    const resumedRest = () => {
      const done = new Set(pending.carried.map((test) => test.id));
      const remaining = active.collected.map((test) => test.id).filter((id) => !done.has(id));
      if (remaining.length === 0) return false;
      pending.job = { ...pending.job, onlyIds: remaining };
      this.queue.unshift(pending);
      return true;
    };
    if (phase?.kind === "test" && pending.carried.some((test) => test.id === phase.test.id)) {
      if (resumedRest()) return;
      const how = signal ? `killed by signal ${signal}` : `exit code ${code}`;
      return ended({
        file: pending.job.file,
        tests: pending.carried,
        durationMs: Math.round(pending.carriedMs),
        warnings: [`${shownPath(pending.job.file)} ended its worker process (${how}) after its last test had reported; no test was lost`],
      });
    }
    if (phase?.kind === "test") {
      const error: ErrorReport = { message: `the test ${why}` };
      if (phase.test.location) error.location = phase.test.location;
      const report: TestReport = { id: phase.test.id, name: phase.test.name, path: phase.test.path, status: "failed", durationMs: Math.round(elapsed), error, runs: [] };
      if (phase.test.location) report.location = phase.test.location;
      pending.carried.push(report);
      pending.listener.onEvent?.({ type: "test", report });
      if (resumedRest()) return;
      return ended();
    }
    if (phase?.kind === "beforeAll" || phase?.kind === "afterAll") {
      const report = hookFailureReport(phase.kind, phase.suite, why);
      pending.carried.push(report);
      pending.listener.onEvent?.({ type: "test", report });
      return ended();
    }
    const what = phase?.kind === "load" ? "the file's top-level code" : "loading the file";
    const report = fileError(pending.job.file, `${what} ${why}`);
    report.tests = pending.carried;
    report.durationMs = Math.round(pending.carriedMs);
    ended(report);
  }
}

/**
 * Bytes on a worker's channel that are not JSON lines (a test, or a process it started, wrote to the
 * channel's descriptor) make Node's reader throw in this process, where nothing could catch it: the
 * CLI ended with exit 2 and no report. The reader is Node's own handle's `onread`, wrapped here so
 * that a throw refuses the worker instead (its test fails; the file's other tests resume).
 */
function guardChannel(child: ChildProcess, refuse: (why: string) => void): void {
  const key = Object.getOwnPropertySymbols(child).find((symbol) => symbol.description === "kChannelHandle");
  const handle = key ? (child as unknown as Record<symbol, { onread?: unknown } | undefined>)[key] : undefined;
  const read = handle?.onread;
  if (!handle || typeof read !== "function") return;
  let refused = false;
  handle.onread = function (this: unknown, ...args: unknown[]) {
    if (refused) return;
    try {
      return Reflect.apply(read, this, args);
    } catch (error) {
      refused = true;
      refuse(`bytes that are not a message (${error instanceof Error ? error.message : String(error)})`);
    }
  };
}

/** Whether a worker's exit may be a clean one: asked to exit, no file running, exit code 0. */
function mayLeaveClean(slot: Slot, code: number | null, signal: NodeJS.Signals | null): boolean {
  return slot.exiting && !slot.active && code === 0 && signal === null;
}

/** V8's last words when a heap is exhausted. */
function outOfMemory(stderr: string): boolean {
  return /JavaScript heap out of memory|Reached heap limit|Allocation failed/.test(stderr);
}

/** A prewarm() job: its result goes nowhere. */
function warmupPending(job: FileJob): Pending {
  return { job, warmup: true, listener: {}, resolve: () => {}, carried: [], carriedMs: 0, started: false, settled: false, workers: [] };
}

/** A file's path as a warning names it: relative to the current folder when inside it. */
function shownPath(file: string): string {
  const inside = relative(process.cwd(), file);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : file;
}

function fileError(file: string, message: string): FileReport {
  return { file, tests: [], durationMs: 0, error: { message } };
}
