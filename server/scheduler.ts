// When each document's tests run: a short debounce per document through the injected timer, one
// run per document at a time, and a newer edit cancels a background run of an older version (its
// worker's work abandoned, then the worker killed if it does not end within a grace), so typing
// never queues stale runs. A run someone asked for (the explorer, a command) ends and one rerun
// queues behind it. Results of an old version are dropped; closing a document cancels its run.
// Nothing here is awaited by a request.
import { readFileSync } from "node:fs";
import { Emitter } from "vscode-languageserver";
import type { RunEvent } from "../core/runner/runFile.ts";
import { isTestFile } from "../core/runner/discover.ts";
import { analyzeTestFile } from "./analysis/analyzeTestFile.ts";
import type { Analysis, ServerState } from "./state.ts";
import { fileOf } from "./state.ts";
import { AbandonWork, type JobResult, type WorkerPool } from "../core/runner/pool.ts";

/**
 * How long an abandoned run's worker may stay silent (no test beginning or ending) before it is
 * killed. A warm worker ends a small file in 20–50 ms, far sooner than a fresh worker is ready
 * (185–260 ms, seconds on a loaded machine), so it is let finish and stays warm; a test that
 * loops or waits is cut off here. Meanwhile the new run takes another worker (the pool starts a
 * second one beside it once), so the grace never delays it.
 */
export const ABANDON_GRACE_MS = 1000;

export interface Timer {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface RunRequest {
  /** Test paths to run (describe names, then the test name); absent runs the whole file. */
  paths?: string[][];
  /** The client's explorer runs this run serves; empty for a run the server started itself. */
  runIds: string[];
}

/** One run of one document, as the features see it. */
export interface RunInfo {
  /** Unique per server: progress for a background run goes out under it. */
  id: string;
  uri: string;
  /** The document version it runs; undefined for a file that is not open (run from disk). */
  version: number | undefined;
  request: RunRequest;
  analysis: Analysis;
  /** When it started, from the injected clock. */
  started: number;
}

export type RunOutcome = "fresh" | "stale" | "cancelled";

interface DocumentRuns {
  timer?: unknown;
  running?: { info: RunInfo; controller: AbortController };
  /** What was asked while a run was going; started when it ends. */
  queued?: RunRequest;
}

export interface SchedulerEnv {
  state: ServerState;
  workers: WorkerPool;
  timer: Timer;
  now: () => number;
}

export class Scheduler {
  /** A change of an open document, at once; `runFollows`: a run of this version follows its debounce. */
  readonly onDidChange = new Emitter<{ uri: string; runFollows: boolean }>();
  /** The debounce after an edit ended; `willRun` tells whether a run follows at once. */
  readonly onDidSettle = new Emitter<{ uri: string; willRun: boolean }>();
  readonly onDidStartRun = new Emitter<RunInfo>();
  readonly onRunEvent = new Emitter<{ run: RunInfo; event: RunEvent }>();
  readonly onRunOutput = new Emitter<{ run: RunInfo; text: string }>();
  readonly onDidEndRun = new Emitter<{ run: RunInfo; outcome: RunOutcome; result?: JobResult }>();
  private readonly runs = new Map<string, DocumentRuns>();
  private counter = 0;

  constructor(private readonly env: SchedulerEnv) {}

  private entry(uri: string): DocumentRuns {
    let entry = this.runs.get(uri);
    if (!entry) this.runs.set(uri, (entry = {}));
    return entry;
  }

  /** Whether a run of the document is going on. */
  isRunning(uri: string): boolean {
    return this.runs.get(uri)?.running !== undefined;
  }

  /** An open, a change or a save: restarts the document's debounce (a save in `onSave` runs at once). */
  edited(uri: string, reason: "open" | "change" | "save"): void {
    const state = this.env.state.get(uri);
    if (!state) return;
    const entry = this.entry(uri);
    if (reason === "save") {
      if (state.settings.runMode === "onSave") this.request(uri, { runIds: [] });
      return;
    }
    if (reason === "change") this.supersede(uri, entry);
    if (entry.timer !== undefined) this.env.timer.clearTimeout(entry.timer);
    entry.timer = this.env.timer.setTimeout(() => this.settle(uri, reason), state.settings.debounceMs);
    if (reason === "change") this.onDidChange.fire({ uri, runFollows: this.runFollows(uri, "change") });
  }

  /** Whether the debounce of an open or a change starts a run. */
  private runFollows(uri: string, reason: "open" | "change"): boolean {
    const state = this.env.state.get(uri);
    if (!state || !this.env.state.trusted) return false;
    const mode = state.settings.runMode;
    const wanted = reason === "open" ? mode !== "manual" : mode === "onType";
    return wanted && (this.env.state.analysis(uri)?.model.tests.length ?? 0) > 0;
  }

  /**
   * The text moved on: a background run of an older version is cancelled now, its worker's work
   * abandoned, so no stale run holds a worker while the next one waits. A run the explorer or a
   * command asked for goes on (its results are reported to whoever asked) and a rerun queues.
   */
  private supersede(uri: string, entry: DocumentRuns): void {
    const running = entry.running;
    if (!running || running.info.request.runIds.length > 0 || running.info.request.paths) return;
    entry.running = undefined;
    this.env.state.log.debug(`run ${running.info.id} of ${uri} (version ${running.info.version}) cancelled: a newer edit arrived`);
    running.controller.abort(new AbandonWork(ABANDON_GRACE_MS));
  }

  private settle(uri: string, reason: "open" | "change"): void {
    const entry = this.runs.get(uri);
    const state = this.env.state.get(uri);
    if (!entry || !state) return;
    entry.timer = undefined;
    const willRun = this.runFollows(uri, reason);
    this.onDidSettle.fire({ uri, willRun });
    if (willRun) this.request(uri, { runIds: [] });
  }

