// A test file's literals read from its text, with no compiler: an object's keys, an array's elements,
// a call's arguments, each with its offset. failureLocation.ts finds a problem's option, entry or
// `during` with it, where the language server's static pass (TypeScript's parser) finds the same.

/** A value as written: where it starts and ends, and what a literal holds. */
export type Literal =
  | { kind: "object"; start: number; end: number; properties: LiteralProperty[] }
  | { kind: "array"; start: number; end: number; elements: Literal[] }
  /** `a.b(...)`: the callee's start is the value's; `args` are its arguments. */
  | { kind: "call"; start: number; end: number; callee: string; args: Literal[] }
  | { kind: "identifier"; start: number; end: number; name: string }
  | { kind: "other"; start: number; end: number };

export interface LiteralProperty {
  key: string;
  keyStart: number;
  /** Absent for a shorthand property or a method. */
  value?: Literal;
}

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const IDENTIFIER = /[A-Za-z_$][\w$]*/y;

/** The offset of a 1-based line and column (V8's and the trace's; columns count UTF-16 units, as strings do). */
export function offsetOf(text: string, line: number, column: number): number | undefined {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return undefined;
    offset = next + 1;
  }
  return offset + column - 1;
}

/** The 1-based line and column of an offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf("\n"); index >= 0 && index < offset; index = text.indexOf("\n", index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Past blanks and comments. */
export function skipTrivia(text: string, at: number): number {
  let i = at;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith("//", i)) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      return i;
    }
  }
}

/** Past a string or template literal that starts at `at`. */
function skipString(text: string, at: number): number {
  const quote = text[at]!;
  let i = at + 1;
  while (i < text.length) {
    const char = text[i]!;
    if (char === "\\") i += 2;
    else if (char === quote) return i + 1;
    else if (quote === "`" && text.startsWith("${", i)) i = skipUntilClose(text, i + 2, "}") + 1;
    else if (char === "\n" && quote !== "`") return i;
    else i++;
  }
  return i;
}

/** The offset of the `close` that ends what starts at `at`, nested brackets, strings and comments skipped. */
function skipUntilClose(text: string, at: number, close: string): number {
  let i = at;
  while (i < text.length) {
    i = skipTrivia(text, i);
    const char = text[i];
    if (char === undefined || char === close) return i;
    if (char === '"' || char === "'" || char === "`") i = skipString(text, i);
    else if (OPEN[char]) i = skipUntilClose(text, i + 1, OPEN[char]!) + 1;
    else i++;
  }
  return i;
}

/** The end of an expression at `at`: the first `,` or closing bracket at its own depth. */
function expressionEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    i = skipTrivia(text, i);
    const char = text[i];
    if (char === undefined || char === "," || char === ")" || char === "]" || char === "}" || char === ";") return i;
    if (char === '"' || char === "'" || char === "`") i = skipString(text, i);
    else if (OPEN[char]) i = skipUntilClose(text, i + 1, OPEN[char]!) + 1;
    else i++;
  }
  return i;
}

/** The values of a list between brackets opened just before `at`, up to `close`. */
function listOf(text: string, at: number, close: string): { items: Literal[]; end: number } {
  const items: Literal[] = [];
  let i = skipTrivia(text, at);
  while (i < text.length && text[i] !== close) {
    if (text.startsWith("...", i)) {
      items.push({ kind: "other", start: i, end: expressionEnd(text, i + 3) });
    } else {
      items.push(readLiteral(text, i));
    }
    i = skipTrivia(text, items[items.length - 1]!.end);
    if (text[i] === ",") i = skipTrivia(text, i + 1);
    else if (text[i] !== close) break;
  }
  return { items, end: Math.min(text.length, skipUntilClose(text, i, close) + 1) };
}

