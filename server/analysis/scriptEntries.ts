// Reading the `agents` and `decisions` object literals of a testWorkflow call: each key's script,
// its shape, and every answer(...)/noAnswer.*() entry with the ranges a runtime trace points at.

import ts from "typescript";
import type { ConstDeclarations } from "./constDeclarations.ts";
import { testingRoleOfMember, type ImportBindings } from "./importBindings.ts";
import { propertyKeyOf, unwrapExpression } from "./literalValues.ts";
import type { Range, StaticEntry, StaticScript, StaticScriptDefinition } from "./model.ts";
import { positionAt, rangeOfNode } from "./ranges.ts";

/** What the walk shares with the readers of one file. */
export interface AnalysisContext {
  sourceFile: ts.SourceFile;
  bindings: ImportBindings;
  constants: ConstDeclarations;
  /** Work left for when the whole file is walked: following names to consts declared further down. */
  afterWalk: Array<() => void>;
  /** Start offsets of the entry calls some script reaches, directly or through a const. */
  claimedEntryOffsets: Set<number>;
}

export interface EntryCall {
  /** `answer`, `noAnswer.silent`, ... whatever name the file imported them under. */
  kind: string;
  /** Where V8 places the call: the `answer` identifier, or the `silent` of `noAnswer.silent()`. */
  calleeName: ts.Node;
  call: ts.CallExpression;
}

/** The entry a call makes, when it is `answer(...)` or `noAnswer.x(...)` (aliases and namespaces honoured). */
export function entryCallOf(bindings: ImportBindings, expression: ts.Expression): EntryCall | undefined {
  if (!ts.isCallExpression(expression)) return undefined;
  const callee = expression.expression;
  if (ts.isIdentifier(callee)) {
    return bindings.testingRoleOf(callee.text) === "answer" ? { kind: "answer", calleeName: callee, call: expression } : undefined;
  }
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const object = callee.expression;
  const member = callee.name.text;
  if (ts.isIdentifier(object)) {
    if (bindings.isTestingNamespace(object.text)) {
      return testingRoleOfMember(member) === "answer" ? { kind: "answer", calleeName: callee.name, call: expression } : undefined;
    }
    if (bindings.testingRoleOf(object.text) === "noAnswer") return { kind: `noAnswer.${member}`, calleeName: callee.name, call: expression };
    return undefined;
  }
  if (
    ts.isPropertyAccessExpression(object) &&
    ts.isIdentifier(object.expression) &&
    bindings.isTestingNamespace(object.expression.text) &&
    object.name.text === "noAnswer"
  ) {
    return { kind: `noAnswer.${member}`, calleeName: callee.name, call: expression };
  }
  return undefined;
}

/** One element of a script: an entry call with its argument ranges, or `other`. */
export function staticEntryOf(context: AnalysisContext, written: ts.Expression, index: number | null): StaticEntry {
  const { sourceFile } = context;
  const expression = unwrapExpression(written);
  const found = entryCallOf(context.bindings, expression);
  const entry: StaticEntry = { kind: found?.kind ?? "other", range: rangeOfNode(sourceFile, written), index };
  if (!found) {
    if (ts.isIdentifier(expression)) {
      context.afterWalk.push(() => {
        const definition = entryDefinitionOf(context, expression, index, 0);
        if (definition) entry.definition = definition;
      });
    }
    return entry;
  }
  context.claimedEntryOffsets.add(expression.getStart(sourceFile));
  fillEntryArguments(sourceFile, entry, found);
  return entry;
}

/** An entry call met anywhere in the file, outside any script. */
export function looseEntryOf(sourceFile: ts.SourceFile, found: EntryCall): StaticEntry {
  const entry: StaticEntry = { kind: found.kind, range: rangeOfNode(sourceFile, found.call), index: null };
  fillEntryArguments(sourceFile, entry, found);
  return entry;
}

function fillEntryArguments(sourceFile: ts.SourceFile, entry: StaticEntry, found: EntryCall): void {
  entry.calleeRange = rangeOfNode(sourceFile, found.calleeName);
  const [first, second] = found.call.arguments;
  if (found.kind === "answer" && first && second) {
    entry.schemaRange = rangeOfNode(sourceFile, first);
    entry.schemaText = first.getText(sourceFile);
    entry.valueRange = rangeOfNode(sourceFile, second);
  } else if (first) {
    entry.valueRange = rangeOfNode(sourceFile, first);
  }
}

