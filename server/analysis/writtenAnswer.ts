// An answer's value argument as written: each literal part's value and its source text, and the
// parts the text cannot evaluate (a name, a call, a spread), so the fill fix keeps what the test
// wrote where the schema accepts it and rewrites only the rest.
import ts from "./typescript.ts";
import { literalValueOf, propertyKeyOf, unwrapExpression } from "./literalValues.ts";
import type { Range } from "./model.ts";

export type WrittenValue =
  | { kind: "literal"; value: unknown; text: string }
  | { kind: "object"; text: string; multiline: boolean; members: WrittenMember[]; memberIndent?: string; closeIndent?: string }
  | { kind: "array"; text: string; multiline: boolean; elements: WrittenValue[]; memberIndent?: string; closeIndent?: string }
  /** A part the text cannot evaluate: kept as written. */
  | { kind: "opaque"; text: string };

/** A member of an object literal: `key: value`, a shorthand `key`, or (no key) a spread or computed name. */
export interface WrittenMember {
  key?: string;
  /** The whole member as written, `title: "v2"`. */
  text: string;
  /** The comments written before the member, one per line, trimmed. */
  comments: string[];
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
      const comments = commentsBefore(property, sourceFile);
      if (ts.isPropertyAssignment(property)) {
        const key = propertyKeyOf(property.name);
        const value = readWritten(property.initializer, sourceFile);
        return key === undefined ? { text: memberText, comments, value: { kind: "opaque", text: memberText } } : { key, text: memberText, comments, value };
      }
      if (ts.isShorthandPropertyAssignment(property)) return { key: property.name.text, text: memberText, comments, value: { kind: "opaque", text: property.name.text } };
      return { text: memberText, comments, value: { kind: "opaque", text: memberText } };
    });
    return withIndent({ kind: "object" as const, text, multiline, members }, expression, expression.properties[0], sourceFile);
  }
  if (ts.isArrayLiteralExpression(expression) && !expression.elements.some(ts.isSpreadElement)) {
    return withIndent(
      { kind: "array" as const, text, multiline, elements: expression.elements.map((element) => readWritten(element, sourceFile)) },
      expression,
      expression.elements[0],
      sourceFile,
    );
  }
  const literal = literalValueOf(expression);
  return literal ? { kind: "literal", value: literal.value, text } : { kind: "opaque", text };
}

/** A multi-line literal's indentation: of its members, as its first member has it, and of its closing bracket. */
function withIndent<T extends { multiline: boolean; memberIndent?: string; closeIndent?: string }>(
  value: T,
  literal: ts.Node,
  first: ts.Node | undefined,
  sourceFile: ts.SourceFile,
): T {
  if (!value.multiline) return value;
  const indentBefore = (offset: number) => {
    const before = sourceFile.text.slice(sourceFile.text.lastIndexOf("\n", offset - 1) + 1, offset);
    return /^[ \t]*$/.test(before) ? before : undefined;
  };
  const member = first ? indentBefore(first.getStart(sourceFile)) : undefined;
  const close = indentBefore(literal.getEnd() - 1);
  if (member !== undefined) value.memberIndent = member;
  if (close !== undefined) value.closeIndent = close;
  return value;
}

/** The comments before a member (`// the title`), each trimmed, so the fill keeps them with it. */
function commentsBefore(node: ts.Node, sourceFile: ts.SourceFile): string[] {
  const ranges = ts.getLeadingCommentRanges(sourceFile.text, node.getFullStart()) ?? [];
  return ranges.map((range) => sourceFile.text.slice(range.pos, range.end).trim());
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
    default:
      return written satisfies never;
  }
}
