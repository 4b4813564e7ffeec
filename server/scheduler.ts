// When each document's tests run: a short debounce per document through the injected timer, one
// run per document at a time, and a newer edit cancels a background run of an older version (its
// worker's work abandoned, then the worker killed if it does not end within a grace), so typing
// never queues stale runs. A change to a file a test file's runs read (an open buffer's edit, a
// save, a change on disk) does the same for that test file (moduleGraph.ts says which). A run
// someone asked for (the explorer, a command) ends and one rerun queues behind it. Results of an
// old version of the file or of any file it read are dropped; closing a document cancels its run.
// Nothing here is awaited by a request. What an edit costs past taking its text (the static pass
// and what is carried to it, the end of the debounce, a run's start) waits behind the messages the
// client already sent (messageBacklog.ts), so a flood of edits does it once, for the last version;
// a debounce's end and a run's start wait for the client to pause.
import { readFileSync, statSync } from "node:fs";
import { Emitter } from "vscode-languageserver";
import type { RunEvent } from "../core/execution/runFile.ts";
import { isTestFile } from "../core/project/discover.ts";
import { analyzeTestFile } from "./analysis/analyzeTestFile.ts";
import { importsDirectly } from "./moduleGraph.ts";
import { runSettingsFrom, type ProjectConfigs } from "./projectConfig.ts";
import type { Analysis, DocumentRuns, DocumentState, InputVersion, RunInfo, RunRequest, ServerState } from "./state.ts";
import { fileOf } from "./state.ts";
import { AbandonWork, type JobResult, type WorkerPool } from "../core/execution/pool.ts";
import { waitingWork, type MessageBacklog } from "./messageBacklog.ts";
import { ABANDONED_RUN_GRACE_MS } from "./limits.ts";
import { markStart } from "./startTimeline.ts";

export interface Timer {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How a file a run may read changed: a buffer's text, a save of a buffer, or the disk (a file not open). */
export type InputChange = "edit" | "save" | "disk";

export type RunOutcome = "fresh" | "stale" | "cancelled";

export interface SchedulerEnv {
  state: ServerState;
  workers: WorkerPool;
  timer: Timer;
  now: () => number;
  /** The project configs of the files run (loaded off the server's thread). */
  configs: ProjectConfigs;
  backlog: MessageBacklog;
}

export class Scheduler {
  /** A change of an open document, at once; `runFollows`: a run of this version follows its debounce. */
  readonly onDidChange = new Emitter<{ uri: string; runFollows: boolean }>();
  /** The debounce after an edit ended; `willRun` tells whether a run follows at once. */
  readonly onDidSettle = new Emitter<{ uri: string; willRun: boolean }>();
  readonly onDidStartRun = new Emitter<RunInfo>();
  /**
   * What open test files' runs read changed (a workflow edited), at once: their results are stale
   * now, not once the rerun starts (which waits for a pause in the client's messages).
   */
  readonly onDidChangeInputs = new Emitter<{ file: string; dependents: string[] }>();
  readonly onRunEvent = new Emitter<{ run: RunInfo; event: RunEvent }>();
  readonly onRunOutput = new Emitter<{ run: RunInfo; text: string }>();
  readonly onDidEndRun = new Emitter<{ run: RunInfo; outcome: RunOutcome; result?: JobResult }>();
  /**
   * Test files that are not open and whose last run read a file that changed, gathered over the
   * debounce: the client's continuous run reruns them (the server reruns only open ones).
   */
  readonly onClosedTestsAffected = new Emitter<{ tests: string[]; changed: string[] }>();
  private counter = 0;
  /** Input changes so far, and the count when each file last changed (what a run read is stale past it). */
  private changes = 0;
  private readonly lastChange = new Map<string, number>();
  private affectedClosed?: { tests: Set<string>; changed: Set<string>; timer: unknown };

  constructor(private readonly env: SchedulerEnv) {}

  /** The document's runs, in its record (made for a test file that is not open). */
  private entry(uri: string, file: string): DocumentRuns {
    return this.env.state.record(uri, file).runs;
  }

