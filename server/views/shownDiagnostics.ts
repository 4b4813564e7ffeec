// A test document's diagnostics as they are shown: the static pass's and the current run's, one per
// problem, and as they go on the wire (their fixes stay on the server's copy). Read by the
// diagnostics a document publishes and by its code actions.
import type { Diagnostic } from "vscode-languageserver";
import type { StaticTestFile } from "../analysis/model.ts";
import type { RunView } from "./runView.ts";
import { staticDiagnostics, type TurnlensDiagnostic } from "./toLsp.ts";

/** Where a document's diagnostics come from: its static pass, and its run results while they are of its current text (server/state.ts). */
export interface DiagnosticsSource {
  analysis(uri: string): { model: StaticTestFile } | undefined;
  currentResults(uri: string): { view: RunView } | undefined;
}

/**
 * One report per problem: a diagnostic with the code, range and message of one before it (an entry
 * two tests share and both leave unreached, a run's copy of a static problem) is dropped.
 */
export function onePerProblem<Shown extends Diagnostic | TurnlensDiagnostic>(diagnostics: Shown[]): Shown[] {
  const seen = new Set<string>();
  return diagnostics.filter((diagnostic) => {
    const { start, end } = diagnostic.range;
    const key = JSON.stringify([diagnostic.code, start.line, start.character, end.line, end.character, diagnostic.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The document's current diagnostics, fixes attached: static, plus the run's when they are current. */
export function currentDiagnostics(state: DiagnosticsSource, uri: string): TurnlensDiagnostic[] {
  const analysis = state.analysis(uri);
  if (!analysis) return [];
  const results = state.currentResults(uri);
  return onePerProblem([...staticDiagnostics(analysis.model), ...(results?.view.diagnostics ?? [])]);
}

/** A diagnostic as it goes on the wire: code actions are computed from the server's copy. */
export function wireDiagnostic({ data: _data, ...diagnostic }: TurnlensDiagnostic): Diagnostic {
  return diagnostic;
}
