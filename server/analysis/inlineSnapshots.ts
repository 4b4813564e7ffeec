// The inline snapshots a test file writes: each `.toMatchInlineSnapshot(…)` and
// `.toThrowErrorMatchingInlineSnapshot(…)` call with a literal snapshot, its range and the value the
// matcher compares (the literal's text, its escapes read and its indentation taken off as
// @vitest/snapshot's stripSnapshotIndentation does), for the hover.
import type { Range } from "vscode-languageserver";
import { parseTestFile } from "./analyzeTestFile.ts";
import { positionAt, rangeContains } from "./ranges.ts";
import ts from "./typescript.ts";

const INLINE_MATCHERS = new Set(["toMatchInlineSnapshot", "toThrowErrorMatchingInlineSnapshot"]);

export interface InlineSnapshotCall {
  matcher: string;
  /** From the matcher's name to the call's closing parenthesis. */
  range: Range;
  /** The snapshot as the matcher compares it: `"hello"`, a printed object, … */
  value: string;
  /** Its 1-based line and column, where `test(…)` lookups take a site. */
  site: { line: number; column: number };
}

/** The inline snapshot call under `position`, the innermost one; undefined when there is none with a literal snapshot. */
export function inlineSnapshotAt(fileName: string, text: string, position: { line: number; character: number }): InlineSnapshotCall | undefined {
  if (!text.includes("InlineSnapshot")) return undefined;
  const sourceFile = parseTestFile(fileName, text);
  let found: InlineSnapshotCall | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && INLINE_MATCHERS.has(node.expression.name.text)) {
      const name = node.expression.name;
      const start = positionAt(sourceFile, name.getStart(sourceFile));
      const range = { start, end: positionAt(sourceFile, node.getEnd()) };
      // toMatchInlineSnapshot(properties?, snapshot, hint?): the snapshot is the first string argument.
      const literal = node.arguments.find((argument) => ts.isNoSubstitutionTemplateLiteral(argument) || ts.isStringLiteral(argument));
      if (literal && rangeContains(range, position))
        found = { matcher: name.text, range, value: snapshotValue(literal.text), site: { line: start.line + 1, column: start.character + 1 } };
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** @vitest/snapshot's stripSnapshotIndentation, then the blank first and last lines it leaves taken off. */
export function snapshotValue(written: string): string {
  const normalized = written.replace(/\r\n|\r/g, "\n");
  const lines = normalized.split("\n");
  const indentation = /^([^\S\n]*)\S/m.exec(normalized)?.[1];
  if (lines.length <= 2 || lines[0]!.trim() !== "" || lines.at(-1)!.trim() !== "") return normalized;
  if (!indentation) return lines.slice(1, -1).join("\n");
  const body = lines.slice(1, -1);
  if (body.some((line) => line !== "" && !line.startsWith(indentation))) return normalized;
  return body.map((line) => line.slice(indentation.length)).join("\n");
}
