// A run's inlay hints and hovers carried from the text they were made for to the next text, through
// the span an edit changed (carriedDiagnostics.ts's), and marked stale, so they stay while the run of
// the new version goes instead of vanishing at each keystroke; the run's own then replace them.
import type { InlayHint, Position, Range } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { lineEnd } from "../analysis/ranges.ts";
import { carryDiagnostics, editedSpan } from "./carriedDiagnostics.ts";

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

/**
 * Where a position of `after` was in `before`, through the span the edit changed: the same place
 * before it, shifted after it; undefined inside it (that text was written by the edit, so no result
 * of `before` describes it).
 */
export function positionBefore(uri: string, before: string, after: string, position: Position): Position | undefined {
  if (before === after) return position;
  const { prefix, oldEnd, newEnd } = editedSpan(before, after);
  const offset = TextDocument.create(uri, "typescript", 0, after).offsetAt(position);
  if (offset > prefix && offset < newEnd) return undefined;
  return TextDocument.create(uri, "typescript", 0, before).positionAt(offset <= prefix ? offset : offset - newEnd + oldEnd);
}

/** A range of `before` moved to `after` as a carried diagnostic's is (an end inside the edit goes to its edge). */
export function carryRange(uri: string, before: string, after: string, range: Range): Range {
  return carryDiagnostics(uri, before, after, [{ range, message: "" }])[0]?.range ?? range;
}

/**
 * Where each line of `before` went in `after`, for a line number a carried hover names: a line
 * the edit rewrote goes to where the edit starts.
 */
export function lineCarrier(uri: string, before: string, after: string): (line: number) => number {
  if (before === after) return (line) => line;
  const { prefix, oldEnd, newEnd } = editedSpan(before, after);
  const old = TextDocument.create(uri, "typescript", 0, before);
  const next = TextDocument.create(uri, "typescript", 0, after);
  return (line) => {
    const offset = old.offsetAt({ line, character: 0 });
    return next.positionAt(offset <= prefix ? offset : offset >= oldEnd ? offset + newEnd - oldEnd : prefix).line;
  };
}

/** What a carried hover's first line ends with, and the line below it that says why. */
export const STALE_HOVER_NOTE = `*${STALE_TOOLTIP}*`;

/** A hover's markdown from the run before the last edit: its first line marked as a stale hint is, the why below it. */
export function markStaleMarkdown(markdown: string): string {
  const [first = "", ...rest] = markdown.split("\n");
  return [`${first}${STALE_MARK}`, "", STALE_HOVER_NOTE, ...rest].join("\n");
}