  /** The document's runs when it has a record. */
  private runsOf(uri: string): DocumentRuns | undefined {
    return this.env.state.recordOf(uri)?.runs;
  }

  /** Whether any of `files` changed after the input-change count `count` (a result that read them is of text that is no more). */
  changedAfter(files: readonly string[], count: number): boolean {
    return files.some((file) => (this.lastChange.get(file) ?? 0) > count);
  }

  /** Whether a run of the document is going on. */
  isRunning(uri: string): boolean {
    return this.runsOf(uri)?.running !== undefined;
  }

  /**
   * Whether a run of the document is on its way: its debounce ends in one, or one waits to start,
   * runs or is queued. A hover waits for it, bounded (features/hover.ts).
   */
  runPending(uri: string): boolean {
    const entry = this.runsOf(uri);
    if (!entry) return false;
    if (entry.waitingStart || entry.running || entry.queued) return true;
    if (entry.timer === undefined) return false;
    return (entry.ownReason !== undefined && this.runFollows(uri, entry.ownReason)) || (entry.inputWantsRun === true && this.hasTestsToRun(uri));
  }

  /**
   * An open, a change or a save: restarts the document's debounce (a save in `onSave` runs at once).
   * A change's `onDidChange` waits behind the backlog: one for the last of a burst of changes.
   */
  edited(uri: string, reason: "open" | "change" | "save"): void {
    const state = this.env.state.get(uri);
    if (!state) return;
    const entry = state.runs;
    if (reason === "save") {
      if (state.settings.runMode === "onSave") this.request(uri, { runIds: [] });
      return;
    }
    if (reason === "change") {
      this.supersede(uri, entry);
      this.lastChange.set(state.file, ++this.changes);
    }
    entry.ownReason = reason;
    this.debounce(uri, entry, state.settings.debounceMs);
    if (reason === "change")
      this.env.backlog.defer(waitingWork.change(uri), () => {
        if (this.env.state.get(uri)) this.onDidChange.fire({ uri, runFollows: this.runFollows(uri, "change") });
      });
  }

  /** (Re)starts the debounce; its end waits behind the backlog too, and a new debounce drops an end that waits. */
  private debounce(uri: string, entry: DocumentRuns, ms: number): void {
    if (entry.timer !== undefined) this.env.timer.clearTimeout(entry.timer);
    this.env.backlog.cancel(waitingWork.settle(uri));
    entry.timer = this.env.timer.setTimeout(() => this.env.backlog.defer(waitingWork.settle(uri), () => this.settle(uri), true), ms);
  }

  /**
   * What a run reads of `file` (not an open test document's own text: that is `edited`) changed.
   * Every open test file whose last run read it (or, not run yet, that imports it as written) has
   * its background run cancelled, and reruns after its debounce when its run mode says so: `onType`
   * on an edit or a change on disk, `onSave` on a save or a change on disk, `manual` never. Test
   * files that are not open are gathered for the client's continuous run. Nothing else reruns.
   */
  inputChanged(file: string, how: InputChange): void {
    // A save makes the disk what the buffer was: what a run reads did not change.
    if (how !== "save") this.lastChange.set(file, ++this.changes);
    const open = new Set<string>();
    const dependents: string[] = [];
    for (const state of this.env.state.all()) {
      open.add(state.file);
      if (state.file === file || !this.dependsOn(state, file)) continue;
      dependents.push(state.uri);
      const entry = state.runs;
      if (how !== "save") this.supersede(state.uri, entry, `${file} changed`);
      if (!inputRunFollows(state.settings.runMode, how)) continue;
      entry.inputWantsRun = true;
      this.debounce(state.uri, entry, state.settings.debounceMs);
    }
    if (how !== "save" && dependents.length > 0) this.onDidChangeInputs.fire({ file, dependents });
    const closed = this.env.state.graph.dependents(file).filter((test) => !open.has(test));
    if (closed.length === 0 || !inputRunFollows(this.env.state.globalSettings.runMode, how)) return;
    const affected = (this.affectedClosed ??= {
      tests: new Set(),
      changed: new Set(),
      timer: this.env.timer.setTimeout(() => this.flushAffected(), this.env.state.globalSettings.debounceMs),
    });
    for (const test of closed) affected.tests.add(test);
    affected.changed.add(file);
  }

