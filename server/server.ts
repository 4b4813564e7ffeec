// startServer: the state, the workers and the scheduler, then every feature in dependency order.
// The connection and the edges (timer, clock, worker processes) come from the caller, so tests
// drive it over in-memory streams with a manual timer.
import { MessageType, ShowMessageNotification, type Connection, type InitializeParams, type InitializeResult } from "vscode-languageserver";
import { checkIncomingFrames, skippedFrames } from "./frameCheck.ts";
import { documentOfRequest, forget, guardNotification, guardRequest, guardTimer } from "./requestGuards.ts";
import { MessageBacklog, waitingWork } from "./messageBacklog.ts";
import { EXPERIMENTAL_CAPABILITY, PROTOCOL_VERSION, type TurnlensServerCapabilities } from "./protocol.ts";
import { logRuns, logStart, write } from "./runLog.ts";
import { markStart, observeWorkers } from "./startTimeline.ts";
import { loggedWorkers } from "./workerLog.ts";
import { Scheduler, type Timer } from "./scheduler.ts";
import { ProjectConfigs } from "./projectConfig.ts";
import { preloadJob, warmupJob, type EarlyWorkers } from "./warmup.ts";
import { logger } from "./logger.ts";
import { loadTypescript } from "./analysis/typescript.ts";
import { fileOf, ServerState, type Logger } from "./state.ts";
import { WorkerPool, type WorkerFactory } from "../core/execution/pool.ts";
import { AnswerSchemas } from "./answerSchemas.ts";
import { AssertionChecks } from "./assertionChecks.ts";
import { StaleInputs } from "./staleInputs.ts";
import { TestReports } from "./testReports.ts";
import { WorkflowViews } from "./workflowFiles/workflowViews.ts";
import { LineCoverageRuns } from "./lineCoverageRuns.ts";
import * as assertionsChecked from "./features/assertionsChecked.ts";
import * as codeActions from "./features/codeActions.ts";
import * as completion from "./features/completion.ts";
import * as codeLens from "./features/codeLens.ts";
import * as commands from "./features/commands.ts";
import * as configuration from "./features/configuration.ts";
import * as diagnostics from "./features/diagnostics.ts";
import * as documents from "./features/documents.ts";
import * as hover from "./features/hover.ts";
import * as inlayHints from "./features/inlayHints.ts";
import * as outcomeCoverage from "./features/outcomeCoverage.ts";
import * as lineCoverage from "./features/lineCoverage.ts";
import * as progress from "./features/progress.ts";
import * as testExplorer from "./features/testExplorer.ts";
import * as testFiles from "./features/testFiles.ts";
import * as testsDiscovered from "./features/testsDiscovered.ts";
import * as testsAffected from "./features/testsAffected.ts";
import * as timeline from "./features/timeline.ts";
import * as transcript from "./features/transcript.ts";
import * as trust from "./features/trust.ts";
import * as references from "./features/references.ts";
import * as watchedFiles from "./features/watchedFiles.ts";

export interface ServerEnv {
  /** Debounces and the progress delay. Tests pass a manual timer. */
  timer: Timer;
  /** The clock runs are timed with. */
  now: () => number;
  /** Starts a worker process (core's dist/worker.mjs). */
  createWorker: WorkerFactory;
  /** Time a blocked worker gets past a test's timeout before it is killed. */
  workerGraceMs?: number;
  /** The package's version (its package.json), reported as `serverInfo.version`. */
  version?: string;
  /** When a warm worker is replaced (core/execution/limits.ts has the defaults). */
  workerRecycle?: { afterRuns: number; aboveRssBytes: number };
  /** The pool server/earlyPool.ts made as this bundle began, with the worker dist/server.js forked (then `createWorker` is unused). */
  workers?: EarlyWorkers;
  /**
   * The connection's message strategy (`createConnection(…, { messageStrategy: backlog })`): it
   * tells when the client's messages pile up. Without it every message looks like the last one.
   */
  backlog?: MessageBacklog;
}

