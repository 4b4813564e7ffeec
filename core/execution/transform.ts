// Turns one test file into an ES module Node can import: esbuild bundles the file and its relative
// imports; the names Turnlens serves become virtual modules that read the runner's own instances
// from a global registry; other packages stay external and resolve from the test file's folder.
import { build, type Message, type Metafile, type OnResolveArgs, type PartialMessage, type Plugin, transform } from "esbuild";
import { builtinModules } from "node:module";
import { noteReads } from "./fileSystemReach.ts";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { readBoundedSource, UnbundlableFile } from "./boundedSource.ts";
import type { ErrorReport } from "./report.ts";
import { loadServed, servedNames, servedSourceFiles } from "./served.ts";
import { replaceInCode } from "./codeOnly.ts";
import { keepLoneSurrogates } from "./loneSurrogates.ts";
import { spyableNamespaceImports } from "./spyableNamespaces.ts";
import { MissingImports } from "./missingImports.ts";
import { commonJsAsModule } from "./commonJsInModulePackage.ts";
import { importMetaResolveCall, runtimeImports } from "./dynamicImportCalls.ts";
import { folderPackageEntry } from "./folderPackage.ts";
import { MOCK_NAMESPACE, makesMockCalls, mocksModules, moduleMocksBundle, type ModuleMocksBundle, planModuleMocks } from "./moduleMocks.ts";
import { writeExclusively } from "../tempFolder/privateFolder.ts";
import { processTempFolder } from "../tempFolder/tempFiles.ts";
import { IMPORT_META_ENV_GLOBAL } from "../testApi/stubs.ts";
import { defineReplacements } from "./viteSettings.ts";
import { expandImportMetaGlob } from "./importMetaGlob.ts";
import { viteImportPlugins } from "./viteImports.ts";
import { failedOnUnresolvedPath, leftPathUnresolved } from "./unresolvedPaths.ts";

export interface BundleResult {
  /** The bundled module's text. */
  code: string;
  /** Served module names the file uses. */
  served: Set<string>;
  /** The absolute paths of the project files the bundle read, the entry first (see inputsOf). */
  inputs: string[];
}

/** The text to bundle in place of the disk's, by absolute path (an editor's open buffers). */
export type SourceOverlay = Readonly<Record<string, string>>;

export class BundleError extends Error {
  /** `inputs`: the project files esbuild had loaded when it failed, so a fix to any of them is seen. */
  constructor(
    readonly report: ErrorReport,
    readonly inputs: string[] = [],
  ) {
    super(report.message);
  }
}

/**
 * The project files the bundle of `entry` read: the entry and every file it reaches through the
 * imports esbuild followed, from the metafile (a file whose code was tree-shaken away was still
 * read, so the import graph is walked, not an output's byte counts). node_modules and the served
 * modules are external and never in it.
 */
function inputsOf(metafile: Metafile, entry: string, cwd: string): string[] {
  // The output names its entry as esbuild resolved it (symbolic links followed), which the inputs use.
  const output = Object.values(metafile.outputs).find((meta) => meta.entryPoint !== undefined);
  return inputsFrom(metafile, output?.entryPoint ?? entry, cwd);
}

function inputsFrom(metafile: Metafile, entry: string, cwd: string): string[] {
  const byPath = new Map(Object.entries(metafile.inputs).map(([key, input]) => [resolve(cwd, key), input]));
  const found = new Set<string>();
  const visit = (path: string) => {
    if (found.has(path)) return;
    const input = byPath.get(path);
    if (!input) return;
    found.add(path);
    for (const imported of input.imports) {
      if (!imported.external) visit(resolve(cwd, imported.path));
    }
  };
  visit(resolve(cwd, entry));
  // A mocked module's proxy is no file (moduleMocks.ts); the real module it loads is.
  return [...found].filter((path) => !path.includes(`${sep}node_modules${sep}`) && !path.includes(`${MOCK_NAMESPACE}:`));
}

const builtins = new Set(builtinModules);
function isBuiltin(name: string): boolean {
  return name.startsWith("node:") || builtins.has(name) || builtins.has(name.split("/")[0]!);
}

