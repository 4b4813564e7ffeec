// Where a completion request's cursor is, read with the TypeScript parser: inside the value of an
// `answer(SCHEMA, value)` (the path from the value to the cursor, and whether a key or a value goes
// there), after `noAnswer.`, or inside a testWorkflow call's `decisions` object.
import ts from "./typescript.ts";
import { readImportBindings, type ImportBindings } from "./importBindings.ts";
import { literalValueOf, propertyKeyOf, unwrapExpression } from "./literalValues.ts";
import type { Range } from "./model.ts";
import { rangeBetween, rangeOfNode } from "./ranges.ts";
import { entryCallOf } from "./scriptEntries.ts";
import { testWorkflowCalleeOf } from "./testWorkflowCalls.ts";

export type PathStep = string | number;

/** What goes at the cursor inside a value: a property name, or a value. */
export type ValuePlace =
  | {
      kind: "key";
      /** The path of the object the key goes in. */
      path: PathStep[];
      /** The keys already written in that object (the one being typed left out). */
      written: string[];
      /** The literal properties written in that object, to tell a union's branch. */
      literals: Record<string, unknown>;
      /** What the completion replaces: the partial name typed so far (empty at the cursor). */
      replace: Range;
      /** The key being typed is already followed by `:` (only the name is replaced then). */
      hasColon: boolean;
    }
  | {
      kind: "value";
      path: PathStep[];
      /** The path's last step is a new item of an array (a whole item goes there). */
      arrayItem: boolean;
      replace: Range;
      /** The cursor is inside a string literal: `replace` is its text between the quotes. */
      inString: boolean;
    };

export type CompletionPlace =
  | { kind: "answer"; schemaText: string; entryStart: ts.LineAndCharacter; place: ValuePlace }
  | { kind: "noAnswer"; replace: Range }
  | { kind: "decisions"; place: ValuePlace };

/** The place of `offset` in the file's text, when it is one Turnlens completes. */
export function completionPlaceAt(fileName: string, text: string, offset: number): CompletionPlace | undefined {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, /\.[cm]?jsx?$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const bindings = readImportBindings(sourceFile);
  // The innermost call or member access around the cursor decides, so an answer inside a decisions function is still an answer.
  let node: ts.Node | undefined = innermostAt(sourceFile, offset);
  for (; node; node = node.parent) {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && bindings.testingRoleOf(node.expression.text) === "noAnswer") {
      if (offset > node.expression.getEnd()) {
        const name = node.name;
        return { kind: "noAnswer", replace: rangeBetween(sourceFile, name.getWidth() === 0 ? offset : name.getStart(), Math.max(offset, name.getEnd())) };
      }
    }
    if (ts.isCallExpression(node)) {
      const answer = answerPlace(sourceFile, bindings, node, offset);
      if (answer) return answer;
      const decisions = decisionsPlace(sourceFile, bindings, node, offset);
      if (decisions) return decisions;
    }
  }
  return undefined;
}

function answerPlace(sourceFile: ts.SourceFile, bindings: ImportBindings, call: ts.CallExpression, offset: number): CompletionPlace | undefined {
  const found = entryCallOf(bindings, call);
  if (found?.kind !== "answer") return undefined;
  const [schema, value] = call.arguments;
  if (!schema || offset <= schema.getEnd()) return undefined;
  const entryStart = sourceFile.getLineAndCharacterOfPosition(call.getStart(sourceFile));
  const schemaText = schema.getText(sourceFile);
  if (!value || value.getWidth(sourceFile) === 0) {
    // `answer(NOTE, |)`: a whole value goes here.
    const closed = sourceFile.text[call.getEnd() - 1] === ")";
    if (closed && offset >= call.getEnd()) return undefined;
    return {
      kind: "answer",
      schemaText,
      entryStart,
      place: { kind: "value", path: [], arrayItem: false, replace: rangeBetween(sourceFile, offset, offset), inString: false },
    };
  }
  if (offset < value.getStart(sourceFile) || offset > value.getEnd()) return undefined;
  const place = placeIn(sourceFile, value, offset, []);
  return place ? { kind: "answer", schemaText, entryStart, place } : undefined;
}

/** `decisions: { key: { question: answer } }` in a testWorkflow call's options. */
function decisionsPlace(sourceFile: ts.SourceFile, bindings: ImportBindings, call: ts.CallExpression, offset: number): CompletionPlace | undefined {
  if (!testWorkflowCalleeOf(bindings, call)) return undefined;
  const options = call.arguments[1] ? unwrapExpression(call.arguments[1]) : undefined;
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const property of options.properties) {
    if (!ts.isPropertyAssignment(property) || propertyKeyOf(property.name) !== "decisions") continue;
    const value = property.initializer;
    if (offset <= value.getStart(sourceFile) || offset > value.getEnd()) continue;
    const place = placeIn(sourceFile, value, offset, []);
    return place ? { kind: "decisions", place } : undefined;
  }
  return undefined;
}

