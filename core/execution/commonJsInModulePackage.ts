// A `.js` file that assigns `module.exports` inside a `"type": "module"` package: Node refuses it,
// Vitest runs it as CommonJS (its default export is `module.exports`), and so does the bundle.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Whether each folder's nearest package.json says `"type": "module"`, by folder. */
const moduleScope = new Map<string, boolean>();

function inModulePackage(folder: string): boolean {
  const known = moduleScope.get(folder);
  if (known !== undefined) return known;
  let answer: boolean;
  try {
    answer = (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { type?: unknown }).type === "module";
  } catch (error) {
    // No package.json here (or one that cannot be read): the folder above decides.
    const parent = dirname(folder);
    answer = (error as NodeJS.ErrnoException).code === "ENOENT" && parent !== folder ? inModulePackage(parent) : false;
  }
  moduleScope.set(folder, answer);
  return answer;
}

const ESM_SYNTAX = /^[ \t]*(?:import[\s{*"']|export[\s{*])|\bimport\.meta\b/m;
const COMMONJS_EXPORTS = /\bmodule\.exports\b|\bexports\.[A-Za-z_$][\w$]*\s*=/;

/**
 * The text to bundle for `file`: a `.js` file with CommonJS exports and no ESM syntax, in a
 * `"type": "module"` package (which esbuild would read as ESM, with no exports), wrapped as an ES
 * module whose default export is its `module.exports`. Any other file's text is returned as it is.
 */
export function commonJsAsModule(file: string, text: string): string {
  if (!file.endsWith(".js") || !COMMONJS_EXPORTS.test(text) || ESM_SYNTAX.test(text) || !inModulePackage(dirname(file))) return text;
  // One line of prologue, so the file's own lines keep their numbers.
  return `var module = { exports: {} }, exports = module.exports; ${text}\nexport default module.exports;\n`;
}
