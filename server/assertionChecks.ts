// "Check what this test asserts" (docs/mutate.md): the `turnlens.checkAssertions` command reruns
// one test with each scripted answer changed (core/mutate/mutate.ts) in the warm workers, and each
// answer no assertion noticed gets an information diagnostic (`answer-unchecked`) on its entry,
// until the next edit or run of the document. The server's one instance (`server.assertionChecks`);
// features/assertionsChecked.ts feeds it edits, runs and closes and says each check's end.
import { randomUUID } from "node:crypto";
import { DiagnosticSeverity, Emitter } from "vscode-languageserver";
import { AbandonWork, type WorkerPool } from "../core/execution/pool.ts";
import { DEFAULT_MUTATE_BUDGET_MS, listMutants, runMutants, scoreOf, uncheckedSentence, type Mutant } from "../core/mutate/mutate.ts";
import { entryAtSite } from "./analysis/siteLookup.ts";
import { ABANDONED_CHECK_GRACE_MS } from "./limits.ts";
import type { AssertionsCheckedParams } from "./protocol.ts";
import { forget } from "./requestGuards.ts";
import type { ServerState } from "./state.ts";
import { diagnostic, type TurnlensDiagnostic } from "./views/toLsp.ts";

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

export class AssertionChecks {
  /** A document's `answer-unchecked` diagnostics changed: they are published again. */
  readonly onDidChangeDiagnostics = new Emitter<string>();
  /** A check started or ended: the lenses show its progress or its score. */
  readonly onDidChangeLenses = new Emitter<void>();
  /** A check ended with this score: the client is told (`turnlens/assertionsChecked`). */
  readonly onDidEnd = new Emitter<AssertionsCheckedParams>();
  private readonly documents = new Map<string, DocumentChecks>();

  constructor(
    private readonly state: ServerState,
    private readonly workers: WorkerPool,
    private readonly log: ServerState["log"],
  ) {}

  /** The lens title of a test: while its check runs, its last score, else (for a test that `passed`) the command; undefined for none. */
  lensTitle(uri: string, testId: string, passed: boolean): string | undefined {
    const checks = this.documents.get(uri);
    if (checks?.running?.testId === testId) return "⟳ Checking what this test asserts…";
    const score = checks?.scores.get(testId);
    if (!score) return passed ? "Check what this test asserts" : undefined;
    // The test failed in the check's own first run, or met no agents entry: there was nothing to change.
    if (score.run === 0 && score.notRun === 0) return "no scripted answer to check";
    const unnoticed = score.run - score.noticed;
    const notRun = score.notRun > 0 ? `, ${score.notRun} not run` : "";
    return unnoticed === 0 ? `✓ every change noticed (${score.run}${notRun})` : `${unnoticed} of ${score.run} changes unnoticed${notRun}`;
  }

  /** The `answer-unchecked` diagnostics of the document's last check. */
  diagnosticsOf(uri: string): TurnlensDiagnostic[] {
    return this.documents.get(uri)?.diagnostics ?? [];
  }

  /** Starts the check of the test at `path`; false when it cannot run (untrusted, not open). */
  start(uri: string, path: string[]): boolean {
    const { state, workers } = this;
    const document = state.get(uri);
    const analysis = state.analysis(uri);
    const open = state.documents.get(uri);
    if (!state.trusted || !document || !analysis || !open) return false;
    const checks: DocumentChecks = this.documents.get(uri) ?? { diagnostics: [], scores: new Map() };
    this.documents.set(uri, checks);
    cancel(checks);
    const testId = path.join(" › ");
    const check: Check = { version: open.version, testId, controller: new AbortController() };
    checks.running = check;
    this.onDidChangeLenses.fire();
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
      checks.diagnostics = unnoticed.flatMap((mutant) => this.placed(uri, mutant));
      const score = scoreOf(mutants);
      checks.scores.set(testId, score);
      this.onDidChangeDiagnostics.fire(uri);
      this.onDidChangeLenses.fire();
      this.onDidEnd.fire({ uri, path, ...score, unnoticed: unnoticed.map(uncheckedSentence) });
    };
    forget(this.log, "checkAssertions", run());
    return true;
  }

  /** An edit of the document: its checks' diagnostics and scores are of another text now (the edit publishes its own). */
  edited(uri: string): void {
    this.clear(uri);
  }

  /** A run of the document started: its checks' diagnostics go, and are published gone. */
  runStarted(uri: string): void {
    if (this.clear(uri)) this.onDidChangeDiagnostics.fire(uri);
  }

  /** The document closed: its check is cancelled and forgotten. */
  closed(uri: string): void {
    this.clear(uri);
    this.documents.delete(uri);
  }

  /** Cancels the document's check and drops its results; true when it had diagnostics shown. */
  private clear(uri: string): boolean | undefined {
    const checks = this.documents.get(uri);
    if (!checks) return;
    cancel(checks);
    const shown = checks.diagnostics.length > 0;
    checks.diagnostics = [];
    checks.scores.clear();
    return shown;
  }

  /** The diagnostic of an unnoticed mutant, on its entry's callee (`answer`), where the text still has it. */
  private placed(uri: string, mutant: Mutant): TurnlensDiagnostic[] {
    const model = this.state.analysis(uri)?.model;
    if (!model || !mutant.site) return [];
    const found = entryAtSite(model, mutant.site.line, mutant.site.column);
    if (!found) return [];
    return [diagnostic(found.entry.calleeRange ?? found.entry.range, "answer-unchecked", uncheckedSentence(mutant), [], DiagnosticSeverity.Information)];
  }
}

function cancel(checks: DocumentChecks): void {
  checks.running?.controller.abort(new AbandonWork(ABANDONED_CHECK_GRACE_MS));
  checks.running = undefined;
}
