// Builds dist/ with esbuild: the CLI, its worker, and the public modules. `splitting` keeps the
// engine in one shared chunk, so the runner and the modules it serves to tests are one instance.
// The language server is a second, self-contained CommonJS bundle (dist/server.js) that forks the
// same dist/worker.mjs to run tests.
import { build } from "esbuild";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

const entryPoints = {
  // The command's entry: forks `turnlens test`'s first worker, then loads the CLI (dist/cliMain.js, below).
  cli: "core/runner/cliStart.ts",
  // The worker's entry: a few lines that load dist/workerMain.js (below) through a V8 code cache.
  worker: "core/execution/workerStart.ts",
  workflow: "core/workflow/index.ts",
  testing: "core/testing/index.ts",
  client: "core/client/index.ts",
  trace: "core/testing/trace.ts",
  // `turnlens/config`: defineConfig for turnlens.config.ts (the CLI serves its own copy to a config file).
  config: "core/project/config.ts",
  // The Vitest plugin (docs/vitest.md) and the `bun:test` it serves, which imports Vitest's API.
  vitest: "core/vitest/plugin.ts",
  "vitest-bun-test": "core/vitest/bunTest.ts",
  // TypeBox as the plugin serves it: the engine's own copy (one shared chunk), so a test needs
  // no TypeBox of its own, as under `turnlens test`.
  ...Object.fromEntries(
    ["", "/value", "/compile", "/type", "/schema", "/guard", "/format", "/system", "/error"].map((sub) => [`served/typebox${sub.replace("/", "-")}`, `typebox${sub}`]),
  ),
};

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints,
  outdir: "dist",
  bundle: true,
  splitting: true,
  platform: "node",
  target: "node20",
  format: "esm",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: "linked",
  // esbuild runs its own native binary, so it stays a package import; vitest (and the vite it
  // runs on) are the user's own, a peer of the plugin, never bundled.
  // istanbul-reports reads its html assets from its own folder at run time: the coverage reports
  // (core/coverage/lineCoverage.ts) stay package imports, installed with Turnlens.
  external: ["esbuild", "vitest", "vite", "istanbul-lib-coverage", "istanbul-lib-report", "istanbul-reports"],
  // Some dependencies (expect, jest-mock) are CommonJS: they require node builtins and read __dirname.
  banner: {
    js: [
      'import { createRequire as __createRequire } from "node:module";',
      'import { fileURLToPath as __fileURLToPath } from "node:url";',
      "const require = __createRequire(import.meta.url);",
      "const __filename = __fileURLToPath(import.meta.url);",
      'const __dirname = __fileURLToPath(new URL(".", import.meta.url));',
    ].join(" "),
  },
  logLevel: "warning",
});

/**
 * A CommonJS bundle its ES module entry runs through a V8 code cache (core/execution/codeCache.ts),
 * which Node 20 has for a script, not for ES modules. No source map: its frames are Turnlens's own,
 * never a user's (stack.ts), and Node would read and parse the map at every start.
 */
