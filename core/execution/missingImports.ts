// An import the bundle cannot resolve fails when it runs, as it would under Node or Vitest, unless
// the test file imports it statically (then the file cannot start, and the bundle says so at once).
// It is bundled as a module that throws Node's ERR_MODULE_NOT_FOUND; a dynamic import of it rejects.
import type { Message, Metafile, OnResolveArgs, OnResolveResult, PluginBuild } from "esbuild";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The namespace of the modules that stand in for an import that resolves to nothing. */
export const MISSING_NAMESPACE = "turnlens-missing";

interface MissingImport {
  /** The import's words, as the bundle reports them when the test file cannot start (transform.ts). */
  text: string;
  /** The words the module throws when it runs: Node's own, which Vitest gives too. */
  thrown: string;
  file: string;
  /** 1-based line, 0-based column of the import's string, as esbuild places messages. */
  line: number;
  column: number;
  length: number;
  lineText: string;
}

/** Where `spec` is written as a string in `text` (the first such place), or the file's start. */
function siteOf(text: string, spec: string): { line: number; column: number; length: number; lineText: string } {
  let at = -1;
  for (const quote of ['"', "'", "`"]) {
    const found = text.indexOf(`${quote}${spec}${quote}`);
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  if (at < 0) return { line: 1, column: 0, length: 0, lineText: text.split("\n", 1)[0] ?? "" };
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const lineEnd = text.indexOf("\n", at);
  return { line, column: at - lineStart, length: spec.length + 2, lineText: text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd) };
}

function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/**
 * The imports one bundle could not resolve. `stand(args, text)` gives the resolution of one (a
 * module of MISSING_NAMESPACE); `install(build)` loads those modules; `eager(metafile, entry)` says
 * which of them the entry imports through static imports alone, which the bundle must refuse.
 */
export class MissingImports {
  private readonly byPath = new Map<string, MissingImport>();

  /** `importerText`: the importing file's text, to place the import; `text`: the bundle's words for it. */
  stand(args: OnResolveArgs, importerText: string, text: string): OnResolveResult {
    const spec = args.path;
    const site = siteOf(importerText, spec);
    const bare = !/^(\.{1,2}\/|\/|file:)/.test(spec);
    const target = bare ? spec : spec.startsWith("file:") ? spec : resolve(args.resolveDir, spec);
    const thrown = `Cannot find ${bare ? "package" : "module"} '${bare ? packageName(spec) : target}' imported from ${args.importer}`;
    const path = `${this.byPath.size}:${spec}`;
    this.byPath.set(path, { text, thrown, file: args.importer, ...site });
    return { path, namespace: MISSING_NAMESPACE };
  }

  /** Each stand-in is CommonJS, so any name imported from it binds; it throws when first evaluated. */
  install(b: PluginBuild): void {
    b.onLoad({ filter: /.*/, namespace: MISSING_NAMESPACE }, (args) => {
      const missing = this.byPath.get(args.path);
      if (!missing) return undefined;
      // The stack names the import's own line, so a report points at it rather than at this module.
      const where = `${pathToFileURL(missing.file).href}:${missing.line}:${missing.column + 1}`;
      const contents = [
        `const error = new Error(${JSON.stringify(missing.thrown)});`,
        `error.code = "ERR_MODULE_NOT_FOUND";`,
        `error.stack = ${JSON.stringify(`Error: ${missing.thrown}\n    at ${where}`)};`,
        "throw error;",
        "module.exports = {};",
      ].join("\n");
      return { contents, loader: "js" };
    });
  }

  /**
   * The imports the entry reaches by static `import` statements alone (its setup files too), as
   * esbuild's messages: those fail the file before any test runs, so the bundle refuses it.
   * A dynamic import or a `require` of one fails only when, and if, it runs.
   */
  eager(metafile: Metafile, entries: readonly string[], cwd: string): Message[] {
    if (this.byPath.size === 0) return [];
    const byPath = new Map(Object.entries(metafile.inputs).map(([key, input]) => [key.startsWith(`${MISSING_NAMESPACE}:`) ? key : resolve(cwd, key), input]));
    const found: Message[] = [];
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      if (key.startsWith(`${MISSING_NAMESPACE}:`)) {
        const missing = this.byPath.get(key.slice(MISSING_NAMESPACE.length + 1));
        if (missing) found.push(messageOf(missing));
        return;
      }
      for (const imported of byPath.get(key)?.imports ?? []) {
        if (imported.kind !== "import-statement" || imported.external) continue;
        visit(imported.path.startsWith(`${MISSING_NAMESPACE}:`) ? imported.path : resolve(cwd, imported.path));
      }
    };
    for (const entry of entries) visit(resolve(cwd, entry));
    return found;
  }
}

function messageOf(missing: MissingImport): Message {
  return {
    id: "",
    pluginName: "turnlens",
    text: missing.text,
    location: {
      file: missing.file,
      namespace: "file",
      line: missing.line,
      column: missing.column,
      length: missing.length,
      lineText: missing.lineText,
      suggestion: "",
    },
    notes: [],
    detail: undefined,
  };
}
