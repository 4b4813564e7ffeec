// Where an inlay hint stands on its line, for test files and workflow files alike: at the line's
// end, or on a line too long to see its end (LONG_LINE), after a name near its start, else before its code.
import type { InlayHint, Position } from "vscode-languageserver";
import { lineEnd } from "../analysis/ranges.ts";
import { LONG_LINE } from "../limits.ts";
import { inlayHint } from "./toLsp.ts";

/** `label` on `line` of `lines`: at its end when that is seen, else after `anchor` (a callee's or call's name on the line) when seen, else before the code. */
export function placedHint(lines: readonly string[], line: number, anchor: Position | undefined, label: string): InlayHint {
  const end = lineEnd(lines, line);
  if (end.character <= LONG_LINE) return inlayHint(end, label);
  if (anchor && anchor.line === line && anchor.character <= LONG_LINE) return inlayHint(anchor, label);
  return { position: { line, character: Math.max(0, (lines[line] ?? "").search(/\S/)) }, label, paddingRight: true };
}
