// The inlay hints of a run's results: one at the end of each line whose scripts met something, the
// labels of a line's kinds (hintLabels.ts) joined with "; ", turns first, whole within VS Code's
// default width; on a line too long to see its end, after the entry's callee (docs/language-server.md).
import type { InlayHint } from "vscode-languageserver";
import type { RunView } from "./runView.ts";
import type { Met, MetKind } from "./scriptViews.ts";
import { placedHint } from "./hintPlacement.ts";
import { scriptHint } from "./hintLabels.ts";
import { HINT_WIDTH } from "../limits.ts";
import type { Position } from "vscode-languageserver";

/** Every hint of a run's results, in the order of the text's lines. */
export function runHints(results: { text: string; view: RunView }): InlayHint[] {
  const lines = results.text.split("\n");
  // One hint per line, one label per kind: an entry shared by several tests (a list const, a
  // happy path) met turns in each of them, and they read as one count, not as the same label repeated.
  const byLine = new Map<number, Map<MetKind, Met[]>>();
  const anchors = new Map<number, Position>();
  for (const view of results.view.scripts) {
    if (view.met.length === 0) continue;
    // The first entry's callee on the line, for a line too long to see its end.
    if (view.anchor && !anchors.has(view.line)) anchors.set(view.line, view.anchor);
    const kinds = byLine.get(view.line) ?? new Map<MetKind, Met[]>();
    kinds.set(view.kind, [...(kinds.get(view.kind) ?? []), ...view.met]);
    byLine.set(view.line, kinds);
  }
  const turnsFirst = ([kind]: [MetKind, Met[]]) => (kind === "turn" ? 0 : 1);
  // Several kinds on a line read together when they fit; else the first (turns) and how many more: the hover has each.
  const label = (kinds: Map<MetKind, Met[]>) => {
    const labels = [...kinds].sort((left, right) => turnsFirst(left) - turnsFirst(right)).map(([kind, met]) => scriptHint(kind, met));
    const all = labels.join("; ");
    if (all.length <= HINT_WIDTH || labels.length === 1) return all;
    const more = `; +${labels.length - 1} more`;
    return labels[0]!.length + more.length <= HINT_WIDTH ? `${labels[0]}${more}` : labels[0]!;
  };
  return [...byLine].sort(([left], [right]) => left - right).map(([line, kinds]) => placedHint(lines, line, anchors.get(line), label(kinds)));
}
