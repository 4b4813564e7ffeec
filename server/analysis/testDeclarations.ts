// Recognising `test`, `it` and `describe` calls with their modifiers (`.skip`, `.only.each(rows)`,
// `.if(cond)`, each`table`) and naming them as the runner will report them.

import ts from "./typescript.ts";
import { testApiRoleOfMember, type ImportBindings } from "./importBindings.ts";
import { unwrapExpression } from "./literalValues.ts";

/** Modifiers that give another test function at once. */
const PLAIN_MODIFIERS = new Set(["only", "skip", "todo", "failing", "concurrent", "sequential"]);
/** Modifiers that are called first (`.each(rows)`, `.if(condition)`) and give a test function. */
const CALLED_MODIFIERS = new Set(["each", "if", "runIf", "skipIf"]);

export interface TestDeclaration {
  kind: "test" | "describe";
  /** `skip`, `only.each`, `skipIf`...; absent for a bare `test(...)`. */
  modifier?: string;
  /** Start and end offsets of the callee written as names: `test.only`, `describe.each` (no arguments). */
  calleeStart: number;
  calleeEnd: number;
  /** The first argument, the test's name. */
  nameArgument?: ts.Expression;
  isEach: boolean;
}

interface Chain {
  kind: "test" | "describe";
  modifiers: string[];
  start: number;
  end: number;
  /** The chain ends in a called modifier (`.each`) that hasn't been called yet. */
  awaitsCall: boolean;
}

/** The test or describe a call declares, or undefined when the call is anything else. */
export function readTestDeclaration(sourceFile: ts.SourceFile, call: ts.CallExpression, bindings: ImportBindings): TestDeclaration | undefined {
  const chain = readChain(sourceFile, call.expression, bindings);
  if (!chain || chain.awaitsCall) return undefined;
  const declaration: TestDeclaration = {
    kind: chain.kind,
    calleeStart: chain.start,
    calleeEnd: chain.end,
    isEach: chain.modifiers.includes("each"),
  };
  if (chain.modifiers.length > 0) declaration.modifier = chain.modifiers.join(".");
  const first = call.arguments[0];
  if (first) declaration.nameArgument = first;
  return declaration;
}

function readChain(sourceFile: ts.SourceFile, expression: ts.Expression, bindings: ImportBindings): Chain | undefined {
  if (ts.isIdentifier(expression)) {
    const role = bindings.testApiRoleOf(expression.text);
    if (!role) return undefined;
    return { kind: kindOfRole(role), modifiers: [], start: expression.getStart(sourceFile), end: expression.getEnd(), awaitsCall: false };
  }
  if (ts.isPropertyAccessExpression(expression)) {
    const name = expression.name.text;
    const object = expression.expression;
    if (ts.isIdentifier(object) && bindings.isTestApiNamespace(object.text)) {
      const role = testApiRoleOfMember(name);
      if (!role) return undefined;
      return { kind: kindOfRole(role), modifiers: [], start: object.getStart(sourceFile), end: expression.getEnd(), awaitsCall: false };
    }
    const inner = readChain(sourceFile, object, bindings);
    if (!inner || inner.awaitsCall) return undefined;
    if (!PLAIN_MODIFIERS.has(name) && !CALLED_MODIFIERS.has(name)) return undefined;
    return {
      kind: inner.kind,
      modifiers: [...inner.modifiers, name],
      start: inner.start,
      end: expression.name.getEnd(),
      awaitsCall: CALLED_MODIFIERS.has(name),
    };
  }
  if (ts.isCallExpression(expression)) {
    const inner = readChain(sourceFile, expression.expression, bindings);
    return inner?.awaitsCall ? { ...inner, awaitsCall: false } : undefined;
  }
  if (ts.isTaggedTemplateExpression(expression)) {
    const inner = readChain(sourceFile, expression.tag, bindings);
    return inner?.awaitsCall && inner.modifiers.at(-1) === "each" ? { ...inner, awaitsCall: false } : undefined;
  }
  return undefined;
}

function kindOfRole(role: string): "test" | "describe" {
  return role === "describe" || role === "suite" ? "describe" : "test";
}

export interface TestName {
  name: string;
  /** A RegExp source the runner's name matches, when the name written isn't the name reported. */
  namePattern?: string;
}

/**
 * The name as the runner reports it: a string literal's text. A template with `${…}`, or a
 * `.each` name with `%s`/`$key` placeholders, gives the text as written and a pattern the reported
 * names match; any other expression gives its source text and a pattern that matches any name.
 */
export function testNameOf(sourceFile: ts.SourceFile, declaration: TestDeclaration): TestName {
  const argument = declaration.nameArgument ? unwrapExpression(declaration.nameArgument) : undefined;
  if (!argument) return { name: "", namePattern: ANY_NAME };
  if (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument)) {
    return declaration.isEach ? withEachPattern(argument.text, escapeEachTemplate) : { name: argument.text };
  }
  if (ts.isNumericLiteral(argument)) return { name: String(Number(argument.text.replace(/_/g, ""))) };
  if (ts.isTemplateExpression(argument)) {
    const written = argument.getText(sourceFile).slice(1, -1);
    const escape = declaration.isEach ? escapeEachTemplate : escapeRegExp;
    let pattern = escape(argument.head.text);
    for (const span of argument.templateSpans) pattern += ANY_TEXT + escape(span.literal.text);
    return { name: written, namePattern: `^${pattern}$` };
  }
  return { name: argument.getText(sourceFile), namePattern: ANY_NAME };
}

const ANY_TEXT = "[\\s\\S]*?";
const ANY_NAME = "^[\\s\\S]*$";

function withEachPattern(template: string, escape: (text: string) => string): TestName {
  const pattern = `^${escape(template)}$`;
  return pattern === `^${escapeRegExp(template)}$` ? { name: template } : { name: template, namePattern: pattern };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The names `formatEachName` (core/testApi/testApi.ts) makes from a `.each` name: `%s`, `%d`, `%i`,
 * `%f`, `%j`, `%o`, `%p`, `%O` take a value, `%#` and `%$` the row's index, `$key.path` an object
 * row's field, `%%` is `%`.
 */
function escapeEachTemplate(template: string): string {
  let pattern = "";
  let last = 0;
  for (const match of template.matchAll(/%[sdifjopO]|%[#$]|%%|\$[A-Za-z_$][\w$]*(?:\.[\w$]+)*/g)) {
    pattern += escapeRegExp(template.slice(last, match.index));
    const token = match[0];
    if (token === "%#" || token === "%$") pattern += "\\d+";
    else if (token === "%%") pattern += "%%?";
    else pattern += ANY_TEXT;
    last = match.index + token.length;
  }
  return pattern + escapeRegExp(template.slice(last));
}