function loaderFor(file: string): "ts" | "tsx" | "js" | "jsx" {
  const ext = extname(file);
  if (ext === ".tsx") return "tsx";
  if (ext === ".jsx") return "jsx";
  if (ext === ".ts" || ext === ".mts" || ext === ".cts") return "ts";
  return "js";
}

/** `import.meta.url` and friends of the original file, since the bundle lives elsewhere. */
function rewriteImportMeta(text: string, file: string): string {
  if (!text.includes("import.meta")) return text;
  // In code only: a string or comment that says "import.meta.url" keeps saying it. `import.meta.resolve(`
  // matches with no key.
  return replaceInCode(text, /\bimport\.meta\.(?:(url|dirname|filename|dir|path|file|main)\b(?!\s*\()|resolve\s*\()/g, (_m, key: string | undefined) => {
    switch (key) {
      case "url":
        return JSON.stringify(pathToFileURL(file).href);
      case "dirname":
      case "dir":
        return JSON.stringify(dirname(file));
      case "filename":
      case "path":
        return JSON.stringify(file);
      case "file":
        return JSON.stringify(basename(file));
      case "main":
        return "false";
      default:
        // `import.meta.resolve(`: Node's would resolve from the bundle's folder (dynamicImportCalls.ts).
        return importMetaResolveCall(file);
    }
  });
}

function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function servedModuleSource(name: string, mod: Record<string, unknown>): string {
  const lines = [
    `const m = globalThis[Symbol.for("turnlens.modules")]?.[${JSON.stringify(name)}];`,
    `if (!m) throw new Error(${JSON.stringify(`turnlens: the served module "${name}" is not loaded in this process`)});`,
  ];
  let i = 0;
  for (const key of Object.keys(mod)) {
    if (key === "default" || !/^[A-Za-z_$][\w$]*$/.test(key)) continue;
    lines.push(`const _${i} = m[${JSON.stringify(key)}];`, `export { _${i} as ${key} };`);
    i++;
  }
  lines.push(`export default (m.default ?? m);`);
  return lines.join("\n");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Matches exactly the names Turnlens serves, so esbuild calls back for those alone. */
function servedNamesFilter(): RegExp {
  return new RegExp(`^(?:${servedNames.map(escapeRegExp).join("|")})$`);
}

/** Relative imports that may name one of Turnlens's own served source files (servedSourceFiles). */
const SERVED_SOURCE_FILTER = /^\.{1,2}\/.*(?:core\/(?:workflow|testing|client)\/index|core\/testing\/trace|core\/runner\/testApi)(?:\.ts)?$/;

const shims = new Map<string, Promise<string>>();
/** The served name of each shim written so far, by its URL. */
const shimNames = new Map<string, string>();
/**
 * The file URL of a module that re-exports the served module `name` from the registry. Written once
 * per worker process and imported by every bundle that uses it, so Node loads it once: a served
 * module is neither bundled into nor compiled with each test file.
 */
function servedShimUrl(name: string): Promise<string> {
  let url = shims.get(name);
  if (!url) {
    url = (async () => {
      const mod = await loadServed(name);
      // In the worker's own temporary folder, removed with it.
      const file = bundlePathFor(`served-${name.replace(/[^\w]+/g, "-")}`);
      await writeExclusively(file, servedModuleSource(name, mod));
      const href = pathToFileURL(file).href;
      shimNames.set(name, href);
      return href;
    })();
    shims.set(name, url);
    url.catch(() => shims.delete(name));
  }
  return url;
}

/**
 * `loaded` gathers every file the plugin loads, which names the inputs of a build that failed (it
 * has no metafile); a build that succeeds reads them from its metafile, per entry. `unchecked`,
 * when given, leaves out the callback for relative and absolute imports (unresolvedPaths.ts) and
 * gathers the absolute paths the plugin itself keeps external.
 */
function turnlensPlugin(
  entry: string | undefined,
  sources: SourceOverlay,
  served: Set<string>,
  missing: MissingImports,
  loaded?: Set<string>,
  mocks?: ModuleMocksBundle,
  unchecked?: Unchecked,
): Plugin {
  const servedFiles = servedSourceFiles();
  // An import that resolves to nothing: a module that throws when it runs (missingImports.ts).
  const standIn = async (args: OnResolveArgs, text: string) =>
    missing.stand(args, sources[args.importer] ?? (await readBoundedSource(args.importer, true).catch(() => undefined)) ?? "", text);
  return {
    name: "turnlens",
    setup(b) {
      missing.install(b);
      // The entry may exist only as an editor's text (`sources`): it resolves to itself, on disk or not.
      if (entry !== undefined) {
        b.onResolve({ filter: new RegExp(`^${escapeRegExp(entry)}$`) }, (args) => (args.kind === "entry-point" ? { path: entry } : undefined));
      }
      // Served names: the shim, loaded once per worker (the names are checked before any other rule).
      b.onResolve({ filter: servedNamesFilter() }, async (args) => {
        served.add(args.path);
        return { path: await servedShimUrl(args.path), external: true };
      });
      // A relative import of one of Turnlens's own served files gets the served instance.
      b.onResolve({ filter: SERVED_SOURCE_FILTER }, async (args) => {
        if (args.pluginData?.turnlensInner) return undefined;
        const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { turnlensInner: true } });
        const servedName = resolved.errors.length === 0 ? servedFiles.get(resolved.path) : undefined;
        if (!servedName) return undefined;
        served.add(servedName);
        return { path: await servedShimUrl(servedName), external: true };
      });
      // Bare names (packages, builtins, tsconfig path aliases); relative imports resolve natively.
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.turnlensInner) return undefined;
        if (args.kind === "entry-point") return undefined;
        const spec = args.path;
        if (isBuiltin(spec)) return { path: spec, external: true };
        const resolved = await b.resolve(spec, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { turnlensInner: true },
        });
        if (resolved.errors.length > 0) {
          const text = spec.startsWith("file:")
            ? `Cannot find module "${spec}"`
            : `Cannot find package "${packageName(spec)}": it is not installed in a node_modules folder next to the importing file or above it`;
          return args.importer ? standIn(args, text) : { errors: [{ text }] };
        }
        const servedName = servedFiles.get(resolved.path);
        if (servedName) {
          served.add(servedName);
          return { path: await servedShimUrl(servedName), external: true };
        }
        if (!resolved.path.includes(`${sep}node_modules${sep}`)) {
          // A tsconfig path alias to the user's own files: bundle it.
          return { path: resolved.path, namespace: resolved.namespace, sideEffects: resolved.sideEffects };
        }
        // An installed package: keep it external, at the exact file esbuild found next to the test.
        const path = args.kind === "require-call" ? resolved.path : pathToFileURL(resolved.path).href;
        unchecked?.kept.add(path);
        return { path, external: true };
      });
      // Without this callback (`unchecked`), esbuild resolves path imports itself, and a build that
      // cannot resolve one is made again with it (unresolvedPaths.ts).
      if (!unchecked) {
        // A relative or absolute path to no file: the same stand-in (esbuild resolves the rest itself).
        b.onResolve({ filter: /^\.{0,2}\// }, async (args) => {
          if (args.pluginData?.turnlensInner || args.kind === "entry-point" || !args.importer) return undefined;
          const inner = { kind: args.kind, importer: args.importer, pluginData: { turnlensInner: true } };
          const resolved = await b.resolve(args.path, { ...inner, resolveDir: args.resolveDir });
          if (resolved.errors.length === 0) return undefined;
          // "/src/a" names no file: it means the project's src/a, as under Vite (docs/vitest.md).
          const root = b.initialOptions.absWorkingDir ?? process.cwd();
          if (args.path.startsWith("/") && !args.path.startsWith("//")) {
            const fromRoot = await b.resolve(`.${args.path}`, { ...inner, resolveDir: root });
            if (fromRoot.errors.length === 0) return { path: fromRoot.path, namespace: fromRoot.namespace, sideEffects: fromRoot.sideEffects };
          }
          // A folder whose package.json has "exports": its entry, as Vite resolves it (folderPackage.ts).
          if (args.path.startsWith(".")) {
            const folder = resolve(args.resolveDir, args.path);
            const entry = await folderPackageEntry(folder);
            const found = entry && (await b.resolve(entry, { ...inner, resolveDir: folder }));
            if (found && found.errors.length === 0) return { path: found.path, namespace: found.namespace, sideEffects: found.sideEffects };
          }
          return standIn(args, `Cannot find module "${args.path}"`);
        });
      }

      b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        if (args.namespace !== "file") return undefined;
        loaded?.add(args.path);
        try {
          // A declaration file (a glob import may reach one) has no code to run.
          if (/\.d\.[cm]?ts$/.test(args.path)) return { contents: "", loader: "ts" };
          // An open buffer's text, saved or not, is what runs; the disk's is read within bounds.
          const text = sources[args.path] ?? (await readBoundedSource(args.path, true)) ?? "";
          const contents = spyableNamespaceImports(
            runtimeImports(args.path, rewriteImportMeta(await expandImportMetaGlob(commonJsAsModule(args.path, text), args.path), args.path)),
          );
          // A test file that mocks modules: its mocks hoisted above its imports (moduleMocks.ts).
          // Its own `import(name)` asks the mocks first too, as another module's does (moduleText).
          if (mocks?.rewrites(args.path))
            return {
              contents: await mocks.sourceText(args.path, mocks.moduleText(args.path, contents), loaderFor(args.path)),
              loader: "js",
              resolveDir: dirname(args.path),
            };
          return { contents: mocks ? mocks.moduleText(args.path, contents) : contents, loader: loaderFor(args.path), resolveDir: dirname(args.path) };
        } catch (error) {
          if (error instanceof UnbundlableFile) return unbundlable(args.path, error);
          throw error;
        }
      });
      // Any other file (JSON, text) esbuild reads itself, once it is known to be a regular file within the cap.
      b.onLoad({ filter: /.*/ }, async (args) => {
        if (args.namespace !== "file" || sources[args.path] !== undefined) return undefined;
        try {
          await readBoundedSource(args.path, false);
          return undefined;
        } catch (error) {
          if (error instanceof UnbundlableFile) return unbundlable(args.path, error);
          throw error;
        }
      });
    },
  };
}

