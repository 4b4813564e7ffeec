// Expected ranges for the server tests, found by searching the source text rather than written as
// numbers: LSP positions (0-based line, UTF-16 character) and 1-based runtime sites. A needle on a
// comment line is not counted: the mistake files quote their own code in their header.

import type { Position, Range } from "../../server/analysis/model.ts";

export interface SearchOptions {
  /** Search only after the first occurrence of this text (itself searched after the previous `after`). */
  after?: string | string[];
  /** The nth occurrence (1-based) of the needle after that point. */
  nth?: number;
}

export function offsetOf(text: string, needle: string, options: SearchOptions = {}): number {
  let from = 0;
  for (const anchor of [options.after ?? []].flat()) {
    const at = text.indexOf(anchor, from);
    if (at < 0) throw new Error(`"${anchor}" is not in the text`);
    from = at + anchor.length;
  }
  let at = -1;
  for (let count = 0; count < (options.nth ?? 1); count++) {
    do at = text.indexOf(needle, at < 0 ? from : at + 1);
    while (at >= 0 && onCommentLine(text, at));
    if (at < 0) throw new Error(`"${needle}" is not in the text outside comments${count > 0 ? ` ${count + 1} times` : ""}`);
  }
  return at;
}

function onCommentLine(text: string, offset: number): boolean {
  return text
    .slice(text.lastIndexOf("\n", offset - 1) + 1)
    .trimStart()
    .startsWith("//");
}

export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

/** The range of the needle itself. */
export function rangeOf(text: string, needle: string, options: SearchOptions = {}): Range {
  const start = offsetOf(text, needle, options);
  return { start: positionAt(text, start), end: positionAt(text, start + needle.length) };
}

/** The text a range covers. */
export function textIn(text: string, range: Range): string {
  const lines = text.split("\n");
  const offset = (position: Position) => lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.character;
  return text.slice(offset(range.start), offset(range.end));
}

/** Where a stack trace puts the needle's first character: 1-based line and column. */
export function siteOf(text: string, needle: string, options: SearchOptions = {}): { line: number; column: number } {
  const position = positionAt(text, offsetOf(text, needle, options));
  return { line: position.line + 1, column: position.character + 1 };
}
