// An answer's value argument as written: each literal part's value and its source text, and the
// parts the text cannot evaluate (a name, a call, a spread), so the fill fix keeps what the test
// wrote where the schema accepts it and rewrites only the rest.
import ts from "./typescript.ts";
import { literalValueOf, propertyKeyOf, unwrapExpression } from "./literalValues.ts";
import type { Range } from "./model.ts";

export type WrittenValue =
  | { kind: "literal"; value: unknown; text: string }
  | { kind: "object"; text: string; multiline: boolean; members: WrittenMember[] }
  | { kind: "array"; text: string; multiline: boolean; elements: WrittenValue[] }
  /** A part the text cannot evaluate: kept as written. */
  | { kind: "opaque"; text: string };

/** A member of an object literal: `key: value`, a shorthand `key`, or (no key) a spread or computed name. */
export interface WrittenMember {
  key?: string;
  /** The whole member as written, `title: "v2"`. */
  text: string;
  value: WrittenValue;
}

/** The value written in `range` of `text` (an answer's value argument), or undefined if no expression is there. */
export function writtenValueAt(text: string, range: Range): WrittenValue | undefined {
  const sourceFile = ts.createSourceFile("value.ts", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const start = sourceFile.getPositionOfLineAndCharacter(range.start.line, range.start.character);
  const end = sourceFile.getPositionOfLineAndCharacter(range.end.line, range.end.character);
  const found = expressionSpanning(sourceFile, start, end);
  return found ? readWritten(found, sourceFile) : undefined;
}

function expressionSpanning(node: ts.Node, start: number, end: number): ts.Expression | undefined {
  if (node.getStart() === start && node.getEnd() === end && ts.isExpression(node)) return node;
  let found: ts.Expression | undefined;
  node.forEachChild((child) => {
    if (found || child.getStart() > start || child.getEnd() < end) return;
    found = expressionSpanning(child, start, end);
  });
  return found;
}

function readWritten(node: ts.Expression, sourceFile: ts.SourceFile): WrittenValue {
  const text = node.getText(sourceFile);
  const expression = unwrapExpression(node);
  const multiline = text.includes("\n");
  if (ts.isObjectLiteralExpression(expression)) {
    const members: WrittenMember[] = expression.properties.map((property) => {
      const memberText = property.getText(sourceFile);
      if (ts.isPropertyAssignment(property)) {
        const key = propertyKeyOf(property.name);
        const value = readWritten(property.initializer, sourceFile);
        return key === undefined ? { text: memberText, value: { kind: "opaque", text: memberText } } : { key, text: memberText, value };
      }
      if (ts.isShorthandPropertyAssignment(property)) return { key: property.name.text, text: memberText, value: { kind: "opaque", text: property.name.text } };
      return { text: memberText, value: { kind: "opaque", text: memberText } };
    });
    return { kind: "object", text, multiline, members };
  }
  if (ts.isArrayLiteralExpression(expression) && !expression.elements.some(ts.isSpreadElement)) {
    return { kind: "array", text, multiline, elements: expression.elements.map((element) => readWritten(element, sourceFile)) };
  }
  const literal = literalValueOf(expression);
  return literal ? { kind: "literal", value: literal.value, text } : { kind: "opaque", text };
}

/** What the text makes certain of a written value: its literal parts; what it cannot evaluate is left out. */
export function partialValueOf(written: WrittenValue | undefined): unknown {
  if (!written) return undefined;
  switch (written.kind) {
    case "literal":
      return written.value;
    case "object": {
      const value: Record<string, unknown> = {};
      for (const member of written.members) {
        if (member.key === undefined) continue;
        const part = partialValueOf(member.value);
        if (part !== undefined) value[member.key] = part;
      }
      return value;
    }
    case "array":
      return written.elements.map(partialValueOf);
    case "opaque":
      return undefined;
  }
}