  /** Runs the document's tests now, or once its current run ends. False when nothing will run. */
  request(uri: string, request: RunRequest): boolean {
    if (!this.env.state.trusted) return false;
    const file = fileOf(uri);
    if (!this.env.state.get(uri) && !(file && isTestFile(file))) return false;
    const entry = this.entry(uri);
    if (entry.running) {
      entry.queued = entry.queued ? merge(entry.queued, request) : request;
      return true;
    }
    return this.start(uri, request);
  }

  private start(uri: string, request: RunRequest): boolean {
    const entry = this.entry(uri);
    const state = this.env.state.get(uri);
    const document = this.env.state.documents.get(uri);
    let analysis: Analysis | undefined;
    let file: string | undefined;
    let timeoutMs = this.env.state.globalSettings.testTimeout;
    if (state && document) {
      analysis = this.env.state.analysis(uri);
      file = state.file;
      timeoutMs = state.settings.testTimeout;
    } else {
      // Not open: the explorer asked for a file by id; run what is on disk.
      file = fileOf(uri);
      try {
        const text = file ? readFileSync(file, "utf8") : undefined;
        if (file && text !== undefined) analysis = { version: -1, text, model: analyzeTestFile(file, text) };
      } catch {
        analysis = undefined;
      }
    }
    if (!analysis || !file) return false;
    const controller = new AbortController();
    const info: RunInfo = { id: `run-${++this.counter}`, uri, version: document ? analysis.version : undefined, request, analysis, started: this.env.now() };
    entry.running = { info, controller };
    const onlyIds = request.paths?.map((path) => path.join(" › "));
    const schemaModules = Object.keys(analysis.model.imports).filter((module) => module.startsWith(".") || module.startsWith("/"));
    this.onDidStartRun.fire(info);
    void this.env.workers
      .run({ file, source: analysis.text, timeoutMs, ...(onlyIds ? { onlyIds } : {}), schemaModules }, controller.signal, {
        onEvent: (event) => this.onRunEvent.fire({ run: info, event }),
        onOutput: (text) => this.onRunOutput.fire({ run: info, text }),
      })
      .then(
        (result) => this.finish(uri, info, result),
        (error: unknown) => {
          this.env.state.log.error(`run of ${uri} failed: ${error instanceof Error ? error.message : String(error)}`);
          this.finish(uri, info, undefined);
        },
      );
    return true;
  }

  private finish(uri: string, info: RunInfo, result: JobResult | undefined): void {
    const entry = this.runs.get(uri);
    const current = entry?.running?.info === info;
    if (entry && current) entry.running = undefined;
    let outcome: RunOutcome = "cancelled";
    if (result) {
      const version = this.env.state.documents.get(uri)?.version;
      // The document moved on (or closed) while the run went: its results would point at old text.
      const fresh = info.version !== undefined && version === info.version && this.env.state.get(uri) !== undefined;
      outcome = fresh ? "fresh" : "stale";
      if (fresh) this.env.state.setResults(uri, info.analysis, result.report, result.schemas, info.request.paths !== undefined);
    }
    this.env.state.log.debug(`run ${info.id} of ${uri} (version ${info.version ?? "on disk"}): ${outcome} after ${Math.round(this.env.now() - info.started)} ms`);
    try {
      this.onDidEndRun.fire({ run: info, outcome, ...(result ? { result } : {}) });
    } finally {
      if (entry && current && entry.queued) {
        const queued = entry.queued;
        entry.queued = undefined;
        this.start(uri, queued);
      } else if (entry && !entry.running && entry.timer === undefined && !this.env.state.get(uri)) {
        this.runs.delete(uri);
      }
    }
  }

  /** Cancels the document's run and anything queued; keeps its debounce. */
  cancel(uri: string): void {
    const entry = this.runs.get(uri);
    if (!entry) return;
    entry.queued = undefined;
    entry.running?.controller.abort();
  }

  /** Cancels every run serving the explorer run `runId`. */
  cancelRunId(runId: string): RunInfo[] {
    const cancelled: RunInfo[] = [];
    for (const entry of this.runs.values()) {
      if (entry.queued?.runIds.includes(runId)) {
        entry.queued.runIds = entry.queued.runIds.filter((id) => id !== runId);
        if (entry.queued.runIds.length === 0) entry.queued = undefined;
      }
      if (entry.running?.info.request.runIds.includes(runId)) {
        cancelled.push(entry.running.info);
        entry.running.controller.abort();
      }
    }
    return cancelled;
  }

  /** Closing a document: no debounce, no queued run, its running one killed. */
  close(uri: string): void {
    const entry = this.runs.get(uri);
    if (!entry) return;
    if (entry.timer !== undefined) this.env.timer.clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.queued = undefined;
    entry.running?.controller.abort();
    this.runs.delete(uri);
  }

  /** Cancels everything and kills every worker (a stop, a shutdown, trust withdrawn). */
  stopAll(): void {
    for (const entry of this.runs.values()) {
      if (entry.timer !== undefined) this.env.timer.clearTimeout(entry.timer);
      entry.timer = undefined;
      entry.queued = undefined;
      entry.running?.controller.abort();
    }
    this.env.workers.stop();
  }
}

function merge(left: RunRequest, right: RunRequest): RunRequest {
  const runIds = [...new Set([...left.runIds, ...right.runIds])];
  if (!left.paths || !right.paths) return { runIds };
  const seen = new Set(left.paths.map((path) => JSON.stringify(path)));
  return { runIds, paths: [...left.paths, ...right.paths.filter((path) => !seen.has(JSON.stringify(path)))] };
}