/** What every feature's `register` receives. */
export interface Server {
  connection: Connection;
  env: ServerEnv;
  state: ServerState;
  workers: WorkerPool;
  scheduler: Scheduler;
  /** Work an edit causes, waiting until the client's messages are read (messageBacklog.ts). */
  backlog: MessageBacklog;
  log: Logger;
  /** The project's config of a file or folder, loaded off the server's thread (projectConfig.ts). */
  configs: ProjectConfigs;
  /** Adds to the initialize result (capabilities) and reads the client's params. */
  onInitialize(contribute: (params: InitializeParams, result: InitializeResult) => void): void;
  /** Runs on the client's `initialized` (registrations, pulls): the connection takes one handler, each feature adds its own here. */
  onInitialized(handler: () => void | Promise<void>): void;
  guardRequest: <P, R, T extends unknown[]>(name: string, handler: (params: P, ...rest: T) => R | Promise<R>) => ReturnType<typeof guardRequest<P, R, T>>;
  guardNotification: <P extends unknown[]>(name: string, handler: (...params: P) => void | Promise<void>) => (...params: P) => void;
  /** For a promise nobody awaits (a notification sent): a rejection is logged, never unhandled. */
  forget: (name: string, promise: Promise<unknown>) => void;
  /** The views in workflow files, from every test file's last run (workflowFiles/workflowViews.ts). */
  workflowViews: WorkflowViews;
  /** Each answer's schema as the runs told it, for completion and the fill fix (answerSchemas.ts). */
  answerSchemas: AnswerSchemas;
  /** Which results were made from inputs changed since (staleInputs.ts): their lenses and hints are marked stale. */
  staleInputs: StaleInputs;
  /** "Check what this test asserts": each document's check, its diagnostics and scores (assertionChecks.ts). */
  assertionChecks: AssertionChecks;
  /** Each test's last report, for `turnlens/transcript` and `turnlens/timeline` (testReports.ts). */
  testReports: TestReports;
  /** Each test file's last Run with Coverage's line coverage, for `turnlens/lineCoverage` (lineCoverageRuns.ts). */
  lineCoverage: LineCoverageRuns;
}

