// Publishes each test document's diagnostics: the static ones on open and after each debounce
// that no run follows, then static and run diagnostics together when a run's results arrive for
// the current version. Runs in flight never clear what is shown; closing clears it.
import type { Diagnostic } from "vscode-languageserver";
import type { Server } from "../server.ts";
import type { ServerState } from "../state.ts";
import { staticDiagnostics, type TurnlensDiagnostic } from "../toLsp.ts";

/** The document's current diagnostics, fixes attached: static, plus the run's when they are current. */
export function currentDiagnostics(state: ServerState, uri: string): TurnlensDiagnostic[] {
  const analysis = state.analysis(uri);
  if (!analysis) return [];
  const results = state.currentResults(uri);
  return [...staticDiagnostics(analysis.model), ...(results?.view.diagnostics ?? [])];
}

/** A diagnostic as it goes on the wire: code actions are computed from the server's copy. */
export function wireDiagnostic({ data: _data, ...diagnostic }: TurnlensDiagnostic): Diagnostic {
  return diagnostic;
}

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  const publish = (uri: string) => {
    const document = state.documents.get(uri);
    if (!document || !state.get(uri)) return;
    server.forget("publishDiagnostics", connection.sendDiagnostics({ uri, version: document.version, diagnostics: currentDiagnostics(state, uri).map(wireDiagnostic) }));
  };
  state.onDidOpen.event(server.guardNotification("publish static diagnostics", publish));
  scheduler.onDidSettle.event(server.guardNotification("publish static diagnostics", ({ uri, willRun }: { uri: string; willRun: boolean }) => {
    if (!willRun) publish(uri);
  }));
  state.onDidChangeResults.event(server.guardNotification("publish run diagnostics", publish));
  state.onDidClose.event(server.guardNotification("clear diagnostics", (uri: string) => server.forget("publishDiagnostics", connection.sendDiagnostics({ uri, diagnostics: [] }))));
}
