// An inlay hint at the end of each script's line: what it met and how that ended, as hintLabels.ts
// words it (`reader · turn 1 answered`, `writer · compaction 1 answered "Plan: …"`, `✗ never sent (…)`); one per
// line at most, the labels of a line's kinds joined with "; " (a turn hint uses " ·"), turns first.
// While the run of an edited version goes, the last run's hints are carried to the new text and
// marked stale (carriedHints.ts), as the diagnostics are, rather than vanishing until it ends.
// A run's hints whose inputs changed since (a workflow edit) are marked stale too (staleInputs.ts).
// A workflow document's hints are its calls' (workflowFiles/workflowViews.ts), asked again as the runs change.
import type { InlayHint, InlayHintParams } from "vscode-languageserver";
import { lineInRange } from "../analysis/ranges.ts";
import { carryHints, markStale } from "../views/carriedHints.ts";
import type { Server } from "../server.ts";
import { runHints } from "../views/runHints.ts";

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  const inputs = server.staleInputs;
  /** The hints last made for each document and the text they are placed in; `stale` once carried past an edit. */
  const shown = new Map<string, { text: string; hints: InlayHint[]; stale: boolean }>();
  server.onInitialize((_params, result) => {
    result.capabilities.inlayHintProvider = true;
  });
  const refresh = () => {
    if (state.clientCapabilities.workspace?.inlayHint?.refreshSupport) void connection.languages.inlayHint.refresh().catch(() => {});
  };
  state.onDidChangeResults.event(
    server.guardNotification("refresh inlay hints", (uri: string) => {
      const results = state.currentResults(uri);
      if (results) shown.set(uri, { text: results.text, hints: runHints(results), stale: false });
      refresh();
    }),
  );
  // An edit a run follows carries the hints shown (fresh or already carried, when that run was
  // cancelled by this edit) to the new text; an edit no run follows drops them, as the diagnostics.
  scheduler.onDidChange.event(
    server.guardNotification("carry inlay hints", ({ uri, runFollows }: { uri: string; runFollows: boolean }) => {
      const last = shown.get(uri);
      const analysis = state.analysis(uri);
      if (!runFollows || !last || !analysis) {
        shown.delete(uri);
        return;
      }
      shown.set(uri, { text: analysis.text, hints: carryHints(uri, last.text, analysis.text, last.hints), stale: true });
    }),
  );
  // A file the results read changed (a workflow edit): their hints are marked stale at once, and
  // again once its rerun starts.
  scheduler.onDidChangeInputs.event(server.guardNotification("refresh inlay hints", refresh));
  scheduler.onDidStartRun.event(
    server.guardNotification("refresh inlay hints", ({ uri }: { uri: string }) => {
      const results = state.currentResults(uri);
      if (results && inputs.resultsStale(results)) refresh();
    }),
  );
  scheduler.onDidSettle.event(
    server.guardNotification("drop carried inlay hints", ({ uri, willRun }: { uri: string; willRun: boolean }) => {
      if (willRun || !shown.get(uri)?.stale) return;
      shown.delete(uri);
      refresh();
    }),
  );
  state.onDidClose.event(
    server.guardNotification("forget inlay hints", (uri: string) => {
      shown.delete(uri);
    }),
  );
  // A workflow document's hints follow every test file's runs, and a settings change.
  server.workflowViews.runs.onDidChange.event(server.guardNotification("workflow views", refresh));
  state.onDidChangeResults.event(server.guardNotification("workflow views", refresh));
  connection.languages.inlayHint.on(
    server.guardRequest("inlayHint", (params: InlayHintParams): InlayHint[] => {
      const uri = params.textDocument.uri;
      if (!state.get(uri)) return server.workflowViews.inlayHints(params);
      if (!state.get(uri)?.settings.inlayHints) return [];
      const inRange = (hint: InlayHint) => lineInRange(hint.position.line, params.range);
      const results = state.currentResults(uri);
      if (results) {
        const hints = runHints(results).filter(inRange);
        return inputs.resultsStale(results) ? hints.map(markStale) : hints;
      }
      const carried = shown.get(uri);
      if (!carried?.stale || carried.text !== state.analysis(uri)?.text) return [];
      return carried.hints.filter(inRange).map(markStale);
    }),
  );
}