/** The innermost node whose text holds `offset` (its end included, so a name just typed is found). */
function innermostAt(node: ts.Node, offset: number): ts.Node | undefined {
  if (offset < node.getStart() || offset > node.getEnd()) return undefined;
  let inner: ts.Node | undefined;
  node.forEachChild((child) => {
    inner ??= innermostAt(child, offset);
  });
  return inner ?? node;
}

function placeIn(sourceFile: ts.SourceFile, written: ts.Expression, offset: number, path: PathStep[]): ValuePlace | undefined {
  const node = unwrapExpression(written);
  const start = node.getStart(sourceFile);
  const end = node.getEnd();
  const here = (from: number, to: number) => rangeBetween(sourceFile, from, to);
  if (ts.isObjectLiteralExpression(node)) {
    const closed = sourceFile.text[end - 1] === "}";
    if (offset <= start || (closed && offset >= end)) return undefined;
    const literals: Record<string, unknown> = {};
    const keys: string[] = [];
    for (const property of node.properties) {
      const key = property.name ? propertyKeyOf(property.name) : undefined;
      if (key !== undefined) keys.push(key);
      if (key !== undefined && ts.isPropertyAssignment(property)) {
        const literal = literalValueOf(property.initializer);
        if (literal) literals[key] = literal.value;
      }
    }
    for (const property of node.properties) {
      const name = property.name;
      const key = name ? propertyKeyOf(name) : undefined;
      if (name && offset >= name.getStart(sourceFile) && offset <= name.getEnd()) {
        const hasColon = ts.isPropertyAssignment(property);
        const written = keys.filter((other) => other !== key);
        const { [key ?? ""]: _typed, ...others } = literals;
        return { kind: "key", path, written, literals: others, replace: here(name.getStart(sourceFile), Math.max(offset, name.getEnd())), hasColon };
      }
      // `key: |,` has a missing value, which ends at the colon: the blanks after it are the value's place too.
      const missingValue = ts.isPropertyAssignment(property) && property.initializer.getWidth(sourceFile) === 0;
      const inProperty = offset <= property.getEnd() || (missingValue && /^\s*$/.test(sourceFile.text.slice(property.getEnd(), offset)));
      if (ts.isPropertyAssignment(property) && key !== undefined && name && offset > name.getEnd() && inProperty) {
        const colon = sourceFile.text.indexOf(":", name.getEnd());
        if (colon !== -1 && offset > colon) return valuePlaceAt(sourceFile, property.initializer, offset, [...path, key], false);
      }
    }
    return { kind: "key", path, written: keys, literals, replace: here(offset, offset), hasColon: false };
  }
  if (ts.isArrayLiteralExpression(node)) {
    const closed = sourceFile.text[end - 1] === "]";
    if (offset <= start || (closed && offset >= end)) return undefined;
    let index = 0;
    for (const element of node.elements) {
      if (element.getWidth(sourceFile) > 0 && offset >= element.getStart(sourceFile) && offset <= element.getEnd()) {
        return valuePlaceAt(sourceFile, element, offset, [...path, index], true);
      }
      if (element.getEnd() < offset) index++;
    }
    return { kind: "value", path: [...path, index], arrayItem: true, replace: here(offset, offset), inString: false };
  }
  return valuePlaceAt(sourceFile, written, offset, path, false);
}

/** A value position at `written` (which may be a missing expression, or a partial word). */
function valuePlaceAt(sourceFile: ts.SourceFile, written: ts.Expression, offset: number, path: PathStep[], arrayItem: boolean): ValuePlace | undefined {
  const node = unwrapExpression(written);
  const here = (from: number, to: number) => rangeBetween(sourceFile, from, to);
  if (node.getWidth(sourceFile) === 0 || offset < node.getStart(sourceFile)) return { kind: "value", path, arrayItem, replace: here(offset, offset), inString: false };
  if (ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node)) {
    if (offset === node.getStart(sourceFile)) return { kind: "value", path, arrayItem, replace: rangeOfNode(sourceFile, node), inString: false };
    return placeIn(sourceFile, node, offset, path);
  }
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    const start = node.getStart(sourceFile);
    const end = node.getEnd();
    const closed = end - start >= 2 && sourceFile.text[end - 1] === sourceFile.text[start];
    if (offset <= start || (closed && offset >= end)) return undefined;
    return { kind: "value", path, arrayItem, replace: here(start + 1, closed ? end - 1 : end), inString: true };
  }
  if (offset > node.getEnd()) return undefined;
  // A word being typed (`tr` for true, a number): the whole word is replaced.
  return { kind: "value", path, arrayItem, replace: rangeOfNode(sourceFile, node), inString: false };
}
