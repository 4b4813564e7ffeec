// A bundle is first built without the plugin's callback for relative and absolute imports (each
// call a round trip to esbuild's process, for a file that almost always exists); only a build that
// left such an import unresolved is made again with it (transform.ts), which gives those imports
// their stand-ins, project-root and folder-package meanings.
import type { Metafile } from "esbuild";

/** A path import: `./x`, `../x` or `/x` (a bare name, a URL or a namespace's path is not one). */
const PATH_IMPORT = /^(?:\.{1,2}\/|\/)/;

/** esbuild's words for an import it could not resolve, the import's words quoted. */
const UNRESOLVED = /^Could not resolve "([^"]*)"/;

/** Whether a failed build's error names a path import esbuild could not resolve. */
export function failedOnUnresolvedPath(error: unknown): boolean {
  const messages = (error as { errors?: Array<{ text?: unknown }> } | undefined)?.errors;
  if (!Array.isArray(messages)) return false;
  return messages.some((message) => typeof message.text === "string" && PATH_IMPORT.test(UNRESOLVED.exec(message.text)?.[1] ?? ""));
}

/**
 * Whether a build that succeeded left a path import unresolved: esbuild keeps an import it cannot
 * resolve as it is written, external, when the code handles its failure (`require` in a `try`, an
 * `import()` whose rejection is caught). `kept` is the paths the plugin itself made external (an
 * installed package's file, required by its absolute path), which are not such imports.
 */
export function leftPathUnresolved(metafile: Metafile, kept: ReadonlySet<string>): boolean {
  for (const input of Object.values(metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external && PATH_IMPORT.test(imported.path) && !kept.has(imported.path)) return true;
    }
  }
  return false;
}
