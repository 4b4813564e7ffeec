// Warm worker processes (core's dist/worker.mjs) that run test files, unsaved text included, for
// the language server. A blocked worker is killed by a watchdog, a dead one has its running test
// reported and the rest of the file resumed in a fresh worker, and a cancelled run kills its worker.
import type { ChildProcess } from "node:child_process";
import type { ParentMessage, WorkerMessage } from "../core/runner/protocol.ts";
import { hookFailureReport, type ErrorReport, type FileReport, type TestReport } from "../core/runner/report.ts";
import type { Phase, RunEvent, TestInfo } from "../core/runner/runFile.ts";
import type { SchemaName } from "../core/runner/schemaNames.ts";

/** Starts one worker process (forks dist/worker.mjs with an IPC channel). */
export type WorkerFactory = () => ChildProcess;

export interface FileJob {
  /** Absolute path of the test file. */
  file: string;
  /** The editor's text of the file; absent runs what is on disk. */
  source?: string;
  timeoutMs: number;
  /** Runner test ids (path joined by " › ") to run; absent runs the whole file. */
  onlyIds?: string[];
  /** Modules whose exported schemas the worker names for new script entries. */
  schemaModules?: string[];
}

export interface JobResult {
  report: FileReport;
  schemas: SchemaName[];
}

export interface JobListener {
  onEvent?(event: RunEvent): void;
  onOutput?(text: string): void;
}

export interface WorkerPoolOptions {
  /** How many workers may run at once; read at each dispatch so a settings change applies. */
  size: () => number;
  /** Time a blocked worker gets past its deadline before it is killed. */
  graceMs?: number;
  log: (message: string) => void;
}

