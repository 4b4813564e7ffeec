// A small JSON-with-comments reader that keeps every value's offsets, and text edits (insert a
// property, replace a value, remove a property) that leave the rest of the file — comments, order, layout — as it was.
// `turnlens init` uses it to add tsconfig paths without rewriting the user's file.

export type JsonNode =
  | { kind: "object"; start: number; end: number; properties: JsonProperty[] }
  | { kind: "array"; start: number; end: number; items: JsonNode[] }
  | { kind: "value"; start: number; end: number; value: string | number | boolean | null };

export interface JsonProperty {
  key: string;
  keyStart: number;
  value: JsonNode;
}

export class JsoncError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Parses JSON with `//` and `/* *\/` comments and trailing commas. Throws JsoncError. */
export function parseJsonc(text: string): JsonNode {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsoncError(`${what} at offset ${i}`, i);
  };
  const skip = () => {
    for (;;) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\uFEFF") i++;
      else if (c === "/" && text[i + 1] === "/") {
        while (i < text.length && text[i] !== "\n") i++;
      } else if (c === "/" && text[i + 1] === "*") {
        const close = text.indexOf("*/", i + 2);
        if (close < 0) fail("unclosed comment");
        i = close + 2;
      } else return;
    }
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    if (i >= text.length) fail("unclosed string");
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonNode => {
    skip();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const properties: JsonProperty[] = [];
      for (;;) {
        skip();
        if (text[i] === "}") break;
        if (text[i] !== '"') fail("expected a property name");
        const keyStart = i;
        const key = string();
        skip();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        properties.push({ key, keyStart, value: value() });
        skip();
        if (text[i] === ",") i++;
        else if (text[i] !== "}") fail("expected ',' or '}'");
      }
      i++;
      return { kind: "object", start, end: i, properties };
    }
    if (c === "[") {
      i++;
      const items: JsonNode[] = [];
      for (;;) {
        skip();
        if (text[i] === "]") break;
        items.push(value());
        skip();
        if (text[i] === ",") i++;
        else if (text[i] !== "]") fail("expected ',' or ']'");
      }
      i++;
      return { kind: "array", start, end: i, items };
    }
    if (c === '"') {
      const text = string();
      return { kind: "value", start, end: i, value: text };
    }
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) return fail("expected a value");
    i += m[0].length;
    return { kind: "value", start, end: i, value: JSON.parse(m[0]) as string | number | boolean | null };
  };
  const root = value();
  skip();
  if (i < text.length) fail("unexpected text after the end");
  return root;
}

/** The plain value of a node. */
export function toValue(node: JsonNode): unknown {
  if (node.kind === "value") return node.value;
  if (node.kind === "array") return node.items.map(toValue);
  return Object.fromEntries(node.properties.map((p) => [p.key, toValue(p.value)]));
}

export function property(node: JsonNode | undefined, key: string): JsonProperty | undefined {
  if (node?.kind !== "object") return undefined;
  // JSON's last duplicate wins.
  return node.properties.findLast((p) => p.key === key);
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export function applyEdits(text: string, edits: TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** The indentation unit the file uses (the first indented line's), two spaces by default. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : "  ";
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** JSON.stringify with `unit` indentation, keeping one-item lists such as paths on one line. */
export function stringify(value: unknown, unit: string): string {
  return JSON.stringify(value, null, unit).replace(/\[\n\s+("(?:[^"\\]|\\.)*"|[^\s[\]{},"]+)\n\s*\]/g, "[$1]");
}

function serialize(value: unknown, indent: string, unit: string): string {
  return stringify(value, unit).replace(/\n/g, `\n${indent}`);
}

/** Inserts `entries` as the first properties of `object`, each on its own line. */
export function insertProperties(text: string, object: JsonNode & { kind: "object" }, entries: [string, unknown][], unit: string): TextEdit {
  const outer = lineIndent(text, object.start);
  const inner = outer + unit;
  const lines = entries.map(([key, value]) => `${inner}${JSON.stringify(key)}: ${serialize(value, inner, unit)}`);
  if (object.properties.length === 0) {
    return { start: object.start + 1, end: object.end - 1, text: `\n${lines.join(",\n")}\n${outer}` };
  }
  return { start: object.start + 1, end: object.start + 1, text: `\n${lines.join(",\n")},` };
}

/** Replaces a property's value, keeping the key and everything around it. */
export function replaceValue(text: string, prop: JsonProperty, value: unknown, unit: string): TextEdit {
  return { start: prop.value.start, end: prop.value.end, text: serialize(value, lineIndent(text, prop.keyStart), unit) };
}

/**
 * Removes `prop` from `object`, with its line when it stands on one, and the comma that joined it
 * (a comma it leaves after the last property is a trailing comma, which tsconfig reads).
 */
export function removeProperty(text: string, object: JsonNode & { kind: "object" }, prop: JsonProperty): TextEdit {
  const index = object.properties.indexOf(prop);
  const lineStart = (offset: number) => text.lastIndexOf("\n", offset - 1) + 1;
  const ownLine = (offset: number) => text.slice(lineStart(offset), offset).trim() === "";
  const next = object.properties[index + 1];
  if (next)
    return { start: ownLine(prop.keyStart) ? lineStart(prop.keyStart) : prop.keyStart, end: ownLine(next.keyStart) ? lineStart(next.keyStart) : next.keyStart, text: "" };
  const previous = object.properties[index - 1];
  if (previous) return { start: previous.value.end, end: prop.value.end, text: "" };
  return { start: object.start + 1, end: object.end - 1, text: "" };
}
