// The config's `define` (Vite's and Vitest's), split the way Vitest splits it: a plain name whose
// value is data becomes a global of the worker (so a file may reassign it), `import.meta.env.X` and
// `process.env.X` become environment variables, and the rest is replaced in the source by esbuild.

/** Names Vitest drops from a Vite config's `define`: replacing them would break Node (or in-source tests). */
const DROPPED = new Set(["process", "global", "process.env", "import.meta.vitest"]);

/** A name esbuild can replace: identifiers joined by dots (`import.meta.env.X` among them). */
const ENTITY_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** Why `name: value` cannot be a `define` entry, or undefined when it can. */
export function defineProblem(name: string, value: unknown): string | undefined {
  if (!ENTITY_NAME.test(name)) return `names ${JSON.stringify(name)}, which is not a name or a dotted name (such as __VERSION__ or import.meta.env.API)`;
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint")
    return `gives ${JSON.stringify(name)} a ${typeof value}; a replacement is JSON text or a name as a string, or a plain value`;
  if (typeof value !== "string") return undefined;
  if (ENTITY_NAME.test(value.trim()) || parses(value)) return undefined;
  return `gives ${JSON.stringify(name)} ${JSON.stringify(value)}, which is neither JSON (write a string as '"text"') nor a name such as process.env.MODE (esbuild replaces with no other expression)`;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Each value as the source text it stands for: a string as written, `undefined` as such, anything else as JSON. */
export function defineTexts(define: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(define).map(([name, value]) => [name, typeof value === "string" ? value.trim() : value === undefined ? "undefined" : JSON.stringify(value)]),
  );
}

/** What a `define` does in a worker, once split. */
export interface SplitDefine {
  /** Globals set before each file runs, by name (dotted names make nested objects). */
  globals: Array<[name: string, value: unknown]>;
  /** Environment variables set before each file runs. */
  env: Record<string, string>;
  /** Replaced in the source by esbuild's `define`. */
  replace: Record<string, string>;
}

/**
 * Vitest's split (its deleteDefineConfig and createDefinesScript): a value that is JSON and a name
 * with no dot is a global; `import.meta.env.X`/`process.env.X` with JSON set the variable X (a
 * string, as process.env holds it); anything else is replaced where it is read, and a dotted name
 * with JSON also gets its global objects, so an assignment to it does not throw.
 */
export function splitDefine(texts: Readonly<Record<string, string>>): SplitDefine {
  const split: SplitDefine = { globals: [], env: {}, replace: {} };
  for (const [name, text] of Object.entries(texts)) {
    if (DROPPED.has(name)) continue;
    let value: unknown;
    let isData = true;
    try {
      value = JSON.parse(text);
    } catch {
      isData = false;
    }
    const envName = /^(?:import\.meta\.env|process\.env)\.(.+)$/.exec(name)?.[1];
    if (isData && envName !== undefined) split.env[envName] = String(value);
    else if (isData && !name.includes(".")) split.globals.push([name, value]);
    else {
      split.replace[name] = text;
      if (isData && envName === undefined && !name.startsWith("import.")) split.globals.push([name, value]);
    }
  }
  return split;
}

/** Sets the split's globals on `target`: a dotted name's objects made where missing. */
export function setDefineGlobals(globals: SplitDefine["globals"], target: Record<string, unknown> = globalThis as Record<string, unknown>): void {
  for (const [name, value] of globals) {
    const segments = name.split(".");
    let at = target;
    for (const segment of segments.slice(0, -1)) {
      const next = at[segment];
      at = (typeof next === "object" && next !== null ? next : (at[segment] = {})) as Record<string, unknown>;
    }
    at[segments.at(-1)!] = value;
  }
}
