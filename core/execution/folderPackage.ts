// `import "../pkg"` of a folder whose package.json has "exports": Node refuses a folder import and
// esbuild reads only "main"/"module" there, but Vite resolves it as the package, by its exports
// under Node's conditions, so a Vitest user's import works. This finds that entry.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** The conditions a test under Node matches (Vite's for SSR), never "browser" or "types". */
const CONDITIONS = new Set(["node", "import", "module", "default"]);

function entryOf(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (Array.isArray(exports)) {
    for (const one of exports) {
      const found = entryOf(one);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof exports !== "object" || exports === null) return undefined;
  const map = exports as Record<string, unknown>;
  if ("." in map) return entryOf(map["."]);
  // The first condition, in the package's own order, that a Node test matches.
  for (const [condition, target] of Object.entries(map)) {
    if (!CONDITIONS.has(condition)) continue;
    const found = entryOf(target);
    if (found) return found;
  }
  return undefined;
}

/** The file `folder`'s package.json exports as its main entry (relative, "./…"), or undefined. */
export async function folderPackageEntry(folder: string): Promise<string | undefined> {
  let manifest: { exports?: unknown };
  try {
    manifest = JSON.parse(await readFile(join(folder, "package.json"), "utf8")) as { exports?: unknown };
  } catch {
    return undefined;
  }
  const entry = entryOf(manifest.exports);
  return entry?.startsWith("./") ? entry : undefined;
}
