// `__mocks__` folders: the file `vi.mock(path)` without a factory gives instead of an automock, found
// as Vitest finds it (@vitest/mocker's findMockRedirect): next to a project file, in
// `<dir>/__mocks__/<its name>`; for a package, a builtin or a name no module answers to, in
// `<root>/__mocks__/<name>` (any extension, or that folder's index file).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { findMockRedirect } from "@vitest/mocker/redirect";

/** The package a bare specifier names: `@scope/name` or `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Whether `specifier` is a package installed in a node_modules folder at or above `from`'s folder (even one linked from the project). */
function isInstalledPackage(specifier: string, from: string): boolean {
  if (/^[./]/.test(specifier)) return false;
  const name = packageName(specifier);
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", name))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * The `__mocks__` file of a mocked module, or undefined: `id` is where `specifier` resolved (`node:x`
 * for a builtin, the name itself for a module not found), `root` the project's folder.
 */
export function mockFolderFile(root: string, specifier: string, id: string, kind: "builtin" | "package" | "file" | "virtual", from: string): string | undefined {
  // Vitest's "external": a package (by its name, wherever its files are), a builtin (without `node:`), a name not found.
  let external: string | null = null;
  if (kind === "builtin") external = id.replace(/^node:/, "");
  else if (kind === "virtual" || kind === "package" || isInstalledPackage(specifier, from)) external = specifier.replace(/^\//, "");
  try {
    return findMockRedirect(root, id, external) ?? undefined;
  } catch {
    return undefined;
  }
}
