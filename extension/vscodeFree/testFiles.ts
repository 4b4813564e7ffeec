// Which files are Turnlens test files: the names `turnlens test` runs (until the server, which
// applies the project's config, lists them: `turnlens/testFiles`), and, to activate only where
// Turnlens is used, whether a file imports its testing module. No `vscode` import: unit-tested.

/** The names `turnlens test` runs (core/project/discover.ts), as a VS Code glob. */
export const TEST_FILE_GLOB = "**/*.{test,spec}.{ts,mts,cts,tsx,js,mjs,cjs,jsx}";
/**
 * The files the language server is sent (opened, edited, saved): test files, and the workflows and
 * helpers they import, whose unsaved text is what the tests run and where the server shows what the
 * tests did.
 */
export const SOURCE_FILE_GLOB = "**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}";

/** Folders neither the runner nor the extension searches. */
export const SKIPPED_FOLDERS_GLOB = "**/{node_modules,dist,.*}/**";

const TEST_FILE = /\.(test|spec)\.(ts|mts|cts|tsx|js|mjs|cjs|jsx)$/;

/** Whether a path (or a uri's path) names a test file. */
export function isTestFileName(path: string): boolean {
  return TEST_FILE.test(path);
}

// `import … from "agentswf/testing"`, `import "turnlens/testing"`, `import("…")`, `require("…")`.
const IMPORTS_TESTING = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](?:agentswf|turnlens)\/testing["']/;

/** Whether a test file's text imports Turnlens's testing module under either of its names. */
export function importsTurnlens(text: string): boolean {
  return IMPORTS_TESTING.test(text);
}

/**
 * The files to take out of the tree when the server lists the workspace's test files (its config's
 * include/exclude applied): those in the tree it no longer lists, except an open one, which the
 * server still runs (and sends the tree of) while it is open. Uris as VS Code writes them.
 */
export function filesNoLongerListed(inTree: readonly string[], listed: readonly string[], open: ReadonlySet<string>): string[] {
  const kept = new Set(listed);
  return inTree.filter((uri) => !kept.has(uri) && !open.has(uri));
}