function entryDefinitionOf(context: AnalysisContext, name: ts.Identifier, index: number | null, depth: number): StaticEntry | undefined {
  const initializer = context.constants.resolve(name.text, name.getStart(context.sourceFile));
  if (!initializer) return undefined;
  const expression = unwrapExpression(initializer);
  if (ts.isIdentifier(expression)) return depth < 4 ? entryDefinitionOf(context, expression, index, depth + 1) : undefined;
  if (!entryCallOf(context.bindings, expression)) return undefined;
  return staticEntryOf(context, initializer, index);
}

export interface ScriptsObject {
  objectRange: Range;
  scripts: StaticScript[];
  hasSpread: boolean;
}

/** The scripts of an `agents` or `decisions` object literal; undefined when the value isn't one. */
export function readScriptsObject(context: AnalysisContext, value: ts.Expression): ScriptsObject | undefined {
  const { sourceFile } = context;
  const object = unwrapExpression(value);
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  const scripts: StaticScript[] = [];
  let hasSpread = false;
  for (const property of object.properties) {
    if (ts.isSpreadAssignment(property)) {
      hasSpread = true;
      continue;
    }
    const key = propertyKeyOf(property.name);
    if (key === undefined) {
      hasSpread = true; // a computed key the static pass cannot read
      continue;
    }
    const keyRange = rangeOfNode(sourceFile, property.name);
    const propertyRange = rangeOfNode(sourceFile, property);
    if (ts.isPropertyAssignment(property)) {
      scripts.push(readScript(context, key, keyRange, propertyRange, property.initializer));
    } else if (ts.isShorthandPropertyAssignment(property)) {
      scripts.push(readScript(context, key, keyRange, propertyRange, property.name));
    } else {
      // A method or accessor: a function, never an entry.
      scripts.push({ key, keyRange, propertyRange, valueRange: propertyRange, shape: "other", entries: [] });
    }
  }
  return { objectRange: rangeOfNode(sourceFile, object), scripts, hasSpread };
}

function readScript(context: AnalysisContext, key: string, keyRange: Range, propertyRange: Range, written: ts.Expression): StaticScript {
  const { sourceFile } = context;
  const valueRange = rangeOfNode(sourceFile, written);
  const expression = unwrapExpression(written);
  if (ts.isArrayLiteralExpression(expression)) {
    return { key, keyRange, propertyRange, valueRange, shape: "list", ...readList(context, expression) };
  }
  if (entryCallOf(context.bindings, expression)) {
    return { key, keyRange, propertyRange, valueRange, shape: "entry", entries: [staticEntryOf(context, written, null)] };
  }
  const script: StaticScript = { key, keyRange, propertyRange, valueRange, shape: "other", entries: [] };
  if (ts.isIdentifier(expression)) {
    context.afterWalk.push(() => {
      const definition = scriptDefinitionOf(context, expression, 0);
      if (definition) script.definition = definition;
    });
  }
  return script;
}

function readList(context: AnalysisContext, list: ts.ArrayLiteralExpression): { entries: StaticEntry[]; listEnd: ts.LineAndCharacter } {
  const { sourceFile } = context;
  const entries = list.elements.map((element, index) => staticEntryOf(context, element, index));
  const last = list.elements.at(-1);
  const listEnd = positionAt(sourceFile, last ? last.getEnd() : list.getStart(sourceFile) + 1);
  return { entries, listEnd };
}

function scriptDefinitionOf(context: AnalysisContext, name: ts.Identifier, depth: number): StaticScriptDefinition | undefined {
  const initializer = context.constants.resolve(name.text, name.getStart(context.sourceFile));
  if (!initializer) return undefined;
  const expression = unwrapExpression(initializer);
  const range = rangeOfNode(context.sourceFile, initializer);
  if (ts.isIdentifier(expression)) {
    const further = depth < 4 ? scriptDefinitionOf(context, expression, depth + 1) : undefined;
    return further ? { ...further, name: name.text } : undefined;
  }
  if (ts.isArrayLiteralExpression(expression)) return { name: name.text, range, shape: "list", ...readList(context, expression) };
  if (entryCallOf(context.bindings, expression)) {
    return { name: name.text, range, shape: "entry", entries: [staticEntryOf(context, initializer, null)] };
  }
  return undefined;
}
