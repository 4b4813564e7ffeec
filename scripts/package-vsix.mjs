// `npm run package` (after `npm run build`): turnlens-<version>.vsix with @vscode/vsce. vsce's
// --no-dependencies never packs node_modules/, so the files are staged in a temp folder first with
// the three node_modules pieces the extension needs at run time (see .vscodeignore), and packed there.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const out = join(root, `${manifest.name}-${manifest.version}.vsix`);
// esbuild's binary is per platform, so the .vsix is too: vsce's target names are node's platform-arch.
const target = `${process.platform}-${process.arch}`;
const esbuildBinary = `@esbuild/${target}`;

for (const needed of ["dist/server.js", "dist/worker.mjs", "dist/extension.js"])
  if (!existsSync(join(root, needed))) console.warn(`package-vsix: ${needed} is missing (run \`npm run build\`)`);

const stage = mkdtempSync(join(tmpdir(), "turnlens-vsix-"));
try {
  const copy = (path) => existsSync(join(root, path)) && cpSync(join(root, path), join(stage, path), { recursive: true, dereference: true });
  for (const path of [".vscodeignore", "README.md", "CHANGELOG.md", "LICENSE", "images/icon.png", "dist", "syntaxes"]) copy(path);
  copy("node_modules/esbuild/package.json");
  copy("node_modules/esbuild/LICENSE.md");
  copy("node_modules/esbuild/lib/main.js");
  copy(`node_modules/${esbuildBinary}`);
  const plugin = copy("node_modules/turnlens-typescript-plugin") !== false;
  // The staged manifest is the real one, plus the shipped packages as `dependencies` (vsce's npm mode
  // packs the production tree `npm list` reports), minus a `vscode:prepublish` (the build already ran).
  const staged = structuredClone(manifest);
  if (staged.scripts) delete staged.scripts["vscode:prepublish"];
  const version = (dir) => JSON.parse(readFileSync(join(root, "node_modules", dir, "package.json"), "utf8")).version;
  staged.dependencies = { ...staged.dependencies, esbuild: version("esbuild") };
  if (plugin) staged.dependencies["turnlens-typescript-plugin"] = version("turnlens-typescript-plugin");
  for (const name of Object.keys(staged.dependencies)) delete staged.devDependencies?.[name];
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(staged, null, 2)}\n`);

  const vsce = join(root, "node_modules/@vscode/vsce/vsce");
  const args = ["package", "--out", out, "--target", target, "--no-rewrite-relative-links"];
  if (!manifest.repository) args.push("--allow-missing-repository");
  // npm mode (not --no-dependencies): the stage's node_modules holds only the staged packages, so vsce
  // collects just them, and .vscodeignore picks their files.
  execFileSync(process.execPath, [vsce, ...args], { cwd: stage, stdio: "inherit" });
  const size = statSync(out).size;
  console.log(`${out.slice(root.length + 1)}: ${(size / 1024 / 1024).toFixed(2)} MiB (${size} bytes), target ${target}` +
    (plugin ? ", with the TypeScript plugin" : ", no node_modules/turnlens-typescript-plugin to include"));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
