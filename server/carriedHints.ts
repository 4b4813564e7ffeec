// A run's inlay hints carried from the text they were made for to the next text, through the span
// an edit changed (carriedDiagnostics.ts's), and marked stale, so a hint stays while the run of the
// new version goes instead of vanishing at each keystroke; the run's own hints then replace them.
import type { InlayHint } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { lineEnd } from "./analysis/ranges.ts";
import { editedSpan } from "./carriedDiagnostics.ts";

/** What a stale hint's label ends with: a plain mark every client shows (no client dims a hint). */
export const STALE_MARK = " …";
export const STALE_TOOLTIP = "From the run before your last edit; a new run is on its way.";

/**
 * The hints of `before` (each at the end of its line), moved to the end of the line their anchor is
 * on in `after`. A hint whose anchor was inside the edited span goes (its line was rewritten); one
 * per line, the first kept, when an edit joined lines.
 */
export function carryHints(uri: string, before: string, after: string, hints: readonly InlayHint[]): InlayHint[] {
  if (hints.length === 0) return [];
  if (before === after) return [...hints];
  const { prefix, oldEnd, newEnd } = editedSpan(before, after);
  const old = TextDocument.create(uri, "typescript", 0, before);
  const next = TextDocument.create(uri, "typescript", 0, after);
  const lines = after.split("\n");
  const carried: InlayHint[] = [];
  const taken = new Set<number>();
  for (const hint of hints) {
    const offset = old.offsetAt(hint.position);
    if (offset > prefix && offset < oldEnd) continue;
    const moved = offset <= prefix ? offset : offset + newEnd - oldEnd;
    const line = next.positionAt(moved).line;
    if (taken.has(line)) continue;
    taken.add(line);
    carried.push({ ...hint, position: lineEnd(lines, line) });
  }
  return carried;
}

/** A carried hint as the client sees it: its label ends with the stale mark, its tooltip says why. */
export function markStale(hint: InlayHint): InlayHint {
  const label =
    typeof hint.label === "string"
      ? `${hint.label}${STALE_MARK}`
      : [...hint.label.slice(0, -1), ...hint.label.slice(-1).map((part) => ({ ...part, value: `${part.value}${STALE_MARK}` }))];
  return { ...hint, label, tooltip: STALE_TOOLTIP };
}