/** The error of a file the bundle refuses to read; describeMessage names the import that reached it. */
function unbundlable(path: string, error: UnbundlableFile): { errors: PartialMessage[] } {
  const detail: UnbundlableDetail = { unbundlablePath: path, why: error.why };
  return { errors: [{ text: `${path} ${error.why}`, detail }] };
}

interface UnbundlableDetail {
  unbundlablePath: string;
  why: string;
}

function unbundlableDetail(message: Message): UnbundlableDetail | undefined {
  const detail = message.detail as Partial<UnbundlableDetail> | undefined;
  return typeof detail?.unbundlablePath === "string" && typeof detail.why === "string" ? (detail as UnbundlableDetail) : undefined;
}

/** Starts esbuild's service process now (a worker does at start), so the first bundle does not wait for it. */
export function startBundler(): void {
  transform("", { loader: "js" }).catch(() => {
    // The first bundle reports whatever is wrong with esbuild.
  });
}

let counter = 0;
/** A fresh path for the bundle of `file`, in this process's private temporary folder (tempFiles.ts). */
export function bundlePathFor(file: string): string {
  return join(processTempFolder(), `${basename(file)}.bundle.${++counter}.mjs`);
}

function codeFrame(message: Message): string | undefined {
  const loc = message.location;
  if (!loc?.lineText) return undefined;
  const gutter = String(loc.line);
  const pad = " ".repeat(gutter.length);
  const caret = " ".repeat(loc.column) + "^".repeat(Math.max(1, Math.min(loc.length || 1, loc.lineText.length - loc.column)));
  return `${gutter} | ${loc.lineText}\n${pad} | ${caret}`;
}

