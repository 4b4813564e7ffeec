// An inlay hint at the end of each script's line: what it met and how that ended, as hintLabels.ts
// words it (`reader · turn 1 answered`, `writer compaction #1 ✓ "Plan: …"`, `never sent`); one per
// line at most, the labels of a line's kinds joined with "; " (a turn hint uses " ·"), turns first.
import type { InlayHint, InlayHintParams } from "vscode-languageserver";
import { lineEnd, lineInRange } from "../analysis/ranges.ts";
import type { Met, MetKind } from "../scriptViews.ts";
import type { Server } from "../server.ts";
import { inlayHint } from "../toLsp.ts";
import { scriptHint } from "./hintLabels.ts";

export function register(server: Server): void {
  const { connection, state } = server;
  server.onInitialize((_params, result) => {
    result.capabilities.inlayHintProvider = true;
  });
  state.onDidChangeResults.event(
    server.guardNotification("refresh inlay hints", () => {
      if (state.clientCapabilities.workspace?.inlayHint?.refreshSupport) void connection.languages.inlayHint.refresh().catch(() => {});
    }),
  );
  connection.languages.inlayHint.on(
    server.guardRequest("inlayHint", (params: InlayHintParams): InlayHint[] => {
      const uri = params.textDocument.uri;
      if (!state.get(uri)) return server.workflowViews.inlayHints(params);
      const results = state.currentResults(uri);
      if (!results || !state.get(uri)?.settings.inlayHints) return [];
      const lines = results.text.split("\n");
      // One hint per line, one label per kind: an entry shared by several tests (a list const, a
      // happy path) met turns in each of them, and they read as one count, not as the same label repeated.
      const byLine = new Map<number, Map<MetKind, Met[]>>();
      for (const view of results.view.scripts) {
        if (!lineInRange(view.line, params.range) || view.met.length === 0) continue;
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
    }),
  );
}
