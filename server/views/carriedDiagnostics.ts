// A run's diagnostics carried from the text they were made for to the next text, through the one
// span an edit changed (the common prefix and suffix of the two texts), so the run diagnostics of
// the last version stay where they were while the run of the new version goes.
import type { Diagnostic, Range } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";

/** The one span an edit changed: `before`'s [prefix, oldEnd) became `after`'s [prefix, newEnd). */
export function editedSpan(before: string, after: string): { prefix: number; oldEnd: number; newEnd: number } {
  const shortest = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shortest && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  return { prefix, oldEnd: before.length - suffix, newEnd: after.length - suffix };
}

/** The diagnostics of `before`, moved to where their text is in `after`. */
export function carryDiagnostics(uri: string, before: string, after: string, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  if (diagnostics.length === 0) return [];
  if (before === after) return [...diagnostics];
  const { prefix, oldEnd, newEnd } = editedSpan(before, after);
  const old = TextDocument.create(uri, "typescript", 0, before);
  const next = TextDocument.create(uri, "typescript", 0, after);
  // An offset before the edit stays, one after it shifts; one inside it goes to the edit's start
  // (a range's start) or its end (a range's end), so a range the edit touched grows or shrinks with it.
  const move = (offset: number, side: "start" | "end") => (offset <= prefix ? offset : offset >= oldEnd ? offset + newEnd - oldEnd : side === "start" ? prefix : newEnd);
  const moveRange = (range: Range): Range => {
    const start = move(old.offsetAt(range.start), "start");
    const end = Math.max(start, move(old.offsetAt(range.end), "end"));
    return { start: next.positionAt(start), end: next.positionAt(end) };
  };
  return diagnostics.map((diagnostic) => {
    const moved: Diagnostic = { ...diagnostic, range: moveRange(diagnostic.range) };
    if (diagnostic.relatedInformation) {
      moved.relatedInformation = diagnostic.relatedInformation.map((info) =>
        info.location.uri === uri ? { ...info, location: { uri, range: moveRange(info.location.range) } } : info,
      );
    }
    return moved;
  });
}
