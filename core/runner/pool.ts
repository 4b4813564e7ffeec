// Runs test files in a pool of worker processes and watches them: a test that blocks its worker
// past its timeout (plus a grace) gets the worker killed; a worker that dies has its running test
// reported failed, and the rest of its file resumes in a fresh worker.
import { fork, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { workerEntry } from "./paths.ts";
import type { ParentMessage, WorkerMessage } from "./protocol.ts";
import { hookFailureReport, type ErrorReport, type FileReport, type TestReport } from "./report.ts";
import type { Phase, TestInfo } from "./runFile.ts";

/** Time a blocked worker gets past its deadline before it is killed. */
export const GRACE_MS = 2000;

export interface PoolOptions {
  files: string[];
  timeoutMs: number;
  testNamePattern?: RegExp;
  /** Defaults to min(files, available parallelism). */
  workers?: number;
  onFileStart?(file: string): void;
  onTestEnd?(file: string, report: TestReport): void;
  onFileEnd?(report: FileReport): void;
  /** Output the tests wrote to stdout or stderr. */
  onOutput?(chunk: Buffer, stream: "stdout" | "stderr"): void;
  signal?: AbortSignal;
}

interface Job {
  file: string;
  onlyIds?: string[];
}

interface FileState {
  tests: TestReport[];
  error?: ErrorReport;
  durationMs: number;
  pendingJobs: number;
  started: boolean;
}

interface Slot {
  child: ChildProcess;
  job?: Job;
  jobStarted: number;
  phase?: Phase;
  deadlineMs: number;
  timer?: NodeJS.Timeout;
  killedByWatchdog: boolean;
  ready: boolean;
  /** What the worker wrote to stderr before it was ready, for a worker that cannot start. */
  startupErr: string;
  collected: TestInfo[];
  reported: TestReport[];
  exited: Promise<void>;
}

export async function runFiles(options: PoolOptions): Promise<FileReport[]> {
  const queue: Job[] = options.files.map((file) => ({ file }));
  const states = new Map<string, FileState>();
  for (const file of options.files) states.set(file, { tests: [], durationMs: 0, pendingJobs: 1, started: false });
  const size = Math.max(1, Math.min(options.workers ?? availableParallelism(), options.files.length));
  const slots = new Set<Slot>();
  const exits: Promise<void>[] = [];
  let finished!: () => void;
  const allDone = new Promise<void>((r) => (finished = r));
  let aborted = false;
  let startupFailures = 0;

  const state = (file: string) => states.get(file)!;

  const fileDone = (file: string) => {
    const s = state(file);
    s.pendingJobs--;
    if (s.pendingJobs > 0) return;
    const report: FileReport = { file, tests: s.tests, durationMs: Math.round(s.durationMs * 100) / 100 };
    if (s.error) report.error = s.error;
    options.onFileEnd?.(report);
  };

  const checkDone = () => {
    if ((queue.length === 0 || aborted) && [...slots].every((slot) => !slot.job)) finished();
  };

  const send = (slot: Slot, message: ParentMessage) => {
    try {
      slot.child.send(message);
    } catch {
      // it died; the exit handler deals with it
    }
  };

  const next = (slot: Slot) => {
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.phase = undefined;
    if (aborted || queue.length === 0) {
      send(slot, { type: "exit" });
      checkDone();
      return;
    }
    const job = queue.shift()!;
    slot.job = job;
    slot.jobStarted = performance.now();
    slot.collected = [];
    slot.reported = [];
    const s = state(job.file);
    if (!s.started) {
      s.started = true;
      options.onFileStart?.(job.file);
    }
    const message: ParentMessage = { type: "run", file: job.file, timeoutMs: options.timeoutMs };
    if (options.testNamePattern) message.pattern = { source: options.testNamePattern.source, flags: options.testNamePattern.flags };
    if (job.onlyIds) message.onlyIds = job.onlyIds;
    send(slot, message);
  };

  const arm = (slot: Slot, deadlineMs: number) => {
    clearTimeout(slot.timer);
    slot.deadlineMs = deadlineMs;
    slot.timer = setTimeout(() => {
      slot.killedByWatchdog = true;
      slot.child.kill("SIGKILL");
    }, deadlineMs + GRACE_MS);
  };

  const onDeath = (slot: Slot, code: number | null, signal: NodeJS.Signals | null) => {
    clearTimeout(slot.timer);
    slots.delete(slot);
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      const s = state(job.file);
      s.durationMs += performance.now() - slot.jobStarted;
      s.tests.push(...slot.reported);
      const why = slot.killedByWatchdog
        ? `did not finish within its ${slot.deadlineMs}ms timeout (plus ${GRACE_MS}ms grace) and blocked its worker process (a synchronous infinite loop?); the worker was killed`
        : `ended its worker process (${signal ? `killed by signal ${signal}` : `exit code ${code}`}); did it call process.kill or crash node?`;
      const phase = slot.phase;
      if (phase?.kind === "test") {
        const error: ErrorReport = { message: `the test ${why}` };
        if (phase.test.location) error.location = phase.test.location;
        const report: TestReport = {
          id: phase.test.id,
          name: phase.test.name,
          path: phase.test.path,
          status: "failed",
          durationMs: Math.round(performance.now() - slot.jobStarted),
          error,
          runs: [],
        };
        if (phase.test.location) report.location = phase.test.location;
        s.tests.push(report);
        options.onTestEnd?.(job.file, report);
        const done = new Set([...slot.reported.map((t) => t.id), phase.test.id]);
        const remaining = slot.collected.map((t) => t.id).filter((id) => !done.has(id));
        if (remaining.length > 0 && !aborted) {
          s.pendingJobs++;
          queue.unshift({ file: job.file, onlyIds: remaining });
        }
      } else if (phase?.kind === "beforeAll" || phase?.kind === "afterAll") {
        const report = hookFailureReport(phase.kind, phase.suite, why);
        s.tests.push(report);
        options.onTestEnd?.(job.file, report);
      } else {
        const what = phase?.kind === "load" ? "the file's top-level code" : "loading the file";
        s.error = { message: `${what} ${why}` };
      }
      fileDone(job.file);
    }
    if (!slot.ready && !job) {
      // The worker could not even start: fail what is left rather than respawn forever.
      startupFailures++;
      if (startupFailures >= 2) {
        const why = `turnlens could not start a worker process (${signal ? `signal ${signal}` : `exit code ${code}`})`;
        for (const queued of queue.splice(0)) {
          const s = state(queued.file);
          s.error = { message: slot.startupErr.trim() ? `${why}:\n${slot.startupErr.trim()}` : why };
          fileDone(queued.file);
        }
      }
    }
    if (!aborted && queue.length > 0) start();
    checkDone();
  };

  const start = () => {
    const child = fork(workerEntry(), [], {
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      env: { ...process.env, FORCE_COLOR: "0" },
      serialization: "json",
    });
    let resolveExit!: () => void;
    const slot: Slot = {
      child,
      jobStarted: 0,
      deadlineMs: 0,
      killedByWatchdog: false,
      ready: false,
      startupErr: "",
      collected: [],
      reported: [],
      exited: new Promise<void>((r) => (resolveExit = r)),
    };
    slots.add(slot);
    exits.push(slot.exited);
    child.stdout?.on("data", (chunk: Buffer) => options.onOutput?.(chunk, "stdout"));
    child.stderr?.on("data", (chunk: Buffer) => {
      if (!slot.ready) slot.startupErr = (slot.startupErr + chunk.toString()).slice(-4000);
      else options.onOutput?.(chunk, "stderr");
    });
    let dead = false;
    const die = (code: number | null, signal: NodeJS.Signals | null) => {
      if (dead) return;
      dead = true;
      resolveExit();
      onDeath(slot, code, signal);
    };
    child.on("exit", (code, signal) => die(code, signal));
    child.on("error", () => {
      if (child.exitCode !== null || child.signalCode !== null) die(child.exitCode, child.signalCode);
    });
    child.on("message", (raw) => {
      const message = raw as WorkerMessage;
      if (message.type === "ready") {
        slot.ready = true;
        next(slot);
      } else if (message.type === "event") {
        const event = message.event;
        if (event.type === "phase") {
          slot.phase = event.phase;
          arm(slot, event.deadlineMs);
        } else if (event.type === "collected") {
          slot.collected = event.tests;
        } else if (event.type === "test") {
          slot.reported.push(event.report);
          options.onTestEnd?.(message.file, event.report);
        }
      } else if (message.type === "file") {
        const job = slot.job;
        clearTimeout(slot.timer);
        if (!job) return;
        const s = state(job.file);
        s.durationMs += performance.now() - slot.jobStarted;
        s.tests.push(...message.report.tests);
        if (message.report.error) s.error = message.report.error;
        slot.job = undefined;
        fileDone(job.file);
        next(slot);
      }
    });
  };

  const onAbort = () => {
    aborted = true;
    queue.length = 0;
    for (const slot of slots) slot.child.kill("SIGKILL");
  };
  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) onAbort();

  if (options.files.length === 0) finished();
  else for (let i = 0; i < size && !aborted; i++) start();

  await allDone;
  // Let every worker exit (so all its output is flushed) before the caller prints its summary.
  const fallback = setTimeout(() => {
    for (const slot of slots) slot.child.kill("SIGKILL");
  }, 3000);
  await Promise.all(exits);
  clearTimeout(fallback);
  options.signal?.removeEventListener("abort", onAbort);

  return options.files.map((file) => {
    const s = state(file);
    const report: FileReport = { file, tests: s.tests, durationMs: Math.round(s.durationMs * 100) / 100 };
    if (s.error) report.error = s.error;
    return report;
  });
}