async function codeCachedBundle(entryPoints, external) {
  await build({
    entryPoints,
    outdir: "dist",
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external,
    // paths.ts finds Turnlens's install from its own file, here dist/<the bundle>.js.
    define: { "import.meta.url": "__turnlensModuleUrl" },
    // "use strict" first: esbuild writes it for the ES modules it bundles, but after a banner it is no
    // longer a directive, and the served code (@vitest/spy's mocks, chai) would run sloppy: `this` in a
    // plain call of a vi.fn() would be globalThis where Vitest gives undefined.
    banner: { js: '"use strict";\nconst __turnlensModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "warning",
  });
  for (const name of Object.keys(entryPoints)) asciiOnly(`dist/${name}.js`);
}

/**
 * Rewrites the non-ASCII characters left in a bundle as `\uXXXX`. esbuild escapes them in strings,
 * regular expressions and names, not in the comments it keeps (`…`, `—`), and one such character
 * had codeCache.ts decode the whole file as UTF-8 into a two-byte string, where an ASCII file is
 * copied as Latin-1: ~13 ms more for each worker's start (issue 29). In a comment the escape is
 * text; in a string, a regular expression or a name (should esbuild ever leave one there) it is the
 * same UTF-16 unit.
 */
function asciiOnly(file) {
  const text = readFileSync(file, "utf8");
  const ascii = text.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

// The worker itself (core/execution/worker.ts) and every module it serves to test files: dist/worker.mjs runs it.
await codeCachedBundle({ workerMain: "core/execution/worker.ts" }, ["esbuild"]);

// The CLI itself (core/runner/cli.ts: the command line, the pool, the reporters, and the engine that
// `turnlens record` replays a run on): dist/cli.mjs forks the first worker, then runs it. Node 20
// compiled the CLI's ~1 MB of ES modules at every command, ~250 ms before it began.
await codeCachedBundle({ cliMain: "core/runner/cli.ts" }, ["esbuild", "vitest", "vite", "istanbul-lib-coverage", "istanbul-lib-report", "istanbul-reports"]);

// The process a script turnlens.config.ts runs in (core/project/configProcess.ts, forked by
// configLoader.ts from the CLI and the language server): one small self-contained file, so a
// config's process starts without loading the engine.
await build({
  entryPoints: { configProcess: "core/project/configProcess.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  outExtension: { ".js": ".mjs" },
  external: ["esbuild"],
  logLevel: "warning",
});

// The language server: everything bundled (vscode-languageserver, the TypeScript compiler for the
// static pass), so an editor starts it with `node dist/server.js --stdio` and nothing installed.
const serverBuild = await build({
  // dist/server.js is the small entry (server/start.ts) that forks a worker, then loads the server
  // (dist/serverMain.js, whose first module warms that worker) through the code cache: only the entry
  // is compiled without it, so it holds as little as it can.
  entryPoints: { server: "server/start.ts", serverMain: "server/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  // A script turnlens.config.ts is bundled by esbuild (core/project/configFile.ts), which the .vsix ships.
  external: ["esbuild"],
  // core's worker pool finds Turnlens's install from its own file, in this bundle too.
  define: { "import.meta.url": "__turnlensModuleUrl" },
  banner: { js: 'const __turnlensModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  sourcemap: "linked",
  // The TypeScript compiler is not in it: server/analysis/lazyTypescript.ts stands in for
  // server/analysis/typescript.ts and loads dist/serverTypescript.js (below) on first use, so the
  // server answers `initialize` and starts a document's first run without loading 9 MB it does not need yet.
  plugins: [
    {
      name: "lazy-typescript",
      setup(build) {
        const source = resolve("server/analysis/typescript.ts");
        build.onResolve({ filter: /typescript\.ts$/ }, (args) =>
          resolve(args.resolveDir, args.path) === source ? { path: resolve("server/analysis/lazyTypescript.ts") } : undefined,
        );
      },
    },
  ],
  metafile: true,
  logLevel: "warning",
});
// Loaded through the code cache too (its non-ASCII characters are in lines that are comments alone, so its map still holds).
asciiOnly("dist/serverMain.js");
// An import of the compiler that bypassed typescript.ts would put the 9 MB back on every start.
for (const [output, { inputs }] of Object.entries(serverBuild.metafile.outputs))
  if (Object.keys(inputs).some((input) => input.includes("node_modules/typescript/")))
    throw new Error(`build: ${output} holds the TypeScript compiler (import it through server/analysis/typescript.ts)`);

// The compiler the server's static pass loads on first use (server/analysis/lazyTypescript.ts), on its own.
// Minified (9.1 MB → 3.6 MB): reading it, checking it is ASCII and making it a string were ~90 ms of
// the ~250 a start spends loading it (through the code cache), on the server's one thread, before
// the first document's static pass can run (issue 29, P4). Its frames are never a user's.
await build({
  entryPoints: { serverTypescript: "typescript" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  minify: true,
  logLevel: "warning",
});

// The VS Code client (docs/vscode-extension.md): one CommonJS bundle with vscode-languageclient
// inside; `vscode` is the editor's own module. It forks dist/server.js over node IPC.
await build({
  entryPoints: { extension: "extension/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  external: ["vscode"],
  sourcemap: "linked",
  logLevel: "warning",
});

// The Vitest plugin's declarations (package.json's "./vitest" types): one self-contained file.
{
  const ts = (await import("typescript")).default;
  const { readFileSync, writeFileSync } = await import("node:fs");
  const source = "core/vitest/plugin.ts";
  const emitted = ts.transpileDeclaration(readFileSync(source, "utf8"), {
    fileName: source,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, allowImportingTsExtensions: true },
  });
  if (emitted.diagnostics?.length) {
    throw new Error(`${source}: ${emitted.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ")}`);
  }
  writeFileSync("dist/vitest.d.mts", `// The types of turnlens/vitest, from ${source} (generated by build.mjs).\n${emitted.outputText}`);
}

// ---------------------------------------------------------------------------------------------
// Types in the editor (docs/types-in-the-editor.md): the TypeScript server plugin, and the
// declarations of the served modules it (and `turnlens init`'s tsconfig paths) resolve to.
await buildEditorTypes();

async function buildEditorTypes() {
  const { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } = await import("node:fs");
  const { createHash } = await import("node:crypto");
  const { dirname, join, relative, resolve, sep } = await import("node:path");
  const served = JSON.parse(readFileSync("core/execution/servedTypes.json", "utf8"));

  // 1. The plugin: a CommonJS bundle that takes `typescript` from tsserver, never bundles it.
  await build({
    entryPoints: { index: "tsPlugin/index.ts" },
    outdir: "dist/tsPlugin",
    bundle: true,
    platform: "node",
    target: "node18",
    format: "cjs",
    external: ["typescript"],
    // tsserver wants the factory itself as module.exports.
    footer: { js: "module.exports = module.exports.default;" },
    logLevel: "warning",
  });
  // tsserver loads a plugin by package name from <extension>/node_modules, so the extension
  // ships this folder (the .vsix includes node_modules/turnlens-typescript-plugin/**).
  const pluginPackage = join("node_modules", "turnlens-typescript-plugin");
  mkdirSync(pluginPackage, { recursive: true });
  const version = JSON.parse(readFileSync("package.json", "utf8")).version;
  writeFileSync(
    join(pluginPackage, "package.json"),
    `${JSON.stringify({ name: "turnlens-typescript-plugin", version, private: true, main: "index.js", license: "MIT" }, null, 2)}\n`,
  );
  writeFileSync(
    join(pluginPackage, "index.js"),
    '// Generated by build.mjs: the Turnlens TypeScript server plugin lives in dist/tsPlugin.\nmodule.exports = require("../../dist/tsPlugin/index.js");\n',
  );

  // 2. The declarations. Declaration emit without type checking (`noCheck`) takes a few seconds,
  // so the result is cached by the hash of everything it reads.
  const ts = (await import("typescript")).default;
  const out = "dist/types";
  const hash = createHash("sha256");
  const hashTree = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) hashTree(path);
      else if (/\.(ts|json)$/.test(entry.name)) hash.update(path).update(readFileSync(path));
    }
  };
  hashTree("core");
  for (const file of ["package-lock.json", "tsconfig.json"]) if (existsSync(file)) hash.update(readFileSync(file));
  hash.update(ts.version).update(String(buildEditorTypes));
  const cache = join("node_modules", ".cache", "turnlens-types", hash.digest("hex").slice(0, 16));
  if (existsSync(join(cache, "done"))) {
    cpSync(join(cache, "types"), out, { recursive: true });
    return;
  }

  const parsed = ts.getParsedCommandLineOfConfigFile(
    "tsconfig.json",
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  const sources = [...new Set(Object.values(served.modules).map((m) => `${m.from}.ts`))];
  const program = ts.createProgram(sources, {
    ...parsed.options,
    paths: undefined,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    noCheck: true,
    rootDir: ".",
    outDir: out,
  });
  // Relative `./x.ts` specifiers become `./x.js`, which every resolution mode maps to `./x.d.ts`.
  const emitted = [];
  const result = program.emit(undefined, (file, text) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text.replace(/((?:from|import)\s*\(?\s*["']\.{1,2}\/[^"']*)\.ts(["'])/g, "$1.js$2"));
    emitted.push(resolve(file));
  });
  if (result.emitSkipped) {
    throw new Error(`declaration emit failed:\n${ts.formatDiagnostics(result.diagnostics, ts.createCompilerHost({}))}`);
  }

  // One small file per served name, re-exporting Turnlens's declarations.
  const entries = [];
  for (const [name, { file, from }] of Object.entries(served.modules)) {
    const path = join(out, file);
    mkdirSync(dirname(path), { recursive: true });
    let target = relative(dirname(path), join(out, from)).split(sep).join("/");
    if (!target.startsWith(".")) target = `./${target}`;
    writeFileSync(path, `// "${name}" as Turnlens serves it to test files (generated by build.mjs).\nexport * from "${target}.js";\n`);
    entries.push(resolve(path));
  }

  // The packages those declarations import (typebox, expect, jest-mock and theirs): every
  // declaration file reachable from them in any resolution mode, copied into
  // dist/types/node_modules with its package.json, so the folder stands alone (a packaged
  // extension ships dist/ only). Node's own types stay the user's business.
  // Its real path: TypeScript resolves to real paths, and node_modules may be a symlink (a worktree's).
  const modulesRoot = realpathSync("node_modules") + sep;
  const copied = new Set();
  const queue = [...entries, ...emitted];
  const seen = new Set(queue);
  const modes = [
    { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.Preserve, mode: undefined },
    { moduleResolution: ts.ModuleResolutionKind.NodeNext, module: ts.ModuleKind.NodeNext, mode: ts.ModuleKind.ESNext },
    { moduleResolution: ts.ModuleResolutionKind.NodeNext, module: ts.ModuleKind.NodeNext, mode: ts.ModuleKind.CommonJS },
    { moduleResolution: ts.ModuleResolutionKind.Node10, module: ts.ModuleKind.CommonJS, mode: undefined },
  ];
  const isNodeTypes = (spec) => spec === "node" || spec.startsWith("node:") || /^(undici-types|@types\/node)(\/|$)/.test(spec);
  // The served packages' own entry points (typebox/value ...), whether or not Turnlens's
  // declarations reach them.
  const packageSpecs = [];
  for (const name of new Set(Object.keys(served.packages).map((p) => p.replace(/\/\*$/, "")))) {
    const exports = JSON.parse(readFileSync(join("node_modules", name, "package.json"), "utf8")).exports ?? { ".": "" };
    for (const key of Object.keys(exports)) if (key !== "./package.json" && !key.includes("*")) packageSpecs.push(join(name, key));
  }
  const seed = resolve("build.mjs");
  queue.push(seed);
  while (queue.length > 0) {
    const file = queue.shift();
    const text = file === seed ? "" : readFileSync(file, "utf8");
    const info = ts.preProcessFile(text, true, true);
    const specs = [...info.importedFiles, ...info.typeReferenceDirectives].map((ref) => ref.fileName);
    // preProcessFile does not see `export * as X from "..."`.
    for (const m of text.matchAll(/export\s*\*\s*as\s+[\w$]+\s+from\s*["']([^"']+)["']/g)) specs.push(m[1]);
    if (file === seed) specs.push(...packageSpecs);
    for (const spec of specs.filter((s) => !isNodeTypes(s))) {
      for (const { mode, ...options } of modes) {
        const resolved = ts.resolveModuleName(spec, file, { ...options, types: [] }, ts.sys, undefined, undefined, mode).resolvedModule;
        if (!resolved) continue;
        const target = resolve(resolved.resolvedFileName);
        if (seen.has(target)) continue;
        seen.add(target);
        if (target.startsWith(modulesRoot)) copied.add(target);
        queue.push(target);
      }
    }
  }
  const packageJsons = new Set();
  for (const file of copied) {
    const rel = file.slice(modulesRoot.length);
    const parts = rel.split(sep);
    const depth = parts.lastIndexOf("node_modules") + 1;
    const nameLength = parts[depth].startsWith("@") ? 2 : 1;
    packageJsons.add(
      parts
        .slice(0, depth + nameLength)
        .concat("package.json")
        .join(sep),
    );
    const dest = join(out, "node_modules", rel);
    mkdirSync(dirname(dest), { recursive: true });
    cpSync(file, dest);
  }
  for (const pkg of packageJsons) {
    cpSync(join(modulesRoot, pkg), join(out, "node_modules", pkg));
    // The copies keep their licence.
    const pkgDir = dirname(pkg);
    for (const name of readdirSync(join(modulesRoot, pkgDir))) {
      if (/^(licen[sc]e|copying)(\.(md|txt))?$/i.test(name)) cpSync(join(modulesRoot, pkgDir, name), join(out, "node_modules", pkgDir, name));
    }
  }
  for (const [name, file] of Object.entries(served.packages)) {
    const probe = join(out, file.replace("*", "value"));
    if (!existsSync(probe)) throw new Error(`${name}: ${probe} was not copied into ${out}`);
  }

  mkdirSync(cache, { recursive: true });
  cpSync(out, join(cache, "types"), { recursive: true });
  writeFileSync(join(cache, "done"), "");
}