export function startServer(connection: Connection, given: ServerEnv): Server {
  const log = logger(connection, () => state.globalSettings.logLevel);
  // Timer callbacks (the debounces, the progress delay) run outside any handler: guarded here.
  const env: ServerEnv = { ...given, timer: guardTimer(log, given.timer) };
  const backlog = env.backlog ?? new MessageBacklog();
  backlog.reportError = (error) => log.error(`work after an edit failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const state = new ServerState(log, backlog);
  const early = env.workers;
  if (early) {
    early.size = () => state.globalSettings.workers;
    early.log = (message) => log.info(message);
  }
  const workers =
    early?.pool ??
    new WorkerPool({
      factory: loggedWorkers(env.createWorker, (line) => write(log, line)),
      size: () => state.globalSettings.workers,
      log: (message) => log.info(message),
      observe: observeWorkers,
      ...(env.workerGraceMs !== undefined ? { graceMs: env.workerGraceMs } : {}),
      ...(env.workerRecycle ? { recycle: env.workerRecycle } : {}),
    });
  // A config that cannot be used is said in the log and shown, once per message.
  const configs = new ProjectConfigs(log, env.timer, (message) =>
    forget(log, "showMessage", connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message })),
  );
  const scheduler = new Scheduler({ state, workers, timer: env.timer, now: env.now, configs, backlog });
  const initializers: Array<(params: InitializeParams, result: InitializeResult) => void> = [];
  const initializedHandlers: Array<() => void | Promise<void>> = [];
  initializers.push((params) => {
    const uris = params.workspaceFolders?.map((folder) => folder.uri) ?? (params.rootUri ? [params.rootUri] : []);
    configs.workspaceFolders = uris.flatMap((uri) => fileOf(uri) ?? []);
  });
  const server: Server = {
    connection,
    env,
    state,
    workers,
    scheduler,
    backlog,
    log,
    onInitialize: (contribute) => initializers.push(contribute),
    onInitialized: (handler) => initializedHandlers.push(handler),
    // A request about a document whose change waits behind a backlog does that change's work first,
    // once per backlog: it answers from the current text when that costs one pass, else from the last.
    guardRequest: (name, handler) =>
      guardRequest(log, name, (params, ...rest) => {
        const uri = documentOfRequest(params);
        if (uri !== undefined) backlog.bringForward(waitingWork.change(uri));
        return handler(params, ...rest);
      }),
    guardNotification: (name, handler) => guardNotification(log, name, handler),
    forget: (name, promise) => forget(log, name, promise),
    configs,
    workflowViews: new WorkflowViews(state, scheduler, configs, (contribute) => initializers.push(contribute)),
    answerSchemas: new AnswerSchemas(state),
    staleInputs: new StaleInputs(state, scheduler, (name, handler) => guardNotification(log, name, handler)),
    assertionChecks: new AssertionChecks(state, workers, log),
    testReports: new TestReports(scheduler, (name, handler) => guardNotification(log, name, handler)),
    lineCoverage: new LineCoverageRuns(scheduler, (name, handler) => guardNotification(log, name, handler)),
  };

  logRuns(server);
  logStart(server);
  // Order matters: documents feed the scheduler; diagnostics, views and the explorer read results.
  for (const feature of [
    configuration,
    trust,
    documents,
    watchedFiles,
    testsAffected,
    diagnostics,
    assertionsChecked,
    codeActions,
    completion,
    hover,
    inlayHints,
    codeLens,
    commands,
    testExplorer,
    testsDiscovered,
    testFiles,
    transcript,
    timeline,
    progress,
    references,
    outcomeCoverage,
    lineCoverage,
  ]) {
    feature.register(server);
  }
  // The early pool's worker lines, at their level, once the settings (logLevel) are read.
  if (early?.workerLines) server.onInitialize(() => early.workerLines?.attach((line) => write(log, line)));
  connection.onInitialized(() => {
    // The static pass's compiler is not in the server's bundle (analysis/lazyTypescript.ts): it loads
    // once the client has the answer to `initialize` (loaded sooner, it held that answer back by its
    // ~250 ms), unless a document needed it first.
    try {
      loadTypescript();
    } catch (error) {
      log.error(`the TypeScript compiler could not be loaded: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    for (const handler of initializedHandlers) server.forget("initialized", Promise.resolve().then(handler));
  });

  connection.onInitialize(
    guardRequest(log, "initialize", (params: InitializeParams) => {
      state.clientCapabilities = params.capabilities;
      const result: InitializeResult = { capabilities: {}, serverInfo: { name: "turnlens", ...(env.version !== undefined ? { version: env.version } : {}) } };
      for (const contribute of initializers) contribute(params, result);
      // A worker is forked and warmed now (unless dist/server.js did already), while the client
      // opens its first document, so that document's first run finds the engine loaded. Trust is
      // known now: in an untrusted workspace no worker stays.
      const folder = (params.rootUri ? fileOf(params.rootUri) : undefined) ?? process.cwd();
      if (state.trusted) workers.prewarm(1, { withFork: preloadJob(folder), whenIdle: warmupJob(folder) });
      else workers.stop();
      // Every server says which protocol it speaks, so a client can refuse one it does not know.
      const experimental = (result.capabilities.experimental ?? {}) as Record<string, TurnlensServerCapabilities | undefined>;
      result.capabilities.experimental = { ...experimental, [EXPERIMENTAL_CAPABILITY]: { ...experimental[EXPERIMENTAL_CAPABILITY], protocol: PROTOCOL_VERSION } };
      markStart("initialize answered");
      return result;
    }),
  );
  connection.onShutdown(guardRequest(log, "shutdown", () => scheduler.stopAll()));
  state.documents.listen(connection);
  // A malformed frame from the client is skipped and said, never the end of reading.
  checkIncomingFrames();
  skippedFrames.event((why) => log.error(why));
  connection.listen();
  return server;
}