interface Pending {
  job: FileJob;
  listener: JobListener;
  signal?: AbortSignal;
  resolve: (result: JobResult | undefined) => void;
  /** Tests reported by workers that died earlier in this job. */
  carried: TestReport[];
  carriedMs: number;
  settled: boolean;
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
  cancelled: boolean;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  dead: boolean;
  active?: Active;
  watchdog?: ReturnType<typeof setTimeout>;
  startupErr: string;
}

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private startupFailures = 0;
  private readonly graceMs: number;

  constructor(
    private readonly factory: WorkerFactory,
    private readonly options: WorkerPoolOptions,
  ) {
    this.graceMs = options.graceMs ?? 1000;
  }

  /** The pids of the live workers. */
  get pids(): number[] {
    return [...this.slots].flatMap((slot) => (slot.child.pid ? [slot.child.pid] : []));
  }

  /** Starts a worker ahead of the first run, so that run finds the engine loaded. */
  warm(): void {
    if (this.slots.size === 0) this.spawn();
  }

  /** Runs a file. Resolves with its report, or undefined when the run was cancelled. Never rejects. */
  run(job: FileJob, signal?: AbortSignal, listener: JobListener = {}): Promise<JobResult | undefined> {
    return new Promise((resolve) => {
      const pending: Pending = { job, listener, resolve, carried: [], carriedMs: 0, settled: false };
      if (signal) pending.signal = signal;
      if (signal?.aborted) return resolve(undefined);
      signal?.addEventListener("abort", () => this.cancel(pending), { once: true });
      this.queue.push(pending);
      this.pump();
    });
  }

  /** Kills every worker and ends every run as cancelled. */
  stop(): void {
    for (const pending of this.queue.splice(0)) this.settle(pending, undefined);
    for (const slot of this.slots) {
      if (slot.active) {
        slot.active.cancelled = true;
        this.settle(slot.active.pending, undefined);
      }
      this.kill(slot);
    }
  }

  private cancel(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) this.queue.splice(queued, 1);
    for (const slot of this.slots) {
      if (slot.active?.pending === pending) {
        // The test may be stuck in a synchronous loop: only killing the process stops it for sure.
        slot.active.cancelled = true;
        this.kill(slot);
      }
    }
    this.settle(pending, undefined);
  }

  private settle(pending: Pending, result: JobResult | undefined): void {
    if (pending.settled) return;
    pending.settled = true;
    pending.resolve(result);
  }

  private kill(slot: Slot): void {
    clearTimeout(slot.watchdog);
    try {
      slot.child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const idle = [...this.slots].find((slot) => slot.ready && !slot.dead && !slot.active);
      if (idle) {
        this.dispatch(idle, this.queue.shift()!);
        continue;
      }
      const starting = [...this.slots].filter((slot) => !slot.ready && !slot.dead).length;
      if (this.slots.size < this.options.size() && starting < this.queue.length) {
        this.spawn();
        continue;
      }
      return;
    }
    // Workers beyond the size (the setting went down) leave once idle.
    const idle = [...this.slots].filter((slot) => slot.ready && !slot.active && !slot.dead);
    for (const slot of idle.slice(0, Math.max(0, this.slots.size - this.options.size()))) this.send(slot, { type: "exit" });
  }

  private dispatch(slot: Slot, pending: Pending): void {
    const job = pending.job;
    const active: Active = {
      pending,
      job,
      started: performance.now(),
      deadlineMs: 0,
      collected: [],
      reported: [],
      killedByWatchdog: false,
      cancelled: false,
    };
    slot.active = active;
    const message: ParentMessage = { type: "run", file: job.file, timeoutMs: job.timeoutMs };
    if (job.source !== undefined) message.source = job.source;
    if (job.onlyIds) message.onlyIds = job.onlyIds;
    if (job.schemaModules) message.schemaModules = job.schemaModules;
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
    slot.watchdog = setTimeout(() => {
      if (slot.active) slot.active.killedByWatchdog = true;
      this.kill(slot);
    }, deadlineMs + this.graceMs);
  }

  private spawn(): void {
    let child: ChildProcess;
    try {
      child = this.factory();
    } catch (error) {
      this.options.log(`could not start a worker: ${error instanceof Error ? error.message : String(error)}`);
      for (const pending of this.queue.splice(0)) this.settle(pending, { report: fileError(pending.job.file, "turnlens could not start a worker process"), schemas: [] });
      return;
    }
    const slot: Slot = { child, ready: false, dead: false, startupErr: "" };
    this.slots.add(slot);
    child.stdout?.on("data", (chunk: Buffer) => this.output(slot, chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => {
      if (!slot.ready) slot.startupErr = (slot.startupErr + chunk.toString()).slice(-4000);
      this.output(slot, chunk.toString());
    });
    child.on("exit", (code, signal) => this.onExit(slot, code, signal));
    child.on("error", (error) => {
      this.options.log(`worker error: ${error.message}`);
      if (child.exitCode !== null || child.signalCode !== null) this.onExit(slot, child.exitCode, child.signalCode);
    });
    child.on("message", (raw) => this.onMessage(slot, raw as WorkerMessage));
  }

  private output(slot: Slot, text: string): void {
    if (slot.active?.pending.listener.onOutput) slot.active.pending.listener.onOutput(text);
    else if (slot.ready) this.options.log(`worker output: ${text.trimEnd()}`);
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.type === "ready") {
      slot.ready = true;
      this.startupFailures = 0;
      this.pump();
      return;
    }
    const active = slot.active;
    if (!active || active.cancelled) return;
    if (message.type === "event") {
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
    } else if (message.type === "file") {
      clearTimeout(slot.watchdog);
      slot.active = undefined;
      const pending = active.pending;
      const report: FileReport = {
        ...message.report,
        tests: [...pending.carried, ...message.report.tests],
        durationMs: Math.round((pending.carriedMs + message.report.durationMs) * 100) / 100,
      };
      this.settle(pending, { report, schemas: message.schemas ?? [] });
      this.pump();
    }
  }

  private onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.dead) return;
    slot.dead = true;
    clearTimeout(slot.watchdog);
    this.slots.delete(slot);
    const active = slot.active;
    slot.active = undefined;
    if (active && !active.cancelled && !active.pending.settled) this.reportDeath(active, code, signal);
    if (!slot.ready && !active) {
      this.startupFailures++;
      if (this.startupFailures >= 2) {
        const why = `turnlens could not start a worker process (${signal ? `signal ${signal}` : `exit code ${code}`})`;
        const message = slot.startupErr.trim() ? `${why}:\n${slot.startupErr.trim()}` : why;
        this.options.log(message);
        for (const pending of this.queue.splice(0)) this.settle(pending, { report: fileError(pending.job.file, message), schemas: [] });
      }
    }
    this.pump();
  }

  /** A worker died mid-run: report what it was doing, and resume the file's other tests. */
  private reportDeath(active: Active, code: number | null, signal: NodeJS.Signals | null): void {
    const pending = active.pending;
    const elapsed = performance.now() - active.started;
    const why = active.killedByWatchdog
      ? `did not finish within its ${active.deadlineMs}ms timeout (plus ${this.graceMs}ms grace) and blocked its worker process (a synchronous infinite loop?); the worker was killed`
      : `ended its worker process (${signal ? `killed by signal ${signal}` : `exit code ${code}`}); did it call process.kill, run out of memory or crash node?`;
    pending.carried.push(...active.reported);
    pending.carriedMs += elapsed;
    const phase = active.phase;
    if (phase?.kind === "test") {
      const error: ErrorReport = { message: `the test ${why}` };
      if (phase.test.location) error.location = phase.test.location;
      const report: TestReport = { id: phase.test.id, name: phase.test.name, path: phase.test.path, status: "failed", durationMs: Math.round(elapsed), error, runs: [] };
      if (phase.test.location) report.location = phase.test.location;
      pending.carried.push(report);
      pending.listener.onEvent?.({ type: "test", report });
      const done = new Set(pending.carried.map((test) => test.id));
      const remaining = active.collected.map((test) => test.id).filter((id) => !done.has(id));
      if (remaining.length > 0) {
        pending.job = { ...pending.job, onlyIds: remaining };
        this.queue.unshift(pending);
        return;
      }
      this.settle(pending, { report: { file: active.job.file, tests: pending.carried, durationMs: Math.round(pending.carriedMs) }, schemas: [] });
      return;
    }
    if (phase?.kind === "beforeAll" || phase?.kind === "afterAll") {
      pending.carried.push(hookFailureReport(phase.kind, phase.suite, why));
      this.settle(pending, { report: { file: active.job.file, tests: pending.carried, durationMs: Math.round(pending.carriedMs) }, schemas: [] });
      return;
    }
    const what = phase?.kind === "load" ? "the file's top-level code" : "loading the file";
    const report = fileError(active.job.file, `${what} ${why}`);
    report.tests = pending.carried;
    this.settle(pending, { report, schemas: [] });
  }
}

function fileError(file: string, message: string): FileReport {
  return { file, tests: [], durationMs: 0, error: { message } };
}
