// Reading the keyed scripts of a testWorkflow call (`agents`, `decisions`, `compactions`,
// `messages`, `participants`): each key's script, its shape, and every answer(...)/noAnswer.*()
// entry (or, where the option takes them, function) with the ranges a runtime trace points at.

import ts from "./typescript.ts";
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

/** Whether a script's option takes a function as an entry of its own (`messages`, `participants`). */
export interface ScriptReading {
  functions?: boolean;
}

function isFunctionExpression(expression: ts.Expression): boolean {
  return ts.isArrowFunction(expression) || ts.isFunctionExpression(expression);
}

/** One element of a script: an entry call with its argument ranges, a function where the option takes one, or `other`. */
export function staticEntryOf(context: AnalysisContext, written: ts.Expression, index: number | null, reading: ScriptReading = {}): StaticEntry {
  const { sourceFile } = context;
  const expression = unwrapExpression(written);
  const found = entryCallOf(context.bindings, expression);
  if (!found && reading.functions && isFunctionExpression(expression)) return { kind: "function", range: rangeOfNode(sourceFile, written), index };
  const entry: StaticEntry = { kind: found?.kind ?? "other", range: rangeOfNode(sourceFile, written), index };
  if (!found) {
    if (ts.isIdentifier(expression)) {
      context.afterWalk.push(() => {
        const definition = entryDefinitionOf(context, expression, index, 0, reading);
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

function entryDefinitionOf(context: AnalysisContext, name: ts.Identifier, index: number | null, depth: number, reading: ScriptReading): StaticEntry | undefined {
  const initializer = context.constants.resolve(name.text, name.getStart(context.sourceFile));
  if (!initializer) return undefined;
  const expression = unwrapExpression(initializer);
  if (ts.isIdentifier(expression)) return depth < 4 ? entryDefinitionOf(context, expression, index, depth + 1, reading) : undefined;
  if (!entryCallOf(context.bindings, expression) && !(reading.functions && isFunctionExpression(expression))) return undefined;
  return staticEntryOf(context, initializer, index, reading);
}

export interface ScriptsObject {
  objectRange: Range;
  scripts: StaticScript[];
  hasSpread: boolean;
}

/** The scripts of a keyed option's object literal (`agents`, `decisions`...); undefined when the value isn't one. */
export function readScriptsObject(context: AnalysisContext, value: ts.Expression, reading: ScriptReading = {}): ScriptsObject | undefined {
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
      scripts.push(readScript(context, key, keyRange, propertyRange, property.initializer, reading));
    } else if (ts.isShorthandPropertyAssignment(property)) {
      scripts.push(readScript(context, key, keyRange, propertyRange, property.name, reading));
    } else if (reading.functions && ts.isMethodDeclaration(property)) {
      // `coordinator(event) { … }`: the method is the function the option takes.
      scripts.push({ key, keyRange, propertyRange, valueRange: propertyRange, shape: "entry", entries: [{ kind: "function", range: propertyRange, index: null }] });
    } else {
      // A method or accessor: a function, never an entry.
      scripts.push({ key, keyRange, propertyRange, valueRange: propertyRange, shape: "other", entries: [] });
    }
  }
  return { objectRange: rangeOfNode(sourceFile, object), scripts, hasSpread };
}

function readScript(context: AnalysisContext, key: string, keyRange: Range, propertyRange: Range, written: ts.Expression, reading: ScriptReading): StaticScript {
  const { sourceFile } = context;
  const valueRange = rangeOfNode(sourceFile, written);
  const expression = unwrapExpression(written);
  if (ts.isArrayLiteralExpression(expression)) {
    return { key, keyRange, propertyRange, valueRange, shape: "list", ...readList(context, expression, reading) };
  }
  if (entryCallOf(context.bindings, expression) || (reading.functions && isFunctionExpression(expression))) {
    return { key, keyRange, propertyRange, valueRange, shape: "entry", entries: [staticEntryOf(context, written, null, reading)] };
  }
  const script: StaticScript = { key, keyRange, propertyRange, valueRange, shape: "other", entries: [] };
  if (ts.isIdentifier(expression)) {
    context.afterWalk.push(() => {
      const definition = scriptDefinitionOf(context, expression, 0, reading);
      if (definition) script.definition = definition;
    });
  }
  return script;
}

function readList(context: AnalysisContext, list: ts.ArrayLiteralExpression, reading: ScriptReading): { entries: StaticEntry[]; listEnd: ts.LineAndCharacter } {
  const { sourceFile } = context;
  const entries = list.elements.map((element, index) => staticEntryOf(context, element, index, reading));
  const last = list.elements.at(-1);
  const listEnd = positionAt(sourceFile, last ? last.getEnd() : list.getStart(sourceFile) + 1);
  return { entries, listEnd };
}

function scriptDefinitionOf(context: AnalysisContext, name: ts.Identifier, depth: number, reading: ScriptReading): StaticScriptDefinition | undefined {
  const initializer = context.constants.resolve(name.text, name.getStart(context.sourceFile));
  if (!initializer) return undefined;
  const expression = unwrapExpression(initializer);
  const range = rangeOfNode(context.sourceFile, initializer);
  if (ts.isIdentifier(expression)) {
    const further = depth < 4 ? scriptDefinitionOf(context, expression, depth + 1, reading) : undefined;
    return further ? { ...further, name: name.text } : undefined;
  }
  if (ts.isArrayLiteralExpression(expression)) return { name: name.text, range, shape: "list", ...readList(context, expression, reading) };
  if (entryCallOf(context.bindings, expression) || (reading.functions && isFunctionExpression(expression))) {
    return { name: name.text, range, shape: "entry", entries: [staticEntryOf(context, initializer, null, reading)] };
  }
  return undefined;
}
