// Reading the `events` option of a testWorkflow call: the array literal's elements, in order, so a
// run's scripted events (`RunTrace.events`, and the problems with option "events" and an index)
// land on the element that wrote them.

import ts from "./typescript.ts";
import { propertyKeyOf, unwrapExpression } from "./literalValues.ts";
import type { StaticEventElement, StaticEvents } from "./model.ts";
import { rangeOfNode } from "./ranges.ts";
import type { AnalysisContext } from "./scriptEntries.ts";

/** The elements of an `events` array literal (followed through a const of this file); undefined for anything else. */
export function readEventElements(context: AnalysisContext, value: ts.Expression): StaticEvents | undefined {
  const array = arrayLiteralOf(context, value, 0);
  if (!array) return undefined;
  const { sourceFile } = context;
  const elements: StaticEventElement[] = [];
  let hasSpread = false;
  for (const element of array.elements) {
    if (ts.isSpreadElement(element)) {
      // What the spread holds is not known, so no later element has a known index.
      hasSpread = true;
      break;
    }
    const read: StaticEventElement = { index: elements.length, range: rangeOfNode(sourceFile, element) };
    const object = unwrapExpression(element);
    if (ts.isObjectLiteralExpression(object)) {
      read.keys = [];
      for (const property of object.properties) {
        const named = property.name ? propertyKeyOf(property.name) : undefined;
        if (named !== undefined && property.name) read.keys.push({ key: named, range: rangeOfNode(sourceFile, property.name) });
        if (!ts.isPropertyAssignment(property)) continue;
        const key = propertyKeyOf(property.name);
        const written = unwrapExpression(property.initializer);
        const text = ts.isStringLiteral(written) || ts.isNoSubstitutionTemplateLiteral(written) ? written.text : undefined;
        if (key === "during" || key === "after") {
          read.when = key;
          if (text !== undefined) read.turn = text;
        } else if (key === "name" && text !== undefined) {
          read.name = text;
        }
      }
    }
    elements.push(read);
  }
  return { arrayRange: rangeOfNode(sourceFile, array), elements, hasSpread };
}

/** The array literal itself, or the one a const of this file holds (`events: sent` with `const sent = [...]`). */
function arrayLiteralOf(context: AnalysisContext, value: ts.Expression, depth: number): ts.ArrayLiteralExpression | undefined {
  const expression = unwrapExpression(value);
  if (ts.isArrayLiteralExpression(expression)) return expression;
  if (!ts.isIdentifier(expression) || depth >= 4) return undefined;
  const initializer = context.constants.resolve(expression.text, expression.getStart(context.sourceFile));
  return initializer ? arrayLiteralOf(context, initializer, depth + 1) : undefined;
}
