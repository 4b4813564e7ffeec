// `textDocument/publishDiagnostics`. A test document's: the static ones at once on open and on each
// change, then static and run diagnostics together when a run's results arrive for the current
// version, with the last assertion check's (assertionChecks.ts). While the run of a new version
// goes, the last run's diagnostics are carried to the new text (carriedDiagnostics.ts) rather than
// cleared, so they do not blink as the user types; when no run follows (manual, onSave, untrusted,
// no tests) the static set is published alone. Closing clears it. A workflow document's: the
// outcomes no test gives an agent (workflowFiles/workflowViews.ts), as the test files' runs change.
import type { Diagnostic } from "vscode-languageserver";
import { carryDiagnostics } from "../views/carriedDiagnostics.ts";
import type { Server } from "../server.ts";
import { onePerProblem, wireDiagnostic } from "../views/shownDiagnostics.ts";
import { staticDiagnostics } from "../views/toLsp.ts";

export function register(server: Server): void {
  const { connection, state, scheduler, assertionChecks } = server;
  const addedFor = (uri: string) => assertionChecks.diagnosticsOf(uri).map(wireDiagnostic);
  /** The run diagnostics last published for each document, and the text they were placed in. */
  const shownRun = new Map<string, { text: string; diagnostics: Diagnostic[] }>();
  const send = (uri: string, version: number, diagnostics: Diagnostic[]) =>
    server.forget("publishDiagnostics", connection.sendDiagnostics({ uri, version, diagnostics }));
  /** Static diagnostics and the current run's, when there is one of this version. */
  const publish = (uri: string) => {
    const document = state.documents.get(uri);
    const analysis = state.analysis(uri);
    if (!document || !analysis || !state.get(uri)) return;
    const run = (state.currentResults(uri)?.view.diagnostics ?? []).map(wireDiagnostic);
    shownRun.set(uri, { text: analysis.text, diagnostics: run });
    send(uri, document.version, onePerProblem([...staticDiagnostics(analysis.model).map(wireDiagnostic), ...run, ...addedFor(uri)]));
  };
  /** A change: the new static diagnostics at once, with the last run's carried when a run follows. */
  const publishChange = ({ uri, runFollows }: { uri: string; runFollows: boolean }) => {
    const document = state.documents.get(uri);
    const analysis = state.analysis(uri);
    if (!document || !analysis || !state.get(uri)) return;
    const shown = shownRun.get(uri);
    const run = runFollows && shown ? carryDiagnostics(uri, shown.text, analysis.text, shown.diagnostics) : [];
    shownRun.set(uri, { text: analysis.text, diagnostics: run });
    send(uri, document.version, onePerProblem([...staticDiagnostics(analysis.model).map(wireDiagnostic), ...run]));
  };
  state.onDidOpen.event(server.guardNotification("publish static diagnostics", publish));
  scheduler.onDidChange.event(server.guardNotification("publish static diagnostics", publishChange));
  // No run followed after all (trust or the run mode changed meanwhile): carried diagnostics go.
  scheduler.onDidSettle.event(
    server.guardNotification("publish static diagnostics", ({ uri, willRun }: { uri: string; willRun: boolean }) => {
      if (!willRun && (shownRun.get(uri)?.diagnostics.length ?? 0) > 0) publish(uri);
    }),
  );
  state.onDidChangeResults.event(server.guardNotification("publish run diagnostics", publish));
  assertionChecks.onDidChangeDiagnostics.event(server.guardNotification("publish answer checks", publish));
  state.onDidClose.event(
    server.guardNotification("clear diagnostics", (uri: string) => {
      shownRun.delete(uri);
      server.forget("publishDiagnostics", connection.sendDiagnostics({ uri, diagnostics: [] }));
    }),
  );

  // Workflow documents: what is shown for each open one, so an unchanged set is not sent again.
  const views = server.workflowViews;
  const shownWorkflow = new Map<string, string>();
  const publishWorkflows = () => {
    for (const document of state.documents.all()) {
      if (state.get(document.uri)) continue;
      const diagnostics = views.diagnostics(document.uri);
      const json = JSON.stringify(diagnostics);
      if ((shownWorkflow.get(document.uri) ?? "[]") === json) continue;
      shownWorkflow.set(document.uri, json);
      server.forget("publishDiagnostics", connection.sendDiagnostics({ uri: document.uri, diagnostics }));
    }
  };
  views.runs.onDidChange.event(server.guardNotification("workflow views", publishWorkflows));
  // A settings change reconverts the test files' views; the workflow's follow.
  state.onDidChangeResults.event(server.guardNotification("workflow views", publishWorkflows));
  state.documents.onDidClose(
    server.guardNotification("clear workflow diagnostics", ({ document }) => {
      if (!shownWorkflow.delete(document.uri)) return;
      server.forget("publishDiagnostics", connection.sendDiagnostics({ uri: document.uri, diagnostics: [] }));
    }),
  );
}