/** esbuild's own words for a relative import it could not resolve, in the runner's words. */
function runnerText(m: Message): string {
  const unresolved = /^Could not resolve "([^"]*)"$/.exec(m.text);
  if (unresolved && /^(\.{1,2}\/|\/)/.test(unresolved[1] ?? "")) return `Cannot find module "${unresolved[1]}"`;
  return m.text;
}

function describeMessage(original: Message, cwd: string): string {
  const refused = unbundlableDetail(original);
  const loc = original.location;
  if (refused && loc) {
    // Where the import is, what it names, and what the file it resolved to is.
    const spec = loc.lineText.slice(loc.column, loc.column + loc.length) || JSON.stringify(refused.unbundlablePath);
    return `${resolve(cwd, loc.file)}:${loc.line}:${loc.column + 1} imports ${spec} (${refused.unbundlablePath}), which ${refused.why}`;
  }
  const m = { ...original, text: runnerText(original) };
  if (!m.location || !/^Cannot find (module|package)/.test(m.text)) return m.text;
  // Name the importing file and line in the message itself, not only in the location.
  const at = `${resolve(cwd, m.location.file)}:${m.location.line}:${m.location.column + 1}`;
  return m.text.replace(/^(Cannot find (?:module|package) "[^"]*")/, `$1 imported at ${at}`);
}

function bundleErrorReport(messages: Message[], cwd: string): ErrorReport {
  const first = messages[0];
  if (!first) return { message: "esbuild could not bundle the file" };
  const report: ErrorReport = { message: describeMessage(first, cwd) };
  if (first.location) {
    const file = resolve(cwd, first.location.file);
    report.location = { file, line: first.location.line, column: first.location.column + 1 };
  }
  const frame = codeFrame(first);
  if (frame) report.codeFrame = frame;
  if (messages.length > 1) {
    const more = messages.slice(1, 4).map((m) => {
      if (unbundlableDetail(m) || /^Cannot find (module|package)/.test(runnerText(m))) return describeMessage(m, cwd);
      const loc = m.location ? `${resolve(cwd, m.location.file)}:${m.location.line}:${m.location.column + 1}: ` : "";
      return `${loc}${m.text}`;
    });
    report.message += `\n${more.join("\n")}${messages.length > 4 ? `\n(and ${messages.length - 4} more errors)` : ""}`;
  }
  return report;
}

/** What a build made without the path-import callback notes: the paths the plugin kept external. */
interface Unchecked {
  kept: Set<string>;
}

/**
 * `attempt`'s build without the plugin's callback for relative and absolute imports, or, when that
 * build left one unresolved, its build with it (unresolvedPaths.ts): the callback is a round trip
 * to esbuild's process for every such import, and its answer matters only for one that names no file.
 */
async function buildCheckingPathsIfNeeded<R extends { metafile: Metafile }>(attempt: (unchecked?: Unchecked) => Promise<R>): Promise<R> {
  const unchecked: Unchecked = { kept: new Set() };
  let result: R;
  try {
    result = await attempt(unchecked);
  } catch (error) {
    if (failedOnUnresolvedPath(error)) return attempt();
    throw error;
  }
  return leftPathUnresolved(result.metafile, unchecked.kept) ? attempt() : result;
}

/** A bundle made ahead of its run: where it is to be written, and what it is. */
export interface AheadBundle extends BundleResult {
  outfile: string;
}

// Stand-ins in the banner of a build of many files, replaced in each output by its own file's.
const FILE_TOKEN = '"__turnlens_ahead_file__"';
const DIR_TOKEN = '"__turnlens_ahead_dir__"';
const URL_TOKEN = '"__turnlens_ahead_url__"';
/** The bundles made ahead, in the order the pool promised their runs. */
const ahead: Array<{ file: string; keepAllCode: boolean; bundle: Promise<AheadBundle | undefined> }> = [];

/** How every test file is bundled, alone or ahead with others: ESM for Node 20, maps inline, in memory. */
/** The config's setup files (absolute): each bundle runs them first, with esbuild's `inject` (useSetupFiles). */
let setupFiles: string[] = [];

/** Sets the files every bundle made from now on runs before the test file's own code (the config's `setupFiles`). */
export function useSetupFiles(files: readonly string[]): void {
  setupFiles = [...files];
}

/** The setup files' texts (an editor's buffer first), read for their mock calls; one that cannot be read is left to esbuild to report. */
async function setupTexts(overlay: SourceOverlay): Promise<Array<{ file: string; text: string }>> {
  const files = setupFiles;
  const texts = await Promise.all(
    files.map((file) => (overlay[file] !== undefined ? Promise.resolve(overlay[file]) : readBoundedSource(file, true).catch(() => undefined))),
  );
  return files.flatMap((file, index) => (typeof texts[index] === "string" ? [{ file, text: texts[index] }] : []));
}

/**
 * A line-coverage run keeps every statement of the files a bundle reads: esbuild's tree shaking
 * drops a function no test imports, which would then count neither as run nor as missed.
 */
let keepAllCode = false;

/** Sets whether the bundles made from now on are for line coverage (v8Coverage.ts). */
export function useCoverageBundles(on: boolean): void {
  keepAllCode = on;
}

/** What a bundled file's `import.meta.env` is: Vitest's proxy over process.env, which the worker installs (stubs.ts). */
const IMPORT_META_ENV = `globalThis.${IMPORT_META_ENV_GLOBAL}`;

// Vite's extensions too (.mjs, .mts, .cjs, .cts), after esbuild's own: `import "./module"` finds module.mjs.
const RESOLVE_EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".css", ".json", ".mjs", ".mts", ".cjs", ".cts"];

