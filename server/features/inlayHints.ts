// An inlay hint at the end of each script entry's line: the turns it met and how they ended
// (`reader #1 ✓`, `verifier-2 #1 ✗ timed-out`, `worker #1–3 ×3 ✓`); one per line at most.
// A nudge counts with the turn it followed, so a silent reader reads `reader #1 nudged ✗ unanswered`.
import type { InlayHint, InlayHintParams } from "vscode-languageserver";
import type { Server } from "../server.ts";
import type { MetTurn } from "../toProtocol.ts";

/** One call of `agent.run` as a hint counts it: a nudge belongs to the turn it followed. */
interface MetCall {
  agent: string;
  n: number;
  outcome: string;
  nudged: boolean;
}

function callsOf(turns: MetTurn[]): MetCall[] {
  const calls: MetCall[] = [];
  for (const { turn } of turns) {
    const last = calls.at(-1);
    if (turn.nudge && last && last.agent === turn.agent && last.n === turn.n) {
      last.outcome = turn.outcome;
      last.nudged = true;
    } else calls.push({ agent: turn.agent, n: turn.n, outcome: turn.outcome, nudged: turn.nudge });
  }
  return calls;
}

const mark = (outcome: string) => (outcome === "answered" ? "✓" : `✗ ${outcome}`);

/** How an entry's turns read in a hint: `reader #1 ✓`, `reader #1 nudged ✗ unanswered`, `worker #1–3 ×3 ✓`. */
export function hintLabel(turns: MetTurn[]): string {
  const calls = callsOf(turns);
  const first = calls[0]!;
  if (calls.length === 1) return `${first.agent} #${first.n}${first.nudged ? " nudged" : ""} ${mark(first.outcome)}`;
  const agents = [...new Set(calls.map((call) => call.agent))];
  const numbers = calls.map((call) => call.n);
  const who =
    agents.length === 1
      ? `${agents[0]} #${Math.min(...numbers)}${Math.max(...numbers) > Math.min(...numbers) ? `–${Math.max(...numbers)}` : ""}`
      : agents.length <= 3
        ? agents.join(", ")
        : `${agents.slice(0, 3).join(", ")}, …`;
  const failed = calls.filter((call) => call.outcome !== "answered");
  const marks = failed.length === 0 ? "✓" : failed.length === calls.length ? mark(failed.at(-1)!.outcome) : `${calls.length - failed.length} ✓ ${failed.length} ${mark(failed.at(-1)!.outcome)}`;
  return `${who} ×${calls.length} ${marks}`;
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
