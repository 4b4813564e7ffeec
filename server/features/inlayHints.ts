// An inlay hint at the end of each script's line: what it met and how that ended, as hintLabels.ts
// words it (`reader · turn 1 answered`, `writer · compaction 1 answered "Plan: …"`, `✗ never sent (…)`); one per
// line at most, the labels of a line's kinds joined with "; " (a turn hint uses " ·"), turns first.
// While the run of an edited version goes, the last run's hints are carried to the new text and
// marked stale (carriedHints.ts), as the diagnostics are, rather than vanishing until it ends.
// A run's hints whose inputs changed since (a workflow edit) are marked stale too (staleInputs.ts).
import type { InlayHint, InlayHintParams } from "vscode-languageserver";
import { lineEnd, lineInRange } from "../analysis/ranges.ts";
import { carryHints, markStale } from "../views/carriedHints.ts";
import { staleInputs } from "../staleInputs.ts";
import type { Met, MetKind } from "../views/scriptViews.ts";
import type { Server } from "../server.ts";
import type { RunResults } from "../state.ts";
import { inlayHint } from "../views/toLsp.ts";
import { scriptHint } from "../views/hintLabels.ts";

/** Every hint of a run's results, in the order of the text's lines. */
export function runHints(results: RunResults): InlayHint[] {
  const lines = results.text.split("\n");
  // One hint per line, one label per kind: an entry shared by several tests (a list const, a
  // happy path) met turns in each of them, and they read as one count, not as the same label repeated.
  const byLine = new Map<number, Map<MetKind, Met[]>>();
  for (const view of results.view.scripts) {
    if (view.met.length === 0) continue;
    const kinds = byLine.get(view.line) ?? new Map<MetKind, Met[]>();
    kinds.set(view.kind, [...(kinds.get(view.kind) ?? []), ...view.met]);
    byLine.set(view.line, kinds);
  }
  const turnsFirst = ([kind]: [MetKind, Met[]]) => (kind === "turn" ? 0 : 1);
  const label = (kinds: Map<MetKind, Met[]>) =>
    [...kinds]
      .sort((left, right) => turnsFirst(left) - turnsFirst(right))
      .map(([kind, met]) => scriptHint(kind, met))
      .join("; ");
  return [...byLine].sort(([left], [right]) => left - right).map(([line, kinds]) => inlayHint(lineEnd(lines, line), label(kinds)));
}

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  const inputs = staleInputs(server);
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