/**
 * The maps carry no sources' text (`sourcesContent`) except in a coverage run, whose converter
 * reads it (v8Coverage.ts): Node maps a stack frame from the mappings alone, and the text was 70%
 * of a bundle's map (a test file of ten tests and its workflow: a 16 KB bundle, 10 KB without),
 * carried from esbuild, written, read, decoded and kept in Node's source-map cache for every file.
 */
const TEST_BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "inline",
  write: false,
  logLevel: "silent",
} as const;

/** What every build of test code shares, a line-coverage run's (keepAllCode) included. */
function testBundleOptions() {
  return { ...TEST_BUNDLE_OPTIONS, resolveExtensions: RESOLVE_EXTENSIONS, treeShaking: !keepAllCode, sourcesContent: keepAllCode };
}

/**
 * Starts bundling `files` (on disk, not yet run) in one esbuild build, for the runs the pool will
 * send this worker next: one build of many entries costs esbuild and the plugin far less than a
 * build per file (16 files: about 2 ms a file instead of 7). Each entry is still its own bundle,
 * with its own copies of its modules. A build that fails (one file's syntax error fails them all)
 * yields nothing, and each file is then bundled alone when it runs, with its own error.
 */
export function bundleAhead(files: readonly string[]): void {
  const wanted = [...new Set(files)].filter((file) => !ahead.some((made) => made.file === file));
  if (wanted.length === 0) return;
  let outfiles: Map<string, string>;
  try {
    outfiles = new Map(wanted.map((file) => [file, bundlePathFor(file)]));
  } catch {
    // No temporary folder (tempFiles.ts): each file says why when it runs.
    return;
  }
  // The last build's (buildCheckingPathsIfNeeded may make two).
  let missing = new MissingImports();
  const cwd = process.cwd();
  // A file that mocks modules is bundled alone when it runs: its mocks route the imports of modules
  // this build would share between its entries (moduleMocks.ts). It gets no output here.
  // A setup file that mocks (vi.mock in the config's setupFiles) makes every file's bundle mock.
  const plain = setupTexts({}).then((setup) =>
    setup.some((one) => makesMockCalls(one.text))
      ? []
      : Promise.all(wanted.map((file) => mocksModules(file))).then((mocking) => wanted.filter((_file, index) => !mocking[index])),
  );
  const built = plain
    .then((entries) => {
      if (entries.length === 0) throw new Error("every file mocks modules");
      return buildCheckingPathsIfNeeded((unchecked) => {
        missing = new MissingImports();
        return build({
          entryPoints: entries.map((file) => ({ in: file, out: basename(outfiles.get(file) ?? file, ".mjs") })),
          outdir: processTempFolder(),
          outExtension: { ".js": ".mjs" },
          absWorkingDir: cwd,
          ...testBundleOptions(),
          inject: setupFiles,
          metafile: true,
          plugins: [...viteImportPlugins(), turnlensPlugin(undefined, {}, new Set(), missing, undefined, undefined, unchecked)],
          // Each output gets its own file's values in place of the tokens (below).
          define: { ...defineReplacements(), __filename: "__turnlensFilename", __dirname: "__turnlensDirname", "import.meta.env": IMPORT_META_ENV },
          banner: {
            js: `import { createRequire as __turnlensCreateRequire } from "node:module"; const __turnlensFilename = ${FILE_TOKEN}; const __turnlensDirname = ${DIR_TOKEN}; const require = __turnlensCreateRequire(${URL_TOKEN});`,
          },
        });
      });
    })
    .then(
      (result) => ({
        result,
        names: new Map([...shimNames].map(([name, url]) => [url, name])),
        metas: new Map(Object.entries(result.metafile.outputs).map(([path, meta]) => [resolve(cwd, path), meta])),
      }),
      () => undefined,
    );
  for (const file of wanted) {
    const outfile = outfiles.get(file) ?? bundlePathFor(file);
    ahead.push({
      file,
      keepAllCode,
      bundle: built.then((done) => {
        const output = done?.result.outputFiles.find((o) => o.path === outfile);
        const meta = done?.metas.get(outfile);
        if (!done || !output || !meta) return undefined;
        // A file whose static imports reach a missing module is bundled alone, to say so (bundleTestFile).
        if (missing.eager(done.result.metafile, [meta.entryPoint ?? file, ...setupFiles], cwd).length > 0) return undefined;
        const servedHere = new Set(meta.imports.flatMap((i) => (i.external ? [done.names.get(i.path)].filter((n): n is string => n !== undefined) : [])));
        const code = output.text
          .replace(FILE_TOKEN, () => JSON.stringify(file))
          .replace(DIR_TOKEN, () => JSON.stringify(dirname(file)))
          .replace(URL_TOKEN, () => JSON.stringify(pathToFileURL(file).href));
        return { outfile, code, served: servedHere, inputs: inputsFrom(done.result.metafile, meta.entryPoint ?? file, cwd) };
      }),
    });
  }
}

