// The dependency invariants of ARCHITECTURE.md, checked on every source file's imports:
// core ← server ← extension, core knows nothing of LSP or VS Code, the extension sees only the protocol.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.ts$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => join(folder, file));
}

function importsOf(file: string): Array<{ specifier: string; target: string }> {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(IMPORT)].map((match) => {
    const specifier = (match[1] ?? match[2])!;
    const target = specifier.startsWith(".") ? relative(ROOT, resolve(join(ROOT, file, ".."), specifier)) : specifier;
    return { specifier, target };
  });
}

function offending(folder: string, refused: (target: string) => boolean): string[] {
  return sourceFiles(folder).flatMap((file) => importsOf(file).filter(({ target }) => refused(target)).map(({ specifier }) => `${file} imports ${specifier}`));
}

test("core imports nothing from the server, the extension, LSP or VS Code", () => {
  expect(offending("core", (target) => /^(server|extension)\//.test(target) || /^vscode(-languageserver|-languageclient|$)/.test(target))).toEqual([]);
});

test("the server imports nothing from the extension and never VS Code itself", () => {
  expect(offending("server", (target) => target.startsWith("extension/") || target === "vscode" || target.startsWith("vscode-languageclient"))).toEqual([]);
});

test("the extension imports from the server only its protocol, and nothing from core", () => {
  expect(offending("extension", (target) => (target.startsWith("server/") && target !== "server/protocol.ts") || target.startsWith("core/"))).toEqual([]);
});

test("the check sees imports at all, so an empty answer means something", () => {
  expect(importsOf("server/server.ts").length).toBeGreaterThan(3);
  expect(importsOf("extension/main.ts").some(({ target }) => target === "extension/commands.ts")).toBe(true);
});
