// What an object literal certainly gives: the last property of each name, unless a spread after it
// may replace it, and whether a value is certainly there or certainly undefined. The checks that
// need this (testWorkflow's options, an events element) flag only what no spread can change.

import ts from "typescript";
import { isFunctionLike, literalValueOf, propertyKeyOf, unwrapExpression } from "./literalValues.ts";

/** A property's value as written: an expression, or a method (a function). */
export type WrittenValue = { kind: "expression"; expression: ts.Expression } | { kind: "method" };

export interface WrittenProperty {
  name: string;
  /** The whole property, and its name. */
  property: ts.ObjectLiteralElementLike;
  nameNode: ts.PropertyName;
  /** Undefined for an accessor, whose value is not known. */
  value: WrittenValue | undefined;
}

export interface WrittenProperties {
  /** The last property of each name that no spread (or computed name) after it may replace. */
  byName: Map<string, WrittenProperty>;
  /** A spread or a computed name: names the pass cannot see may be given. */
  open: boolean;
}

export function writtenProperties(object: ts.ObjectLiteralExpression): WrittenProperties {
  const byName = new Map<string, WrittenProperty>();
  let open = false;
  for (const property of object.properties) {
    const name = ts.isSpreadAssignment(property) ? undefined : propertyKeyOf(property.name);
    if (ts.isSpreadAssignment(property) || name === undefined) {
      // What it gives may replace any property before it.
      open = true;
      byName.clear();
      continue;
    }
    byName.delete(name);
    byName.set(name, { name, property, nameNode: property.name, value: valueOf(property) });
  }
  return { byName, open };
}

function valueOf(property: ts.ObjectLiteralElementLike): WrittenValue | undefined {
  if (ts.isPropertyAssignment(property)) return { kind: "expression", expression: property.initializer };
  if (ts.isShorthandPropertyAssignment(property)) return { kind: "expression", expression: property.name };
  if (ts.isMethodDeclaration(property)) return { kind: "method" };
  return undefined;
}

/** Whether the value is certainly not undefined: a literal other than undefined, an object, array, function or template. */
export function isCertainlyDefined(value: WrittenValue | undefined): boolean {
  if (!value) return false;
  if (value.kind === "method") return true;
  const expression = unwrapExpression(value.expression);
  if (ts.isObjectLiteralExpression(expression) || ts.isArrayLiteralExpression(expression)) return true;
  if (isFunctionLike(expression) || ts.isTemplateExpression(expression)) return true;
  const literal = literalValueOf(expression);
  return literal !== undefined && literal.value !== undefined;
}

/** Whether the value is literally `undefined`. */
export function isCertainlyUndefined(value: WrittenValue | undefined): boolean {
  if (!value || value.kind === "method") return false;
  const literal = literalValueOf(value.expression);
  return literal !== undefined && literal.value === undefined;
}

/**
 * Whether the object certainly reads the name as undefined (absent, with no spread that may give
 * it, or written `undefined`); false when it is certainly there or not known.
 */
export function isCertainlyAbsent(properties: WrittenProperties, name: string): boolean {
  const found = properties.byName.get(name);
  if (!found) return !properties.open;
  return isCertainlyUndefined(found.value);
}

/** Whether the object certainly gives the name a value other than undefined. */
export function isCertainlyGiven(properties: WrittenProperties, name: string): boolean {
  return isCertainlyDefined(properties.byName.get(name)?.value);
}

/** The expression written for the name, when it is a plain `name: value` or shorthand property no spread may replace. */
export function writtenExpression(properties: WrittenProperties, name: string): ts.Expression | undefined {
  const value = properties.byName.get(name)?.value;
  return value?.kind === "expression" ? value.expression : undefined;
}