/** The bundle made ahead that the run which arrived last claimed (claimBundledAhead), by its file. */
let claimed: { file: string; bundle: Promise<AheadBundle | undefined> | undefined } | undefined;

/**
 * Called as a run's message arrives, before the worker handles the messages after it: the pool
 * sends a file's run and then the list of the files it promises next, and the run's own bundle is
 * awaited only later, when that list is already here, so which bundle a run takes is decided
 * against the list as it stood when the run was sent (taken then, every bundle made ahead was
 * dropped by the file sent just before it, and each file was bundled again alone).
 * The pool sends a worker its promised files in order, and gives one to another worker only from
 * the end of the list, so any other file means the rest of the list went elsewhere: those bundles
 * are dropped (never run later, when the files may have changed).
 */
export function claimBundledAhead(file: string): void {
  const next = ahead[0];
  if (next?.file === file && next.keepAllCode === keepAllCode) {
    ahead.shift();
    claimed = { file, bundle: next.bundle };
    return;
  }
  ahead.length = 0;
  claimed = { file, bundle: undefined };
}

/** The bundle bundleAhead() made of `file`, if its run claimed one when it arrived (claimBundledAhead). */
export async function takeBundledAhead(file: string): Promise<AheadBundle | undefined> {
  const mine = claimed?.file === file ? claimed.bundle : undefined;
  claimed = undefined;
  return mine;
}

