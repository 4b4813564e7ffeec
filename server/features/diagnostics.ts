// Publishes each test document's diagnostics: the static ones at once on open and on each change,
// then static and run diagnostics together when a run's results arrive for the current version.
// While the run of a new version goes, the last run's diagnostics are carried to the new text
// (carriedDiagnostics.ts) rather than cleared, so they do not blink as the user types; when no run
// follows (manual, onSave, untrusted, no tests) the static set is published alone. Closing clears it.
import type { Diagnostic } from "vscode-languageserver";
import { carryDiagnostics } from "../views/carriedDiagnostics.ts";
import type { Server } from "../server.ts";
import type { ServerState } from "../state.ts";
import { staticDiagnostics, type TurnlensDiagnostic } from "../views/toLsp.ts";

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
export function currentDiagnostics(state: ServerState, uri: string): TurnlensDiagnostic[] {
  const analysis = state.analysis(uri);
  if (!analysis) return [];
  const results = state.currentResults(uri);
  return onePerProblem([...staticDiagnostics(analysis.model), ...(results?.view.diagnostics ?? [])]);
}

/** A diagnostic as it goes on the wire: code actions are computed from the server's copy. */
export function wireDiagnostic({ data: _data, ...diagnostic }: TurnlensDiagnostic): Diagnostic {
  return diagnostic;
}

/** Diagnostics another feature adds to a document's (assertionCheck.ts's `answer-unchecked`), and how to publish them again. */
const added = new WeakMap<Server, { sources: Array<(uri: string) => TurnlensDiagnostic[]>; publish?: (uri: string) => void }>();

function addedOf(server: Server) {
  let entry = added.get(server);
  if (!entry) added.set(server, (entry = { sources: [] }));
  return entry;
}

/** Adds `source`'s diagnostics to each publication of a document's (until its next change). */
export function addDiagnosticSource(server: Server, source: (uri: string) => TurnlensDiagnostic[]): void {
  addedOf(server).sources.push(source);
}

/** Publishes the document's diagnostics again, now that a source's changed. */
export function republishDiagnostics(server: Server, uri: string): void {
  added.get(server)?.publish?.(uri);
}

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  const extra = addedOf(server);
  const addedFor = (uri: string) => extra.sources.flatMap((source) => source(uri)).map(wireDiagnostic);
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
  extra.publish = publish;
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
  state.onDidClose.event(
    server.guardNotification("clear diagnostics", (uri: string) => {
      shownRun.delete(uri);
      server.forget("publishDiagnostics", connection.sendDiagnostics({ uri, diagnostics: [] }));
    }),
  );
}
