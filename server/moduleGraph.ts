// What each test file depends on: the project files its last run read (core's DependencyGraph,
// which the CLI's watch uses too) and, for a file not run yet, its relative imports as written.
// Paths are absolute, as the runner reports them.
import { dirname, extname, resolve } from "node:path";

/** The extensions a relative import without one may name, in the order esbuild tries them. */
const IMPLIED_EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".css", ".json", ".mts", ".cts", ".mjs", ".cjs"];
/** `./x.js` in TypeScript names `./x.ts` (and so on), as esbuild resolves it. */
const TYPESCRIPT_FOR: Record<string, string[]> = { ".js": [".ts", ".tsx"], ".jsx": [".ts", ".tsx"], ".mjs": [".mts"], ".cjs": [".cts"] };

/** The server's graph is core's, the one `turnlens test --watch` uses. */
export { DependencyGraph as ModuleGraph } from "../core/execution/dependencyGraph.ts";

/**
 * Whether one of the test file's relative import specifiers (as written: `./workflow`,
 * `../lib/agents.js`, `./steps/index.ts`) may name `file`. No disk is read: the specifier's
 * possible files are compared with the path, so a file that does not exist yet (and is created
 * next) counts too.
 */
export function importsDirectly(testFile: string, specifiers: Iterable<string>, file: string): boolean {
  for (const specifier of specifiers) {
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) continue;
    if (candidatesOf(resolve(dirname(testFile), specifier)).includes(file)) return true;
  }
  return false;
}

function candidatesOf(base: string): string[] {
  const extension = extname(base);
  const candidates = [base];
  for (const typescript of TYPESCRIPT_FOR[extension] ?? []) candidates.push(base.slice(0, -extension.length) + typescript);
  for (const implied of IMPLIED_EXTENSIONS) candidates.push(base + implied, `${base}/index${implied}`);
  return candidates;
}