/**
 * Bundles `file` into `outfile`'s text, each file whose path `sources` has (an editor's buffers,
 * the test file's own among them or not) read from there instead of the disk; a string `sources`
 * is the text of `file` alone. Throws a BundleError, with the location and esbuild's message, when
 * the file cannot be bundled.
 */
export async function bundleTestFile(file: string, outfile: string, sources: SourceOverlay | string = {}): Promise<BundleResult> {
  const overlay: SourceOverlay = keepLoneSurrogates(typeof sources === "string" ? { [file]: sources } : sources);
  // The last build's (buildCheckingPathsIfNeeded may make two).
  let served = new Set<string>();
  let loaded = new Set<string>();
  let missing = new MissingImports();
  const cwd = process.cwd();
  const fileUrl = pathToFileURL(file).href;
  try {
    const plan = planModuleMocks(file, overlay[file] ?? (await readBoundedSource(file, true).catch(() => undefined)) ?? "", await setupTexts(overlay));
    const mocks = plan && moduleMocksBundle(plan);
    const attempt = (unchecked?: Unchecked) => {
      served = new Set();
      loaded = new Set();
      missing = new MissingImports();
      return build({
        entryPoints: [file],
        absWorkingDir: cwd,
        ...testBundleOptions(),
        inject: setupFiles,
        outfile,
        metafile: true,
        plugins: [
          // A mocked module's import is the mocks' first (a `?raw` one too); Vite's suffixes come before Turnlens's own rules.
          ...(mocks ? [mocks.plugin] : []),
          ...viteImportPlugins(),
          turnlensPlugin(file, overlay, served, missing, loaded, mocks, unchecked),
        ],
        define: {
          ...defineReplacements(),
          __filename: JSON.stringify(file),
          __dirname: JSON.stringify(dirname(file)),
          "import.meta.env": IMPORT_META_ENV,
        },
        banner: {
          js: `import { createRequire as __turnlensCreateRequire } from "node:module"; const require = __turnlensCreateRequire(${JSON.stringify(fileUrl)});`,
        },
      });
    };
    // A file that mocks modules is built once: its mocks' plugin resolves them as its build starts (moduleMocks.ts).
    const result = mocks ? await attempt() : await buildCheckingPathsIfNeeded(attempt);
    const output = result.outputFiles.find((o) => o.path.endsWith(".mjs")) ?? result.outputFiles[0];
    if (!output) throw new BundleError({ message: "esbuild produced no output" });
    const inputs = inputsOf(result.metafile, file, cwd);
    // A missing module the file imports statically: the file cannot start, so it fails now, placed.
    const entryPoint = Object.values(result.metafile.outputs).find((meta) => meta.entryPoint !== undefined)?.entryPoint ?? file;
    const eager = missing.eager(result.metafile, [entryPoint, ...setupFiles], cwd);
    if (eager.length > 0) throw new BundleError(bundleErrorReport(eager, cwd), inputs);
    return { code: output.text, served, inputs };
  } catch (error) {
    if (error instanceof BundleError) throw error;
    const messages = (error as { errors?: Message[] }).errors;
    const inputs = [file, ...[...loaded].filter((path) => path !== file && !path.includes(`${sep}node_modules${sep}`))];
    if (Array.isArray(messages) && messages.length > 0) throw new BundleError(bundleErrorReport(messages, cwd), inputs);
    throw error;
  }
}

