// All the server's range arithmetic: TypeScript nodes and offsets as LSP positions and ranges
// (0-based line, 0-based UTF-16 character), the 1-based sites of runtime stack traces as
// positions, ranges and locations (`positionOfSite`, and `positionOfIstanbul` for coverage, are the places a site's line and column
// lose their 1; test/server/rangeArithmetic.test.ts keeps it so), and comparing, containing, sizing and
// ordering them.

import type ts from "./typescript.ts";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Position, Range } from "./model.ts";

/** A runtime site: 1-based line and column, as V8 and core's `SourceSite` give them. */
export interface Site {
  line: number;
  column: number;
}

export function positionAt(sourceFile: ts.SourceFile, offset: number): Position {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(offset);
  return { line, character };
}

/** From the node's first token (comments and whitespace before it skipped) to its end. */
export function rangeOfNode(sourceFile: ts.SourceFile, node: ts.Node): Range {
  return rangeBetween(sourceFile, node.getStart(sourceFile), node.getEnd());
}

export function rangeBetween(sourceFile: ts.SourceFile, startOffset: number, endOffset: number): Range {
  return { start: positionAt(sourceFile, startOffset), end: positionAt(sourceFile, endOffset) };
}

export function comparePositions(left: Position, right: Position): number {
  return left.line !== right.line ? left.line - right.line : left.character - right.character;
}

export function samePosition(left: Position, right: Position): boolean {
  return left.line === right.line && left.character === right.character;
}

export function sameRange(left: Range, right: Range): boolean {
  return samePosition(left.start, right.start) && samePosition(left.end, right.end);
}

/** Whether `left` comes strictly before `right`. */
export function positionBefore(left: Position, right: Position): boolean {
  return comparePositions(left, right) < 0;
}

/** Whether `position` is inside `range`, both ends included. */
export function rangeContains(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}

/** Whether `inner` lies within `outer`, both ends included. */
export function rangeWithin(inner: Range, outer: Range): boolean {
  return rangeContains(outer, inner.start) && rangeContains(outer, inner.end);
}

/** Whether two ranges overlap or touch: each starts no later than the other ends. */
export function rangesMeet(left: Range, right: Range): boolean {
  return comparePositions(left.start, right.end) <= 0 && comparePositions(right.start, left.end) <= 0;
}

/** Whether `line` is one of the lines `range` touches. */
export function lineInRange(line: number, range: Range): boolean {
  return line >= range.start.line && line <= range.end.line;
}

/** Ranges in the order of the text: by where they start. */
export function compareRangeStarts(left: Range, right: Range): number {
  return comparePositions(left.start, right.start);
}

/** A runtime site (1-based line and column, as V8 and `SourceSite` give them) as an LSP position. */
export function positionOfSite(line1Based: number, column1Based: number): Position {
  return { line: Math.max(0, line1Based - 1), character: Math.max(0, column1Based - 1) };
}

/** An Istanbul position (1-based line, 0-based column; an end's column may be absent or
 * infinite, meaning the line's end) as an LSP position. */
export function positionOfIstanbul(line1Based: number, column0Based: number | null | undefined): Position {
  const character = column0Based === null || column0Based === undefined || !Number.isFinite(column0Based) ? Number.MAX_SAFE_INTEGER : Math.max(0, column0Based);
  return { line: Math.max(0, line1Based - 1), character };
}

/** A site as a location: `uri` at the site's point (an empty range). */
export function siteLocation(uri: string, site: Site): { uri: string; range: Range } {
  const position = positionOfSite(site.line, site.column);
  return { uri, range: { start: position, end: position } };
}

/** The one character at a site, for a place with no name to mark. */
export function siteCharacterRange(site: Site): Range {
  const start = positionOfSite(site.line, site.column);
  return { start, end: { line: start.line, character: start.character + 1 } };
}

/** The identifier a site starts (an entry's callee: `answer`, the `timedOut` of `noAnswer.timedOut()`), at least one character, in a text split on `\n`. */
export function siteWordRange(lines: readonly string[], site: Site): Range {
  const { line, character: start } = positionOfSite(site.line, site.column);
  const end = wordEnd(lines[line] ?? "", start);
  return { start: { line, character: start }, end: { line, character: Math.max(end, start + 1) } };
}

/**
 * A call's name and receiver on its line (`verifier.run`), from the site of its name and the
 * callee as written (`(…).run` when the receiver is an expression, which is not marked).
 */
export function callNameRange(lines: readonly string[], site: Site, callee: string | undefined): Range {
  const { line, character: nameStart } = positionOfSite(site.line, site.column);
  const nameEnd = wordEnd(lines[line] ?? "", nameStart);
  const receiver = callee?.startsWith("(…).") ? 0 : Math.max(0, (callee?.length ?? 0) - (nameEnd - nameStart));
  return { start: { line, character: Math.max(0, nameStart - receiver) }, end: { line, character: Math.max(nameEnd, nameStart + 1) } };
}

/** Where the identifier starting at `start` in `text` ends. */
function wordEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && /[\w$]/.test(text[end] ?? "")) end++;
  return end;
}

/** How much text a range spans, for picking the innermost of several containing ranges. */
export function rangeSize(range: Range): number {
  return (range.end.line - range.start.line) * 1_000_000 + (range.end.character - range.start.character);
}

/** A whole line's text, from `column` (0-based; else its first non-blank) to its last non-blank. */
export function lineRange(document: TextDocument, line: number, column?: number): Range {
  const safeLine = Math.max(0, Math.min(line, document.lineCount - 1));
  const text = document.getText({ start: { line: safeLine, character: 0 }, end: { line: safeLine + 1, character: 0 } }).replace(/\r?\n$/, "");
  const first = column ?? text.length - text.trimStart().length;
  const start = Math.min(first, text.length);
  const end = Math.max(start, text.trimEnd().length);
  return { start: { line: safeLine, character: start }, end: { line: safeLine, character: end } };
}

/** A runtime site's line, from its column to the line's last non-blank. */
export function siteRange(document: TextDocument, site: { line: number; column: number }): Range {
  const { line, character } = positionOfSite(site.line, site.column);
  return lineRange(document, line, character);
}

/** V8 places a throw at its `new Error(...)`: the range of a site widened back to the `throw` keyword before it. */
export function throwRange(document: TextDocument, site: { line: number; column: number }): Range {
  const range = siteRange(document, site);
  const before = document.getText({ start: { line: range.start.line, character: 0 }, end: range.start });
  const keyword = /\bthrow\s+$/.exec(before);
  return keyword ? { start: { line: range.start.line, character: keyword.index }, end: range.end } : range;
}

/** Where line `line` of a text split on `\n` ends, before any `\r`: where a hint at the line's end goes. */
export function lineEnd(lines: readonly string[], line: number): Position {
  return { line, character: (lines[line] ?? "").replace(/\r$/, "").length };
}