function readObject(text: string, at: number): Literal {
  const properties: LiteralProperty[] = [];
  let i = skipTrivia(text, at + 1);
  while (i < text.length && text[i] !== "}") {
    if (text.startsWith("...", i)) {
      i = expressionEnd(text, i + 3);
    } else {
      const keyStart = i;
      let key: string | undefined;
      if (text[i] === '"' || text[i] === "'") {
        const end = skipString(text, i);
        key = text.slice(i + 1, end - 1);
        i = end;
      } else if (text[i] === "[") {
        i = skipUntilClose(text, i + 1, "]") + 1;
      } else {
        IDENTIFIER.lastIndex = i;
        const word = IDENTIFIER.exec(text) ?? /[\w.]+/y.exec(text.slice(i));
        key = word?.[0];
        i += key?.length || 1;
      }
      i = skipTrivia(text, i);
      if (text[i] === ":") {
        const value = readLiteral(text, skipTrivia(text, i + 1));
        if (key !== undefined) properties.push({ key, keyStart, value });
        i = value.end;
      } else {
        // A shorthand, or a method (`key() {…}`), whose value is not read.
        if (key !== undefined) properties.push({ key, keyStart });
        i = expressionEnd(text, i);
      }
    }
    i = skipTrivia(text, i);
    if (text[i] === ",") i = skipTrivia(text, i + 1);
    else if (text[i] !== "}") break;
  }
  return { kind: "object", start: at, end: expressionEnd(text, Math.min(text.length, skipUntilClose(text, i, "}") + 1)), properties };
}

/** The value written at `at` (blanks and comments before it already skipped). */
export function readLiteral(text: string, at: number): Literal {
  const char = text[at];
  if (char === "{") return readObject(text, at);
  if (char === "[") {
    const { items, end } = listOf(text, at + 1, "]");
    return { kind: "array", start: at, end: expressionEnd(text, end), elements: items };
  }
  if (char === "(") {
    // `(value)`: its inside, as TypeScript's parentheses are looked through.
    const inner = readLiteral(text, skipTrivia(text, at + 1));
    return { ...inner, end: expressionEnd(text, at) };
  }
  const chain = /[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*/y;
  chain.lastIndex = at;
  const callee = chain.exec(text)?.[0];
  if (callee) {
    const after = skipTrivia(text, at + callee.length);
    if (text[after] === "(") {
      const { items } = listOf(text, after + 1, ")");
      return { kind: "call", start: at, end: expressionEnd(text, at), callee: callee.replace(/\s+/g, ""), args: items };
    }
    const end = expressionEnd(text, at);
    const written = text.slice(at, end).replace(/\s+(?:as|satisfies)\s[\s\S]*$/, "");
    if (/^[A-Za-z_$][\w$]*!?$/.test(written.trim())) return { kind: "identifier", start: at, end, name: written.trim().replace(/!$/, "") };
    return { kind: "other", start: at, end };
  }
  return { kind: "other", start: at, end: expressionEnd(text, at) };
}

/** What a const of the file holds (`const STEPS = [...]`), the first declared by that name; followed through up to four names. */
export function resolved(text: string, value: Literal | undefined, depth = 0): Literal | undefined {
  if (value?.kind !== "identifier" || depth >= 4) return value;
  const name = value.name.replace(/[$]/g, "\\$");
  const declaration = new RegExp(`\\b(?:const|let|var)\\s+${name}\\s*(?::[^=;]+)?=\\s*`).exec(text);
  if (!declaration) return value;
  return resolved(text, readLiteral(text, skipTrivia(text, declaration.index + declaration[0].length)), depth + 1);
}

/** A property of an object literal by its key. */
export function propertyOf(object: Literal | undefined, key: string | undefined): LiteralProperty | undefined {
  return object?.kind === "object" && key !== undefined ? object.properties.find((property) => property.key === key) : undefined;
}

/**
 * The start of the expression a runtime site is inside: V8 places a call `noAnswer.silent()` at
 * `silent`, and the expression starts at `noAnswer`.
 */
export function expressionStartAt(text: string, offset: number): number {
  let start = offset;
  for (;;) {
    const before = /([A-Za-z_$][\w$]*)\s*\.\s*$/.exec(text.slice(Math.max(0, start - 200), start));
    if (!before) return start;
    start -= before[0].length;
  }
}

/**
 * Where a failure at a runtime site starts as written: V8 places `process.exit(1)` at `exit` and
 * `throw new Error(…)` at `new`; the statement starts at `process` and at `throw`. An `expect`'s
 * matcher (`).toBe(…)`) stays where V8 put it.
 */
export function failureStartAt(text: string, offset: number): number {
  const start = expressionStartAt(text, offset);
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const keyword = /\bthrow\s+$/.exec(text.slice(lineStart, start));
  return keyword ? lineStart + keyword.index : start;
}
