// An inlay hint at the end of each script entry's line: the turns it met and how they ended
// (`reader #1 ✓`, `verifier-2 #1 ✗ timed-out`, `worker #1–3 ×3 ✓`); one per line at most.
import type { InlayHint, InlayHintParams } from "vscode-languageserver";
import type { Server } from "../server.ts";
import type { MetTurn } from "../toProtocol.ts";

/** How an entry's turns read in a hint. */
export function hintLabel(turns: MetTurn[]): string {
  const all = turns.map((met) => met.turn);
  const first = all[0]!;
  if (all.length === 1) return `${first.agent} #${first.n}${first.nudge ? " nudge" : ""} ${first.outcome === "answered" ? "✓" : `✗ ${first.outcome}`}`;
  const agents = [...new Set(all.map((turn) => turn.agent))];
  const numbers = all.map((turn) => turn.n);
  const who =
    agents.length === 1
      ? `${agents[0]} #${Math.min(...numbers)}${Math.max(...numbers) > Math.min(...numbers) ? `–${Math.max(...numbers)}` : ""}`
      : agents.length <= 3
        ? agents.join(", ")
        : `${agents.slice(0, 3).join(", ")}, …`;
  const failed = all.filter((turn) => turn.outcome !== "answered");
  const marks = failed.length === 0 ? "✓" : `${all.length - failed.length} ✓ ${failed.length} ✗ ${failed.at(-1)!.outcome}`;
  return `${who} ×${all.length} ${marks}`;
}

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
      const results = state.currentResults(uri);
      if (!results || !state.get(uri)?.settings.inlayHints) return [];
      const lines = results.text.split("\n");
      // One hint per line: an entry shared by several tests (a list const, a happy path) met
      // turns in each of them, and they read as one count, not as the same label repeated.
      const byLine = new Map<number, MetTurn[]>();
      for (const view of results.view.entries) {
        const line = view.entry.range.start.line;
        if (line < params.range.start.line || line > params.range.end.line || view.turns.length === 0) continue;
        byLine.set(line, [...(byLine.get(line) ?? []), ...view.turns]);
      }
      return [...byLine].map(([line, turns]) => ({
        position: { line, character: (lines[line] ?? "").replace(/\r$/, "").length },
        label: hintLabel(turns),
        paddingLeft: true,
      }));
    }),
  );
}
