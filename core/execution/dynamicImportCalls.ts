// A bundled file's `import(expression)` whose specifier only the run knows, sent to the runtime's
// import (runtimeImport.ts), which resolves it from the file that wrote it, not from the bundle.
import { pathToFileURL } from "node:url";
import { replaceInCode } from "./codeOnly.ts";

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

/** `import(` whose argument is not a string, nor a template literal starting "./" or "../" (comments before it allowed). */
const DYNAMIC_IMPORT = /(?<![.\w$])import\s*\((?=\s*(?:\/\*[\s\S]*?\*\/\s*)*(?!['"\s]|\/\*|`\.{1,2}\/))/g;

/**
 * `text` with each `import(expression)` whose argument is not a string (a variable, a call) sent to
 * RUNTIME_IMPORT with `file` as its importer. esbuild bundles a string itself, and a template literal
 * that starts "./" or "../" as every file it may name (so each is the bundle's one copy of it);
 * strings (a template literal's text too), comments and regular expressions are left as written (codeOnly.ts).
 */
export function runtimeImports(file: string, text: string): string {
  if (!text.includes("import")) return text;
  return replaceInCode(text, DYNAMIC_IMPORT, () => runtimeImportCall(file));
}
