// The inlay hints of a run's results: one at the end of each line whose scripts met something, the
// labels of a line's kinds (hintLabels.ts) joined with "; ", turns first.
import type { InlayHint } from "vscode-languageserver";
import { lineEnd } from "../analysis/ranges.ts";
import type { RunView } from "./runView.ts";
import type { Met, MetKind } from "./scriptViews.ts";
import { inlayHint } from "./toLsp.ts";
import { scriptHint } from "./hintLabels.ts";

/** Every hint of a run's results, in the order of the text's lines. */
export function runHints(results: { text: string; view: RunView }): InlayHint[] {
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
