// Vite's `import.meta.glob(patterns, { eager, import, query })` in a file's text, made the object
// of imports it stands for before esbuild bundles the file: `{ "./a.ts": () => import("./a.ts") }`,
// or with `eager: true` the modules imported at the top. Patterns are relative to the file (or,
// starting with `/`, to the current folder); `!` patterns exclude; node_modules is skipped unless named.
import { dirname, relative, resolve } from "node:path";
import { type Expression, parseExpressionAt } from "acorn";
import { glob } from "tinyglobby";
import { codeAt } from "./codeOnly.ts";

interface GlobOptions {
  eager?: boolean;
  import?: string;
  query?: string | Record<string, string | number | boolean>;
  as?: string;
}

const CALL = /\bimport\.meta\.glob\s*(?:<[^>()]*>\s*)?\(/g;

/** The text with each `import.meta.glob(...)` call replaced; a call whose arguments are not literals stays (and fails when run). */
export async function expandImportMetaGlob(text: string, file: string): Promise<string> {
  if (!text.includes("import.meta.glob")) return text;
  const calls: Array<{ start: number; end: number; args: string }> = [];
  const code = codeAt(text);
  for (const match of text.matchAll(CALL)) {
    // One in a string, a template's text or a comment is text, not a call.
    if (!code(match.index)) continue;
    const open = match.index + match[0].length - 1;
    const close = closingParen(text, open);
    if (close !== undefined) calls.push({ start: match.index, end: close + 1, args: text.slice(open + 1, close) });
  }
  const hoisted: string[] = [];
  let out = "";
  let at = 0;
  for (const [index, call] of calls.entries()) {
    const parsed = literalArguments(call.args);
    if (!parsed) continue;
    const [patterns, options = {}] = parsed as [string | string[], GlobOptions | undefined];
    const list = typeof patterns === "string" ? [patterns] : patterns;
    if (!Array.isArray(list) || !list.every((pattern) => typeof pattern === "string")) continue;
    const object = await globObject(list, options, file, index, hoisted);
    out += text.slice(at, call.start) + object;
    at = call.end;
  }
  out += text.slice(at);
  return hoisted.length > 0 ? `${hoisted.join("\n")}\n${out}` : out;
}

/** The index of the `)` closing the `(` at `open`, past strings, template literals and comments. */
function closingParen(text: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i];
    if (char === '"' || char === "'" || char === "`") {
      for (i++; i < text.length && text[i] !== char; i++) if (text[i] === "\\") i++;
    } else if (char === "/" && text[i + 1] === "/") i = text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i);
    else if (char === "/" && text[i + 1] === "*") i = text.indexOf("*/", i) === -1 ? text.length : text.indexOf("*/", i) + 1;
    else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return i;
  }
  return undefined;
}

/**
 * The call's arguments as values, when they are literals (Vite demands it); undefined otherwise.
 * Read from the syntax tree, never run: a timed run of the text failed a literal on a busy machine.
 */
export function literalArguments(args: string): unknown[] | undefined {
  try {
    // TypeScript's `as const` is dropped first; a literal has no other TypeScript in it.
    const value = literalValue(parseExpressionAt(`[${args.replace(/\bas\s+const\b/g, "")}]`, 0, { ecmaVersion: "latest" }));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

class NotALiteral extends Error {}

/** A literal expression's value: strings, numbers, booleans, null, undefined, template text, arrays and plain objects of them. */
function literalValue(node: Expression): unknown {
  switch (node.type) {
    case "Literal":
      if ("regex" in node && node.regex) throw new NotALiteral();
      return node.value;
    case "TemplateLiteral":
      if (node.expressions.length > 0) throw new NotALiteral();
      return node.quasis.map((quasi) => quasi.value.cooked).join("");
    case "Identifier":
      if (node.name === "undefined") return undefined;
      throw new NotALiteral();
    case "UnaryExpression":
      if (node.operator === "-" && node.argument.type === "Literal" && typeof node.argument.value === "number") return -node.argument.value;
      throw new NotALiteral();
    case "ArrayExpression":
      return node.elements.map((element) => {
        if (!element || element.type === "SpreadElement") throw new NotALiteral();
        return literalValue(element);
      });
    case "ObjectExpression": {
      const object: Record<string, unknown> = {};
      for (const property of node.properties) {
        if (property.type !== "Property" || property.kind !== "init" || property.method || property.shorthand || property.computed) throw new NotALiteral();
        const key = property.key.type === "Identifier" ? property.key.name : property.key.type === "Literal" ? String(property.key.value) : undefined;
        if (key === undefined || key === "__proto__") throw new NotALiteral();
        object[key] = literalValue(property.value as Expression);
      }
      return object;
    }
    default:
      throw new NotALiteral();
  }
}

function queryOf(options: GlobOptions): string {
  if (typeof options.query === "string") return options.query === "" || options.query.startsWith("?") ? options.query : `?${options.query}`;
  if (options.query && typeof options.query === "object")
    return `?${new URLSearchParams(Object.entries(options.query).map(([key, value]): [string, string] => [key, String(value)]))}`;
  return options.as === "raw" ? "?raw" : "";
}

async function globObject(patterns: string[], options: GlobOptions, file: string, call: number, hoisted: string[]): Promise<string> {
  const folder = dirname(file);
  const rooted = (pattern: string) => (pattern.startsWith("/") ? relative(folder, resolve(process.cwd(), `.${pattern}`)) || "." : pattern);
  const positive = patterns.filter((pattern) => !pattern.startsWith("!"));
  const negative = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => rooted(pattern.slice(1)));
  const ignore = positive.some((pattern) => pattern.includes("node_modules")) ? negative : [...negative, "**/node_modules/**"];
  const found = await glob(positive.map(rooted), { cwd: folder, ignore, absolute: true, onlyFiles: true, expandDirectories: false });
  const keyOf = (path: string) => {
    const inFolder = relative(folder, path);
    const rootedKey = positive.every((pattern) => pattern.startsWith("/"));
    if (rootedKey) return `/${relative(process.cwd(), path)}`;
    return inFolder.startsWith("..") ? inFolder : `./${inFolder}`;
  };
  const query = queryOf(options);
  const entries = found
    .filter((path) => path !== file)
    .map((path) => ({
      key: keyOf(path).split("\\").join("/"),
      spec: `${relative(folder, path).startsWith("..") ? "" : "./"}${relative(folder, path).split("\\").join("/")}${query}`,
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const picked = options.import;
  const lines = entries.map((entry, index) => {
    const spec = JSON.stringify(entry.spec);
    if (options.eager) {
      const name = `__turnlensGlob${call}_${index}`;
      // The namespace, the export read from it: a module without that export gives undefined, as under Vite, not a bundle error.
      hoisted.push(`import * as ${name} from ${spec};`);
      return `${JSON.stringify(entry.key)}: ${picked ? `${name}[${JSON.stringify(picked)}]` : name}`;
    }
    const take = picked ? `.then((m) => m[${JSON.stringify(picked)}])` : "";
    return `${JSON.stringify(entry.key)}: () => import(${spec})${take}`;
  });
  return `{ ${lines.join(", ")} }`;
}
