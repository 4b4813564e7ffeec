// `npm run package` (this machine's platform) and `npm run package:all` (the five below), after
// `npm run build`: turnlens-<target>-<version>.vsix with @vscode/vsce, one per target, each carrying
// that platform's esbuild binary. npm ships each binary as @esbuild/<target> at esbuild's version;
// `npm ci` installs only this machine's, so the others are fetched with `npm pack` into a cache folder
// (node_modules/.cache/turnlens-vsix/). vsce's --no-dependencies never packs node_modules/, so the
// files are staged in a temp folder with the node_modules pieces the extension needs at run time
// (see .vscodeignore), and packed there. Usage: package-vsix.mjs [--all | --target <t>]...
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** vsce's target names are node's platform-arch, as are esbuild's binary packages. */
export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];
const root = resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const esbuildVersion = JSON.parse(readFileSync(join(root, "node_modules/esbuild/package.json"), "utf8")).version;
const cache = join(root, "node_modules/.cache/turnlens-vsix");

/** Where each target's .vsix is written. */
export const vsixPath = (target) => join(root, `${manifest.name}-${target}-${manifest.version}.vsix`);

/** The folder holding @esbuild/<target> at esbuild's version: node_modules/ when npm installed it here, else the cache. */
function esbuildBinaryPackage(target) {
  const installed = join(root, "node_modules/@esbuild", target);
  if (existsSync(join(installed, "package.json")) && JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version === esbuildVersion) return installed;
  const unpacked = join(cache, `esbuild-${target}-${esbuildVersion}`);
  if (existsSync(join(unpacked, "package.json"))) return unpacked;
  mkdirSync(cache, { recursive: true });
  console.log(`package-vsix: npm pack @esbuild/${target}@${esbuildVersion}`);
  const tarball = execFileSync("npm", ["pack", `@esbuild/${target}@${esbuildVersion}`, "--pack-destination", cache, "--silent"], { cwd: cache, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  const partial = `${unpacked}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  // npm's tarballs hold one `package/` folder.
  execFileSync("tar", ["-xzf", join(cache, tarball), "-C", partial, "--strip-components=1"]);
  rmSync(join(cache, tarball));
  cpSync(partial, unpacked, { recursive: true });
  rmSync(partial, { recursive: true, force: true });
  return unpacked;
}

/** The package's dependencies the .vsix carries whole (esbuild is staged piece by piece above). */
export function shippedDependencies() {
  return Object.keys(manifest.dependencies).filter((name) => name !== "esbuild");
}

/** `names` and every package they depend on, transitively, as installed at node_modules/'s top. */
export function runtimePackages(names) {
  const found = new Set();
  const visit = (name) => {
    if (found.has(name)) return;
    found.add(name);
    const manifestOf = JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8"));
    for (const dependency of Object.keys(manifestOf.dependencies ?? {})) visit(dependency);
  };
  for (const name of names) visit(name);
  return [...found].sort();
}

function packageTarget(target) {
  const out = vsixPath(target);
  const binary = esbuildBinaryPackage(target);
  const stage = mkdtempSync(join(tmpdir(), "turnlens-vsix-"));
  try {
    const copy = (path, to = path) => existsSync(join(root, path)) && cpSync(join(root, path), join(stage, to), { recursive: true, dereference: true });
    for (const path of [".vscodeignore", "README.md", "CHANGELOG.md", "LICENSE", "images/icon.png", "dist", "syntaxes"]) copy(path);
    copy("node_modules/esbuild/package.json");
    copy("node_modules/esbuild/LICENSE.md");
    copy("node_modules/esbuild/lib/main.js");
    cpSync(binary, join(stage, "node_modules/@esbuild", target), { recursive: true, dereference: true });
    const plugin = copy("node_modules/turnlens-typescript-plugin") !== false;
    // The CLI's coverage reports (istanbul-*, left out of the bundle: istanbul-reports loads its
    // reporters by name and reads its html assets from its own folder) and what they import.
    const reportPackages = runtimePackages(shippedDependencies());
    for (const name of reportPackages) copy(join("node_modules", name));
    // The staged manifest is the real one, plus the shipped packages as `dependencies` (vsce's npm mode
    // packs the production tree `npm list` reports), minus the scripts (the build already ran).
    const staged = structuredClone(manifest);
    delete staged.scripts;
    const version = (dir) => JSON.parse(readFileSync(join(root, "node_modules", dir, "package.json"), "utf8")).version;
    staged.dependencies = { esbuild: esbuildVersion };
    if (plugin) staged.dependencies["turnlens-typescript-plugin"] = version("turnlens-typescript-plugin");
    for (const name of reportPackages) staged.dependencies[name] = version(name);
    delete staged.devDependencies;
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(staged, null, 2)}\n`);

    const vsce = join(root, "node_modules/@vscode/vsce/vsce");
    // Relative links and images in the README become absolute ones into the repository (vsce's
    // default), as the Marketplace and Open VSX show them.
    const args = ["package", "--out", out, "--target", target];
    if (!manifest.repository) args.push("--allow-missing-repository", "--no-rewrite-relative-links");
    // npm mode (not --no-dependencies): the stage's node_modules holds only the staged packages, so vsce
    // collects just them, and .vscodeignore picks their files.
    execFileSync(process.execPath, [vsce, ...args], { cwd: stage, stdio: ["ignore", "ignore", "inherit"] });
    const size = statSync(out).size;
    console.log(
      `${out.slice(root.length + 1)}: ${(size / 1024 / 1024).toFixed(2)} MiB (${size} bytes), target ${target}, esbuild ${esbuildVersion}${plugin ? ", with the TypeScript plugin" : ", no node_modules/turnlens-typescript-plugin to include"}`,
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (resolve(process.argv[1] ?? "") === import.meta.filename) {
  const args = process.argv.slice(2);
  const targets = args.includes("--all") ? TARGETS : args.flatMap((arg, i) => (args[i - 1] === "--target" ? [arg] : []));
  if (targets.length === 0) targets.push(`${process.platform}-${process.arch}`);
  for (const target of targets) if (!TARGETS.includes(target)) throw new Error(`package-vsix: unknown target ${target} (one of ${TARGETS.join(", ")})`);
  for (const needed of ["dist/server.js", "dist/serverMain.js", "dist/serverTypescript.js", "dist/worker.mjs", "dist/workerMain.js", "dist/extension.js"])
    if (!existsSync(join(root, needed))) throw new Error(`package-vsix: ${needed} is missing (run \`npm run build\`)`);
  // Older names of this script's output would be mistaken for current ones.
  for (const file of readdirSync(root)) if (file === `${manifest.name}-${manifest.version}.vsix`) rmSync(join(root, file));
  for (const target of targets) packageTarget(target);
}
