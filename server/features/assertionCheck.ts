// "Check what this test asserts" (docs/mutate.md): the `turnlens.checkAssertions` command reruns
// one test with each scripted answer changed (core/mutate/mutate.ts) in the warm workers, and each
// answer no assertion noticed gets an information diagnostic (`answer-unchecked`) on its entry,
// until the next edit or run of the document.
import { randomUUID } from "node:crypto";
import { CodeLensRefreshRequest, DiagnosticSeverity } from "vscode-languageserver";
import { AbandonWork } from "../../core/execution/pool.ts";
import { DEFAULT_MUTATE_BUDGET_MS, listMutants, runMutants, scoreOf, uncheckedSentence, type Mutant } from "../../core/mutate/mutate.ts";
import { entryAtSite } from "../analysis/siteLookup.ts";
import { AssertionsCheckedNotification } from "../protocol.ts";
import type { Server } from "../server.ts";
import { diagnostic, type TurnlensDiagnostic } from "../views/toLsp.ts";
import { addDiagnosticSource, republishDiagnostics } from "./diagnostics.ts";

/** A worker whose check was cancelled finishes its test within this, else it is killed. */
const ABANDON_GRACE_MS = 2000;

interface Check {
  version: number;
  testId: string;
  controller: AbortController;
}

interface DocumentChecks {
  running?: Check;
  /** The diagnostics of the last check, for the version they were made in. */
  diagnostics: TurnlensDiagnostic[];
  /** Per test id, the last check's score, for its lens. */
  scores: Map<string, { run: number; noticed: number; notRun: number }>;
}

const servers = new WeakMap<Server, Map<string, DocumentChecks>>();

function documentsOf(server: Server): Map<string, DocumentChecks> {
  let documents = servers.get(server);
  if (!documents) servers.set(server, (documents = new Map()));
  return documents;
}

/** The lens title of a test: while its check runs, its last score, else (for a test that `passed`) the command; undefined for none. */
export function checkLensTitle(server: Server, uri: string, testId: string, passed: boolean): string | undefined {
  const checks = servers.get(server)?.get(uri);
  if (checks?.running?.testId === testId) return "⟳ Checking what this test asserts…";
  const score = checks?.scores.get(testId);
  if (!score) return passed ? "Check what this test asserts" : undefined;
  // The test failed in the check's own first run, or met no agents entry: there was nothing to change.
  if (score.run === 0 && score.notRun === 0) return "no scripted answer to check";
  const unnoticed = score.run - score.noticed;
  const notRun = score.notRun > 0 ? `, ${score.notRun} not run` : "";
  return unnoticed === 0 ? `✓ every change noticed (${score.run}${notRun})` : `${unnoticed} of ${score.run} changes unnoticed${notRun}`;
}

/** Starts the check of the test at `path`; false when it cannot run (untrusted, not open). */
export function startCheck(server: Server, uri: string, path: string[]): boolean {
  const { state, workers } = server;
  const document = state.get(uri);
  const analysis = state.analysis(uri);
  const open = state.documents.get(uri);
  if (!state.trusted || !document || !analysis || !open) return false;
  const checks: DocumentChecks = documentsOf(server).get(uri) ?? { diagnostics: [], scores: new Map() };
  documentsOf(server).set(uri, checks);
  cancel(checks);
  const testId = path.join(" › ");
  const check: Check = { version: open.version, testId, controller: new AbortController() };
  checks.running = check;
  refreshLenses(server);
  const { sources } = state.openSources();
  const job = { source: analysis.text, sources };
  const timeoutMs = document.settings.testTimeout;
  // The texts above are the check's: each worker bundles them once for all its mutants.
  const session = randomUUID();
  const run = async () => {
    const baseline = await workers.run({ file: document.file, ...job, timeoutMs, onlyIds: [testId], mutation: { session } }, check.controller.signal);
    const test = baseline?.report.tests.find((candidate) => candidate.id === testId);
    const mutants = baseline ? listMutants(baseline.report) : [];
    if (baseline && test)
      await runMutants(workers, mutants, {
        concurrency: state.globalSettings.workers,
        budgetMs: DEFAULT_MUTATE_BUDGET_MS,
        timeoutMs,
        baselineMs: () => test.durationMs,
        job,
        signal: check.controller.signal,
        session,
      });
    if (check.controller.signal.aborted || checks.running !== check) return;
    checks.running = undefined;
    const unnoticed = mutants.filter((mutant) => mutant.result === "not-noticed");
    checks.diagnostics = unnoticed.flatMap((mutant) => placed(server, uri, mutant));
    const score = scoreOf(mutants);
    checks.scores.set(testId, score);
    republishDiagnostics(server, uri);
    refreshLenses(server);
    server.forget(
      "assertionsChecked",
      server.connection.sendNotification(AssertionsCheckedNotification.type, { uri, path, ...score, unnoticed: unnoticed.map(uncheckedSentence) }),
    );
  };
  server.forget("checkAssertions", run());
  return true;
}

/** The diagnostic of an unnoticed mutant, on its entry's callee (`answer`), where the text still has it. */
function placed(server: Server, uri: string, mutant: Mutant): TurnlensDiagnostic[] {
  const model = server.state.analysis(uri)?.model;
  if (!model || !mutant.site) return [];
  const found = entryAtSite(model, mutant.site.line, mutant.site.column);
  if (!found) return [];
  return [diagnostic(found.entry.calleeRange ?? found.entry.range, "answer-unchecked", uncheckedSentence(mutant), [], DiagnosticSeverity.Information)];
}

function cancel(checks: DocumentChecks): void {
  checks.running?.controller.abort(new AbandonWork(ABANDON_GRACE_MS));
  checks.running = undefined;
}

function refreshLenses(server: Server): void {
  if (server.state.clientCapabilities.workspace?.codeLens?.refreshSupport) void server.connection.sendRequest(CodeLensRefreshRequest.type).catch(() => {});
}

export function register(server: Server): void {
  const { state, scheduler } = server;
  addDiagnosticSource(server, (uri) => servers.get(server)?.get(uri)?.diagnostics ?? []);
  /** An edit or a run of the document: the check's diagnostics and scores are of another text now. */
  const clear = (uri: string) => {
    const checks = servers.get(server)?.get(uri);
    if (!checks) return;
    cancel(checks);
    const shown = checks.diagnostics.length > 0;
    checks.diagnostics = [];
    checks.scores.clear();
    return shown;
  };
  scheduler.onDidChange.event(server.guardNotification("clear answer checks", ({ uri }: { uri: string }) => void clear(uri)));
  scheduler.onDidStartRun.event(
    server.guardNotification("clear answer checks", ({ uri }: { uri: string }) => {
      if (clear(uri)) republishDiagnostics(server, uri);
    }),
  );
  state.onDidClose.event(
    server.guardNotification("forget answer checks", (uri: string) => {
      clear(uri);
      servers.get(server)?.delete(uri);
    }),
  );
}