  private flushAffected(): void {
    const affected = this.affectedClosed;
    this.affectedClosed = undefined;
    if (affected) this.onClosedTestsAffected.fire({ tests: [...affected.tests], changed: [...affected.changed] });
  }

  /** An open buffer that is not an open test document appeared with `text`: a change when the disk differs. */
  bufferOpened(file: string, text: string): void {
    if (diskText(file) !== text) this.inputChanged(file, "edit");
  }

  /** Such a buffer closed with `text`: its file is read from disk again, a change when that differs. */
  bufferClosed(file: string, text: string): void {
    if (diskText(file) !== text) this.inputChanged(file, "edit");
  }

  /** Whether the test document's runs read `file`: its last run did, or, not run yet, it imports it as written. */
  private dependsOn(state: DocumentState, file: string): boolean {
    if (this.env.state.graph.inputs(state.file)?.has(file)) return true;
    const imports = this.env.state.analysis(state.uri)?.model.imports;
    return imports !== undefined && importsDirectly(state.file, Object.keys(imports), file);
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
  private supersede(uri: string, entry: DocumentRuns, why = "a newer edit arrived"): void {
    const running = entry.running;
    if (!running || running.info.request.runIds.length > 0 || running.info.request.paths) return;
    entry.running = undefined;
    this.env.state.log.debug(`run ${running.info.id} of ${uri} (version ${running.info.version}) cancelled: ${why}`);
    running.controller.abort(new AbandonWork(ABANDONED_RUN_GRACE_MS));
  }

  private settle(uri: string): void {
    const state = this.env.state.get(uri);
    if (!state) return;
    const entry = state.runs;
    entry.timer = undefined;
    const { ownReason, inputWantsRun } = entry;
    entry.ownReason = undefined;
    entry.inputWantsRun = undefined;
    const willRun = (ownReason !== undefined && this.runFollows(uri, ownReason)) || (inputWantsRun === true && this.hasTestsToRun(uri));
    if (ownReason !== undefined) this.onDidSettle.fire({ uri, willRun });
    if (willRun) this.request(uri, { runIds: [] });
  }

  private hasTestsToRun(uri: string): boolean {
    return this.env.state.trusted && (this.env.state.analysis(uri)?.model.tests.length ?? 0) > 0;
  }

  /**
   * Runs the document's tests once the client's messages are read (an open document), or now (a
   * file that is not open), or once its current run ends; requests that meet are merged into one
   * run. False when nothing will run.
   */
  request(uri: string, request: RunRequest): boolean {
    if (!this.env.state.trusted) return false;
    const file = this.env.state.get(uri)?.file ?? fileOf(uri);
    if (!file || (!this.env.state.get(uri) && !isTestFile(file))) return false;
    const entry = this.entry(uri, file);
    if (entry.running) {
      this.queueBehind(uri, entry, request);
      return true;
    }
    if (!this.env.state.get(uri)) return this.start(uri, request);
    entry.waitingStart = entry.waitingStart ? merge(entry.waitingStart, request) : request;
    this.env.backlog.defer(waitingWork.start(uri), () => this.startWaiting(uri), true);
    return true;
  }

  private startWaiting(uri: string): void {
    const entry = this.runsOf(uri);
    const request = entry?.waitingStart;
    if (!entry || !request) return;
    entry.waitingStart = undefined;
    if (entry.running) this.queueBehind(uri, entry, request);
    else this.start(uri, request);
  }

  /**
   * Queues `request` behind the document's current run. A run of the file from disk (the
   * explorer's Run All) that an open document's run waits for goes ahead of the rest of the
   * workspace, as the document's own runs do.
   */
  private queueBehind(uri: string, entry: DocumentRuns, request: RunRequest): void {
    entry.queued = entry.queued ? merge(entry.queued, request) : request;
    if (entry.running && entry.running.info.version === undefined && this.env.state.get(uri)) this.env.workers.hurry(entry.running.controller.signal);
  }

  /** Drops what waits behind the backlog for the document: its run's start, and with `all` its change and debounce end. */
  private dropWaiting(uri: string, entry: DocumentRuns, all: boolean): void {
    entry.waitingStart = undefined;
    this.env.backlog.cancel(waitingWork.start(uri));
    if (!all) return;
    this.env.backlog.cancel(waitingWork.change(uri));
    this.env.backlog.cancel(waitingWork.settle(uri));
  }

  private start(uri: string, request: RunRequest): boolean {
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
    const entry = this.entry(uri, file);
    const controller = new AbortController();
    // Every open buffer, saved or not, is what the bundle reads in place of the disk.
    const { sources, versions } = this.env.state.openSources();
    const info: RunInfo = {
      id: `run-${++this.counter}`,
      uri,
      file,
      version: document ? analysis.version : undefined,
      request,
      analysis,
      started: this.env.now(),
      sentVersions: versions,
      changesBefore: this.changes,
    };
    entry.running = { info, controller };
    const onlyIds = request.paths?.map((path) => path.join(" › "));
    const schemaModules = Object.keys(analysis.model.imports).filter((module) => module.startsWith(".") || module.startsWith("/"));
    this.onDidStartRun.fire(info);
    const runFile = file;
    void this.env.configs
      .forFile(runFile)
      .then((config) => {
        // The project's config file sets the timeout (over the editor's setting) and the setup files.
        const project = runSettingsFrom(config);
        const setupFiles = project.setupFiles ? { setupFiles: project.setupFiles } : {};
        const vite = project.vite ? { vite: project.vite } : {};
        // An open document's run goes ahead of files run from disk (a Run All of the workspace): the
        // file in front of the user gets its results first. A disk run it waits for is hurried too.
        const first = document !== undefined || this.env.state.get(uri) !== undefined;
        const coverage = request.coverage ? { coverage: true as const } : {};
        const job = {
          file: runFile,
          source: analysis.text,
          sources,
          timeoutMs: project.timeoutMs ?? timeoutMs,
          schemaModules,
          first,
          ...setupFiles,
          ...vite,
          ...coverage,
        };
        return this.env.workers.run({ ...job, ...(onlyIds ? { onlyIds } : {}) }, controller.signal, {
          // The start's log line (startTimeline.ts): when an open document's first run reached a worker.
          onStart: () => info.version !== undefined && markStart("its run given to a worker"),
          onEvent: (event) => this.onRunEvent.fire({ run: info, event }),
          onOutput: (text) => this.onRunOutput.fire({ run: info, text }),
        });
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
    const entry = this.runsOf(uri);
    const current = entry?.running?.info === info;
    if (entry && current) entry.running = undefined;
    let outcome: RunOutcome = "cancelled";
    if (result) {
      if (result.inputs) this.env.state.graph.set(info.file, result.inputs);
      const version = this.env.state.documents.get(uri)?.version;
      // The document moved on (or closed) while the run went: its results would point at old text.
      const ofCurrentText = info.version !== undefined && version === info.version && this.env.state.get(uri) !== undefined;
      // A file it read changed since it started: its results are of a workflow that is no more.
      const moved = (result.inputs ?? []).filter((input) => (this.lastChange.get(input) ?? 0) > info.changesBefore);
      const fresh = ofCurrentText && moved.length === 0;
      outcome = fresh ? "fresh" : "stale";
      if (fresh) this.env.state.setResults(uri, info.analysis, result.report, result.schemas, info.request.paths !== undefined, this.inputVersions(info, result.inputs));
      if (ofCurrentText && moved.length > 0) {
        this.env.state.log.debug(`run ${info.id} of ${uri}: dropped, ${moved.join(", ")} changed while it ran`);
        // No rerun may be on its way (the change came before this run had told what it reads).
        const state = this.env.state.get(uri);
        if (entry && !entry.queued && !entry.waitingStart && entry.timer === undefined && state && state.settings.runMode !== "manual") entry.queued = { runIds: [] };
      }
    }
    this.env.state.log.debug(`run ${info.id} of ${uri} (version ${info.version ?? "on disk"}): ${outcome} after ${Math.round(this.env.now() - info.started)} ms`);
    try {
      this.onDidEndRun.fire({ run: info, outcome, ...(result ? { result } : {}) });
    } finally {
      if (entry && !entry.running && entry.queued) {
        const queued = entry.queued;
        entry.queued = undefined;
        this.start(uri, queued);
      } else if (entry && !entry.running && entry.timer === undefined && !this.env.state.get(uri)) {
        this.env.state.forgetClosed(uri);
      }
    }
  }

  /** The version of each file the run read: the open document's it was sent, else the file's modification time now. */
  private inputVersions(info: RunInfo, inputs: readonly string[] | undefined): InputVersion[] {
    return (inputs ?? [info.file]).map((file): InputVersion => {
      const version = info.sentVersions.get(file);
      if (version !== undefined) return { file, version };
      try {
        return { file, modifiedMs: statSync(file).mtimeMs };
      } catch {
        return { file };
      }
    });
  }

  /** Cancels the document's run and anything queued; keeps its debounce. */
  cancel(uri: string): void {
    const entry = this.runsOf(uri);
    if (!entry) return;
    entry.queued = undefined;
    this.dropWaiting(uri, entry, false);
    entry.running?.controller.abort();
  }

  /** Cancels every run serving the explorer run `runId`. */
  cancelRunId(runId: string): RunInfo[] {
    const cancelled: RunInfo[] = [];
    for (const { uri, runs: entry } of this.env.state.records()) {
      if (entry.queued?.runIds.includes(runId)) {
        entry.queued.runIds = entry.queued.runIds.filter((id) => id !== runId);
        if (entry.queued.runIds.length === 0) entry.queued = undefined;
      }
      if (entry.waitingStart?.runIds.includes(runId)) {
        entry.waitingStart.runIds = entry.waitingStart.runIds.filter((id) => id !== runId);
        if (entry.waitingStart.runIds.length === 0) this.dropWaiting(uri, entry, false);
      }
      if (entry.running?.info.request.runIds.includes(runId)) {
        cancelled.push(entry.running.info);
        entry.running.controller.abort();
      }
    }
    return cancelled;
  }

  /** Closing a document: no debounce, no queued run, its running one killed (the state then drops its record). */
  close(uri: string): void {
    const entry = this.runsOf(uri);
    if (!entry) return;
    if (entry.timer !== undefined) this.env.timer.clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.queued = undefined;
    this.dropWaiting(uri, entry, true);
    entry.running?.controller.abort();
  }

  /** Cancels everything and kills every worker (a stop, a shutdown, trust withdrawn). */
  stopAll(): void {
    for (const { uri, runs: entry } of this.env.state.records()) {
      if (entry.timer !== undefined) this.env.timer.clearTimeout(entry.timer);
      entry.timer = undefined;
      entry.queued = undefined;
      this.dropWaiting(uri, entry, true);
      entry.running?.controller.abort();
    }
    this.env.configs.stop();
    this.env.workers.stop();
  }
}

/** Whether a change of a file a test file reads reruns it, in its run mode. */
function inputRunFollows(mode: "onType" | "onSave" | "manual", how: InputChange): boolean {
  if (mode === "manual") return false;
  return how === "disk" || (mode === "onType" ? how === "edit" : how === "save");
}

/** The file's text on disk; undefined when it cannot be read (gone, a folder). */
function diskText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function merge(left: RunRequest, right: RunRequest): RunRequest {
  const runIds = [...new Set([...left.runIds, ...right.runIds])];
  // A Run with Coverage merged with another run still measures.
  const coverage = left.coverage || right.coverage ? { coverage: true as const } : {};
  if (!left.paths || !right.paths) return { runIds, ...coverage };
  const seen = new Set(left.paths.map((path) => JSON.stringify(path)));
  return { runIds, paths: [...left.paths, ...right.paths.filter((path) => !seen.has(JSON.stringify(path)))], ...coverage };
}