/**
 * The bundle of what `import(specifier)` gives in `importer` when the specifier is known only at run
 * time (runtimeImport.ts): an entry that imports it, resolved from `importer`'s folder by the same
 * rules as a test file's imports, whose default export is the module's namespace. A specifier that
 * resolves to nothing gives a bundle that throws Node's ERR_MODULE_NOT_FOUND when it is imported.
 */
export async function bundleRuntimeImport(specifier: string, importer: string): Promise<string> {
  const served = new Set<string>();
  const missing = new MissingImports();
  const result = await build({
    stdin: {
      contents: `import * as imported from ${JSON.stringify(specifier)};\nexport default imported;\n`,
      resolveDir: dirname(importer),
      sourcefile: importer,
      loader: "js",
    },
    absWorkingDir: process.cwd(),
    ...testBundleOptions(),
    metafile: true,
    // The same rules as the test file's own imports: Vite's suffixes and client, the config's define.
    plugins: [...viteImportPlugins(), turnlensPlugin(undefined, {}, served, missing)],
    define: { ...defineReplacements(), __filename: JSON.stringify(importer), __dirname: JSON.stringify(dirname(importer)), "import.meta.env": IMPORT_META_ENV },
    banner: {
      js: `import { createRequire as __turnlensCreateRequire } from "node:module"; const require = __turnlensCreateRequire(${JSON.stringify(pathToFileURL(importer).href)});`,
    },
  });
  const output = result.outputFiles?.[0];
  if (!output) throw new Error(`esbuild produced no bundle for import("${specifier}")`);
  // What it bundled the file's code read, as much as a file it opened (`--cache` keys on both).
  const stdin = resolve(process.cwd(), "<stdin>");
  noteReads(inputsFrom(result.metafile, stdin, process.cwd()).filter((path) => path !== stdin));
  return output.text;
}
