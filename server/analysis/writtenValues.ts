// A testWorkflow call's options as the values core's checks read (core/testing/optionsBeforeRun.ts):
// what the text makes certain (literals, lists, objects, functions, answer(…)/noAnswer.…() as
// stand-ins), NotKnown where it cannot tell, and where each was written, so a problem finds its range.

import ts from "./typescript.ts";
import { entryStandIn } from "../../core/testing/entries.ts";
import { MAY_HOLD_MORE, NotKnown, WRITTEN } from "../../core/testing/notKnown.ts";
import { isFunctionLike, literalValueOf, propertyKeyOf, unwrapExpression } from "./literalValues.ts";
import { entryCallOf, type AnalysisContext } from "./scriptEntries.ts";

/** The options as values, and the nodes their problems are shown on. */
export interface WrittenOptions {
  given: Record<string, unknown>;
  /** Each option's name, and its value as written (the last property of the name). */
  names: Map<string, ts.PropertyName>;
  values: Map<string, ts.Expression>;
  /** Each key's script under an option that maps keys to scripts, as written: by `option` then key. */
  scripts: Map<string, Map<string, ts.Expression>>;
  /** Each `events` element as written (the list and its elements followed through this file's consts). */
  events: Map<number, ts.Expression>;
}

/** The options that map a key to a script (or to a decision's answers). */
const KEYED_OPTIONS = ["agents", "compactions", "messages", "participants", "decisions"];

export function writtenOptions(context: AnalysisContext, options: ts.ObjectLiteralExpression): WrittenOptions {
  const names = new Map<string, ts.PropertyName>();
  const values = new Map<string, ts.Expression>();
  for (const property of options.properties) {
    const name = ts.isSpreadAssignment(property) ? undefined : propertyKeyOf(property.name);
    if (ts.isSpreadAssignment(property) || name === undefined) continue;
    names.set(name, property.name);
    const written = writtenExpressionOf(property);
    if (written) values.set(name, written);
    else values.delete(name);
  }
  const scripts = new Map<string, Map<string, ts.Expression>>();
  for (const option of KEYED_OPTIONS) {
    const value = values.get(option);
    const object = value ? unwrapExpression(value) : undefined;
    if (!object || !ts.isObjectLiteralExpression(object)) continue;
    const keys = new Map<string, ts.Expression>();
    for (const property of object.properties) {
      const key = ts.isSpreadAssignment(property) ? undefined : propertyKeyOf(property.name);
      const written = key !== undefined ? writtenExpressionOf(property) : undefined;
      if (key !== undefined && written) keys.set(key, written);
    }
    scripts.set(option, keys);
  }
  const events = new Map<number, ts.Expression>();
  const eventsWritten = values.get("events");
  const list = eventsWritten ? followConst(context, eventsWritten) : undefined;
  if (list && ts.isArrayLiteralExpression(list)) list.elements.forEach((element, index) => events.set(index, element));

  const given = objectValue(context, options, (name, expression) =>
    // `event` and `events` are followed to the consts that hold them, as the elements are.
    name === "event" ? valueOf(context, followConst(context, expression)) : name === "events" ? eventsValue(context, expression) : valueOf(context, expression),
  );
  return { given, names, values, scripts, events };
}

function eventsValue(context: AnalysisContext, written: ts.Expression): unknown {
  const list = followConst(context, written);
  if (!ts.isArrayLiteralExpression(list)) return valueOf(context, list);
  return listValue(context, list, (element) => valueOf(context, followConst(context, element)));
}

/** A property's value as written: its initializer, or the name of a shorthand. */
function writtenExpressionOf(property: ts.ObjectLiteralElementLike): ts.Expression | undefined {
  if (ts.isPropertyAssignment(property)) return property.initializer;
  if (ts.isShorthandPropertyAssignment(property)) return property.name;
  return undefined;
}

/** The expression a name of this file's consts holds (followed a few steps), or the expression itself. */
function followConst(context: AnalysisContext, value: ts.Expression): ts.Expression {
  let expression = unwrapExpression(value);
  for (let depth = 0; depth < 4 && ts.isIdentifier(expression); depth++) {
    const initializer = context.constants.resolve(expression.text, expression.getStart(context.sourceFile));
    if (!initializer) break;
    expression = unwrapExpression(initializer);
  }
  return expression;
}

/** A function the text wrote: the checks ask only that it is one. */
const writtenFunction = (): void => {};

/** What the text makes certain of an expression's value. */
function valueOf(context: AnalysisContext, node: ts.Expression): unknown {
  const expression = unwrapExpression(node);
  if (isFunctionLike(expression)) return writtenFunction;
  if (ts.isArrayLiteralExpression(expression)) return listValue(context, expression, (element) => valueOf(context, element));
  if (ts.isObjectLiteralExpression(expression)) return objectValue(context, expression, (_, value) => valueOf(context, value));
  if (ts.isTemplateExpression(expression)) return new NotKnown(writtenText(context, expression), "a string");
  const entry = entryCallOf(context.bindings, expression);
  if (entry) return entryStandIn(entry.kind === "answer" ? "answer" : (entry.kind as `noAnswer.${string}`)) ?? new NotKnown(writtenText(context, expression));
  const literal = literalValueOf(expression);
  return literal ? literal.value : new NotKnown(writtenText(context, expression));
}

function listValue(context: AnalysisContext, list: ts.ArrayLiteralExpression, itemValue: (element: ts.Expression) => unknown): unknown[] {
  // A hole stays a hole, as the run's list has it.
  const values: unknown[] = new Array(list.elements.length);
  list.elements.forEach((element, index) => {
    if (ts.isOmittedExpression(element)) return;
    values[index] = ts.isSpreadElement(element) ? new NotKnown(writtenText(context, element), "items") : itemValue(element);
  });
  return written(context, list, values);
}

function objectValue(
  context: AnalysisContext,
  object: ts.ObjectLiteralExpression,
  propertyValue: (name: string, value: ts.Expression) => unknown,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const property of object.properties) {
    const name = ts.isSpreadAssignment(property) ? undefined : propertyKeyOf(property.name);
    if (ts.isSpreadAssignment(property) || name === undefined) {
      // What it gives may replace any property before it, and add names the text does not show.
      for (const before of Object.keys(values)) values[before] = new NotKnown(before);
      Object.defineProperty(values, MAY_HOLD_MORE, { value: true });
      continue;
    }
    const written = writtenExpressionOf(property);
    values[name] = written ? propertyValue(name, written) : ts.isMethodDeclaration(property) ? writtenFunction : new NotKnown(name);
  }
  return written(context, object, values);
}

function written<T extends object>(context: AnalysisContext, node: ts.Expression, value: T): T {
  Object.defineProperty(value, WRITTEN, { value: writtenText(context, node) });
  return value;
}

/** The source text as core's `describe` quotes a value it cannot word: whitespace collapsed, cut at 80 characters. */
function writtenText(context: AnalysisContext, node: ts.Node): string {
  const text = node.getText(context.sourceFile).replace(/\s+/g, " ");
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
