// What the static pass can know about an expression without running it: the value of a plain
// literal, the key of an object property, whether it is a function.

import ts from "./typescript.ts";

/** Strips parentheses, `as`, `satisfies`, `!` and `<T>` assertions, which change no value. */
export function unwrapExpression(node: ts.Expression): ts.Expression {
  let current = node;
  for (;;) {
    if (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current)) {
      current = current.expression;
    } else if (ts.isNonNullExpression(current) || ts.isTypeAssertionExpression(current)) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

const NOT_A_LITERAL = Symbol("not a literal");

/** The value of a literal made only of strings, numbers, booleans, null, undefined, arrays and plain objects. */
export function literalValueOf(node: ts.Expression): { value: unknown } | undefined {
  const value = evaluate(node);
  return value === NOT_A_LITERAL ? undefined : { value };
}

function evaluate(node: ts.Expression): unknown {
  const expression = unwrapExpression(node);
  switch (expression.kind) {
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
      return (expression as ts.StringLiteral).text;
    case ts.SyntaxKind.NumericLiteral:
      return Number((expression as ts.NumericLiteral).text.replace(/_/g, ""));
    case ts.SyntaxKind.TrueKeyword:
      return true;
    case ts.SyntaxKind.FalseKeyword:
      return false;
    case ts.SyntaxKind.NullKeyword:
      return null;
    case ts.SyntaxKind.Identifier:
      return (expression as ts.Identifier).text === "undefined" ? undefined : NOT_A_LITERAL;
    case ts.SyntaxKind.PrefixUnaryExpression: {
      const unary = expression as ts.PrefixUnaryExpression;
      const operand = unwrapExpression(unary.operand);
      if (!ts.isNumericLiteral(operand)) return NOT_A_LITERAL;
      const number = Number(operand.text.replace(/_/g, ""));
      if (unary.operator === ts.SyntaxKind.MinusToken) return -number;
      if (unary.operator === ts.SyntaxKind.PlusToken) return number;
      return NOT_A_LITERAL;
    }
    case ts.SyntaxKind.ArrayLiteralExpression: {
      const values: unknown[] = [];
      for (const element of (expression as ts.ArrayLiteralExpression).elements) {
        if (ts.isSpreadElement(element)) return NOT_A_LITERAL;
        const value = ts.isOmittedExpression(element) ? undefined : evaluate(element);
        if (value === NOT_A_LITERAL) return NOT_A_LITERAL;
        values.push(value);
      }
      return values;
    }
    case ts.SyntaxKind.ObjectLiteralExpression: {
      const object: Record<string, unknown> = {};
      for (const property of (expression as ts.ObjectLiteralExpression).properties) {
        if (!ts.isPropertyAssignment(property)) return NOT_A_LITERAL;
        const key = propertyKeyOf(property.name);
        if (key === undefined) return NOT_A_LITERAL;
        const value = evaluate(property.initializer);
        if (value === NOT_A_LITERAL) return NOT_A_LITERAL;
        object[key] = value;
      }
      return object;
    }
    default:
      return NOT_A_LITERAL;
  }
}

/** The key a property name gives at runtime, when it is written literally (`a`, `"a-b"`, `1`, `["a"]`). */
export function propertyKeyOf(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isNumericLiteral(name)) return String(Number(name.text.replace(/_/g, "")));
  if (ts.isComputedPropertyName(name)) {
    const inner = unwrapExpression(name.expression);
    if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return inner.text;
    if (ts.isNumericLiteral(inner)) return String(Number(inner.text.replace(/_/g, "")));
  }
  return undefined;
}

export function isFunctionLike(node: ts.Expression): boolean {
  const expression = unwrapExpression(node);
  return ts.isArrowFunction(expression) || ts.isFunctionExpression(expression) || ts.isClassExpression(expression);
}
