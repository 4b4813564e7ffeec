// A bundled file's `import(expression)` whose specifier only the run knows, sent to the runtime's
// import (runtimeImport.ts), which resolves it from the file that wrote it, not from the bundle.
import { pathToFileURL } from "node:url";

/** What a bundled file's `import(expression)` calls: `globalThis[Symbol.for(RUNTIME_IMPORT)](importer, specifier)`. */
export const RUNTIME_IMPORT = "turnlens.runtimeImport";

/** What a bundled file's `import.meta.resolve(specifier)` calls, with its own file's URL first. */
export const IMPORT_META_RESOLVE = "turnlens.importMetaResolve";

/** The call that stands for `import.meta.resolve(` in `file` (its arguments follow, then its ")"). */
export function importMetaResolveCall(file: string): string {
  return `globalThis[Symbol.for(${JSON.stringify(IMPORT_META_RESOLVE)})](${JSON.stringify(pathToFileURL(file).href)}, `;
}

/** What stands for `import(` of a non-literal in `file`: the specifier and ")" follow. */
export function runtimeImportCall(file: string): string {
  return `globalThis[Symbol.for(${JSON.stringify(RUNTIME_IMPORT)})](${JSON.stringify(file)}, `;
}

const DYNAMIC_IMPORT_OR_SKIPPED =
  /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\/|(?<![.\w$])import\s*\((?=\s*(?:\/\*[\s\S]*?\*\/\s*)*(?!['"\s]|\/\*|`\.{1,2}\/))/g;

/**
 * `text` with each `import(expression)` whose argument is not a string (a variable, a call) sent to
 * RUNTIME_IMPORT with `file` as its importer. esbuild bundles a string itself, and a template literal
 * that starts "./" or "../" as every file it may name (so each is the bundle's one copy of it);
 * quoted strings and comments are left as written.
 */
export function runtimeImports(file: string, text: string): string {
  if (!text.includes("import")) return text;
  return text.replace(DYNAMIC_IMPORT_OR_SKIPPED, (match) => (match.startsWith("import") ? runtimeImportCall(file) : match));
}
