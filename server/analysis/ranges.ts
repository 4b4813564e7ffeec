// Turning TypeScript nodes and offsets into LSP positions and ranges (0-based line, 0-based
// UTF-16 character), and comparing them with the 1-based sites of runtime stack traces.

import type ts from "typescript";
import type { Position, Range } from "./model.ts";

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

/** Whether `position` is inside `range`, both ends included. */
export function rangeContains(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}

/** A runtime site (1-based line and column, as V8 and `SourceSite` give them) as an LSP position. */
export function positionOfSite(line1Based: number, column1Based: number): Position {
  return { line: line1Based - 1, character: column1Based - 1 };
}

/** How much text a range spans, for picking the innermost of several containing ranges. */
export function rangeSize(range: Range): number {
  return (range.end.line - range.start.line) * 1_000_000 + (range.end.character - range.start.character);
}
