// Which test files test a workflow: the project's test files (core's discovery, as `turnlens test`
// finds them) whose relative imports name the workflow's file, by a scan of their import
// specifiers. One function, so the module graph can answer it instead once it exists.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { discoverTests, type ProjectConfig } from "../../core/project/discover.ts";

const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"'\n]+)["']/g;
const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx"];

/** The files a relative specifier may name, as esbuild resolves it (a `.js` naming its `.ts`). */
function candidates(from: string, specifier: string): string[] {
  const base = resolve(dirname(from), specifier);
  const stripped = base.replace(/\.(m|c)?jsx?$/, "");
  return [base, ...SOURCE_EXTENSIONS.map((extension) => `${stripped}${extension}`), ...SOURCE_EXTENSIONS.map((extension) => `${base}/index${extension}`)];
}

/** Whether the test file's text imports `workflowFile` through a relative specifier. */
export function importsFile(testFile: string, text: string, workflowFile: string): boolean {
  for (const match of text.matchAll(IMPORT_SPECIFIER)) {
    const specifier = match[1];
    if (specifier !== undefined && candidates(testFile, specifier).includes(workflowFile)) return true;
  }
  return false;
}

/** Test files under `root` (its config's `include`, else all of it) that import `workflowFile`, sorted. */
export async function testFilesImporting(workflowFile: string, root: string, config: ProjectConfig | undefined): Promise<string[]> {
  const { files } = await discoverTests([], root, { config });
  return files.filter((file) => {
    try {
      return importsFile(file, readFileSync(file, "utf8"), workflowFile);
    } catch {
      return false;
    }
  });
}
