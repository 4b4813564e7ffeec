// How core's `describe` (core/testing/entries.ts) words a value written in a script, when the text
// alone tells: literals, functions, answer(…) and noAnswer.…() calls and lists of them. A static
// problem that quotes a value words it so, and so says what the run says.

import ts from "typescript";
import { describe } from "../../core/testing/entries.ts";
import { describeExpression, isFunctionLike, literalValueOf, unwrapExpression } from "./literalValues.ts";
import { entryCallOf, type AnalysisContext } from "./scriptEntries.ts";

/** The run's words for the value, or undefined when they depend on what the file runs (a name, a call...). */
export function describeAsRun(context: AnalysisContext, node: ts.Expression): string | undefined {
  const expression = unwrapExpression(node);
  if (isFunctionLike(expression)) return "a function";
  const entry = entryCallOf(context.bindings, expression);
  // core words an entry as written, `answer(…)` or `noAnswer.silent()`, never by its fields.
  if (entry) return entry.kind === "answer" ? "answer(…)" : `${entry.kind}()`;
  const literal = literalValueOf(expression);
  if (literal) return describe(literal.value);
  if (!ts.isArrayLiteralExpression(expression)) return undefined;
  // A list holding an entry or a function is worded item by item; any other list is JSON, a literal's.
  const items = expression.elements;
  const itemized = items.some((item) => !ts.isSpreadElement(item) && !ts.isOmittedExpression(item) && (isFunctionLike(item) || entryCallOf(context.bindings, unwrapExpression(item))));
  if (!itemized || items.some((item) => ts.isSpreadElement(item) || ts.isOmittedExpression(item))) return undefined;
  const words = items.map((item) => describeAsRun(context, item));
  return words.every((word) => word !== undefined) ? `[${words.join(", ")}]` : undefined;
}

/** The run's words when the text tells them, else the source text (the value is still certainly wrong). */
export function describeWritten(context: AnalysisContext, node: ts.Expression): string {
  return describeAsRun(context, node) ?? describeExpression(context.sourceFile, node);
}
