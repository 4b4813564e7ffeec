// An inlay hint at the end of each script entry's line: the turns it met and how they ended
// (`reader #1 ✓`, `verifier-2 #1 ✗ timed-out`, `worker #1–3 ×3 ✓`); one per line at most.
// A nudge counts with the turn it followed, so a silent reader reads `reader #1 nudged ✗ unanswered`.
// Compactions, wakes, events, participant calls and decisions read as operationHints.ts says.
import type { InlayHint, InlayHintParams } from "vscode-languageserver";
import type { MetOperation, OperationKind } from "../operationViews.ts";
import type { Server } from "../server.ts";
import type { MetTurn } from "../toProtocol.ts";
import { operationHint } from "./operationHints.ts";

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
      const inRange = (line: number) => line >= params.range.start.line && line <= params.range.end.line;
      const byLine = new Map<number, MetTurn[]>();
      for (const view of results.view.entries) {
        const line = view.entry.range.start.line;
        if (!inRange(line) || view.turns.length === 0) continue;
        byLine.set(line, [...(byLine.get(line) ?? []), ...view.turns]);
      }
      // The same for the other scripts, by kind: a line's labels then join with " · ".
      const operationsByLine = new Map<number, Map<OperationKind, MetOperation[]>>();
      for (const view of results.view.operations) {
        if (!inRange(view.line) || view.met.length === 0) continue;
        const kinds = operationsByLine.get(view.line) ?? new Map<OperationKind, MetOperation[]>();
        kinds.set(view.kind, [...(kinds.get(view.kind) ?? []), ...view.met]);
        operationsByLine.set(view.line, kinds);
      }
      const labels = new Map<number, string[]>();
      for (const [line, turns] of byLine) labels.set(line, [hintLabel(turns)]);
      for (const [line, kinds] of operationsByLine) {
        labels.set(line, [...(labels.get(line) ?? []), ...[...kinds].map(([kind, met]) => operationHint(kind, met))]);
      }
      return [...labels].sort(([left], [right]) => left - right).map(([line, label]) => ({
        position: { line, character: (lines[line] ?? "").replace(/\r$/, "").length },
        label: label.join(" · "),
        paddingLeft: true,
      }));
    }),
  );
}
