// The Test Explorer's runs (server/protocol.ts), for clients that show a test tree and say so with
// `experimental.turnlens.testExplorer`: `turnlens/runTests`, the runs the client asks for by
// self-describing ids, their `turnlens/testRunProgress` (and every background run's), and
// `turnlens/cancelTestRun`. The tree itself is testsDiscovered.ts's.
import { pathToFileURL } from "node:url";
import type { FileReport, TestReport } from "../../core/execution/report.ts";
import {
  CancelTestRunNotification,
  EXPERIMENTAL_CAPABILITY,
  RunTestsRequest,
  TestId,
  TestRunProgressNotification,
  type RunTestsParams,
  type RunTestsResult,
  type TestMessage,
  type TestRunProgressMessage,
  type TurnlensClientCapabilities,
} from "../protocol.ts";
import type { RunInfo } from "../state.ts";
import type { Server } from "../server.ts";
import { failureMessages } from "../views/testTree.ts";

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  let enabled = false;
  /** Explorer run id → the documents it still waits for. */
  const explorerRuns = new Map<string, Set<string>>();

  server.onInitialize((params, result) => {
    const capabilities = params.capabilities.experimental as Record<string, TurnlensClientCapabilities | undefined> | undefined;
    enabled = capabilities?.[EXPERIMENTAL_CAPABILITY]?.testExplorer === true;
    state.testExplorer = enabled;
    result.capabilities.experimental = { ...((result.capabilities.experimental as object | undefined) ?? {}), [EXPERIMENTAL_CAPABILITY]: { testExplorer: true } };
  });

  const progress = (runId: string, message: TestRunProgressMessage, background?: string) =>
    server.forget(
      "testRunProgress",
      connection.sendNotification(TestRunProgressNotification.type, { runId, ...(background ? { background: true, uri: background } : {}), message }),
    );

  const end = (runId: string) => {
    if (!explorerRuns.delete(runId)) return;
    progress(runId, { type: "end" });
  };
  state.onDidClose.event(
    server.guardNotification("end runs of a closed document", (uri: string) => {
      // A run queued for the document will never start.
      for (const [runId, pending] of explorerRuns) if (pending.delete(uri) && pending.size === 0 && !scheduler.isRunning(uri)) end(runId);
    }),
  );

  /** Where a run's progress goes: the client's runs, or (for the explorer) a background run of the document. */
  const targets = (run: RunInfo): Array<{ runId: string; background?: string }> =>
    run.request.runIds.length > 0 ? run.request.runIds.map((runId) => ({ runId })) : enabled ? [{ runId: run.id, background: run.uri }] : [];

  const messagesOf = (run: RunInfo, report: TestReport): TestMessage[] => {
    const document = state.get(run.uri);
    return failureMessages(run.uri, document?.file ?? report.location?.file ?? "", run.analysis, report, document?.settings ?? state.globalSettings);
  };

  /** The tests each run has said started (the runner re-announces a test before its body). */
  const startedTests = new WeakMap<RunInfo, Set<string>>();
  /** Files whose last run had a snapshot mismatch: only they (and files leaving this set) are told about, so a run without snapshots sends nothing more. */
  const filesWithSnapshotFailures = new Set<string>();
  scheduler.onRunEvent.event(
    server.guardNotification("test run progress", ({ run, event }: Parameters<Parameters<typeof scheduler.onRunEvent.event>[0]>[0]) => {
      if (event.type === "phase" && event.phase.kind === "test") {
        const seen = startedTests.get(run) ?? new Set<string>();
        startedTests.set(run, seen);
        if (seen.has(event.phase.test.id)) return;
        seen.add(event.phase.test.id);
      }
      for (const { runId, background } of targets(run)) {
        if (event.type === "phase" && event.phase.kind === "test") progress(runId, { type: "started", test: TestId.of(run.uri, event.phase.test.path) }, background);
        if (event.type !== "test") continue;
        const report = event.report;
        const test = TestId.of(run.uri, report.path);
        if (report.status === "passed") progress(runId, { type: "passed", test, durationMs: report.durationMs }, background);
        else if (report.status === "failed") progress(runId, { type: "failed", test, durationMs: report.durationMs, messages: messagesOf(run, report) }, background);
        else progress(runId, { type: "skipped", test }, background);
      }
    }),
  );
  scheduler.onRunOutput.event(
    server.guardNotification("test run output", ({ run, text }: { run: RunInfo; text: string }) => {
      for (const runId of run.request.runIds) progress(runId, { type: "output", text });
    }),
  );
  scheduler.onDidEndRun.event(
    server.guardNotification("test run end", ({ run, outcome, result }: { run: RunInfo; outcome: string; result?: { report: FileReport } }) => {
      // Published results say which versions of the files they read they came from.
      const inputs = outcome === "fresh" ? state.get(run.uri)?.results?.inputs.map(({ file, ...version }) => ({ uri: pathToFileURL(file).href, ...version })) : undefined;
      const snapshotFailures = result ? snapshotFailuresOf(run.uri, result.report) : undefined;
      const snapshotFailuresChanged = snapshotFailures && (snapshotFailures.tests.length > 0 || filesWithSnapshotFailures.has(run.uri));
      if (snapshotFailures?.tests.length) filesWithSnapshotFailures.add(run.uri);
      else if (snapshotFailures) filesWithSnapshotFailures.delete(run.uri);
      for (const { runId, background } of targets(run)) {
        if (snapshotFailuresChanged) progress(runId, snapshotFailures, background);
        if (background) {
          progress(runId, { type: "end", ...(inputs ? { inputs } : {}) }, background);
          continue;
        }
        if (result?.report.error) progress(runId, { type: "output", text: `${result.report.error.message}\n` });
        const pending = explorerRuns.get(runId);
        if (pending?.delete(run.uri) && pending.size === 0) end(runId);
      }
    }),
  );

  connection.onRequest(
    RunTestsRequest.type,
    server.guardRequest(RunTestsRequest.method, (params: RunTestsParams): RunTestsResult => {
      const runId = params.runId;
      if (!state.trusted) {
        progress(runId, { type: "end" });
        return { runId, enqueued: [], refused: "the workspace is not trusted, so Turnlens runs no tests" };
      }
      const excluded = new Set(params.exclude ?? []);
      const wanted = new Map<string, string[][] | "all">();
      const include = params.include?.length ? params.include : state.all().map((document) => document.uri);
      for (const id of include) {
        const { uri, path } = TestId.parse(id);
        const paths = wanted.get(uri);
        if (path.length === 0 || paths === "all") wanted.set(uri, "all");
        else wanted.set(uri, [...(paths ?? []), path]);
      }
      const pending = new Set<string>();
      const enqueued: string[] = [];
      explorerRuns.set(runId, pending);
      for (const [uri, selection] of wanted) {
        const model = state.analysis(uri)?.model;
        const known = (model?.tests ?? []).filter((test) => test.kind === "test").map((test) => test.path);
        let paths = selection === "all" ? undefined : selection;
        // Excluding tests from a whole file turns it into the list of its other tests.
        if (!paths && known.some((path) => excluded.has(TestId.of(uri, path)))) paths = known;
        paths = paths?.filter((path) => !excluded.has(TestId.of(uri, path)));
        if (paths && paths.length === 0) continue;
        const coverage = params.coverage ? { coverage: true as const } : {};
        if (!scheduler.request(uri, paths ? { runIds: [runId], paths, ...coverage } : { runIds: [runId], ...coverage })) continue;
        pending.add(uri);
        for (const path of paths ?? known) {
          const test = TestId.of(uri, path);
          enqueued.push(test);
          progress(runId, { type: "enqueued", test });
        }
      }
      if (pending.size === 0) end(runId);
      return { runId, enqueued };
    }),
  );

  connection.onNotification(
    CancelTestRunNotification.type,
    server.guardNotification(CancelTestRunNotification.method, (params) => {
      scheduler.cancelRunId(params.runId);
      end(params.runId);
    }),
  );
}

/** The tests of a file's run whose snapshot did not match, by the explorer's test ids. */
function snapshotFailuresOf(uri: string, report: FileReport): { type: "snapshotFailures"; uri: string; tests: string[] } {
  const failedIds = new Set(report.snapshots?.failures.map((failure) => failure.testId));
  const tests = report.tests.filter((test) => failedIds.has(test.id)).map((test) => TestId.of(uri, test.path));
  return { type: "snapshotFailures", uri, tests };
}
