// Module mocks at bundle time: a test file that names modules in mock calls (vi.mock, vi.doMock,
// vi.importActual, bun's mock.module, …) gets its mocks hoisted (mockHoisting.ts), and every import
// of a named module anywhere in its bundle goes to a proxy module that asks the run-time registry
// (core/testApi/viModules.ts) for the mock or the real module. A file that mocks nothing is bundled
// as before (its text is only searched for a mock call).
import { build, type Plugin, type PluginBuild } from "esbuild";
import { createRequire, isBuiltin as isNodeBuiltin } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { readFile } from "node:fs/promises";
import { moduleMocks } from "../testApi/viModules.ts";
import { readBoundedSource } from "./boundedSource.ts";
import { runtimeImportCall } from "./dynamicImportCalls.ts";
import { VITE_QUERY_NAMESPACE } from "./viteImports.ts";
import { mockFolderFile } from "./mockFolders.ts";
import { isServed, registry } from "./served.ts";

/** Any call hoistMocks or the registry handles; the cheap test before a file is parsed. */
const MOCK_CALL = /\b(?:(?:vi|vitest)\s*\.\s*(?:mock|unmock|hoisted|doMock|doUnmock|importActual|importMock)|mock\s*\.\s*module)\s*(?:<(?:[^<>]|<[^<>]*>)*>\s*)?\(/;
/** The string-literal path of each such call (`vi.mock(import("./x"))` too). */
const MOCK_PATH =
  /\b(?:(?:vi|vitest)\s*\.\s*(?:mock|unmock|doMock|doUnmock|importActual|importMock)|mock\s*\.\s*module)\s*(?:<(?:[^<>]|<[^<>]*>)*>\s*)?\(\s*(?:(?:await\s+)?import\s*\(\s*)?(["'`])((?:(?!\1)[^\\\n$])+)\1/g;

/** The path of each import, export-from and literal `import()` of a file's text. */
const IMPORTED_PATH = /\b(?:from|import)\s*\(?\s*(["'])([^"'\n]+)\1/g;

/** The key under which bundles find the registry, in the served modules' registry (made at the worker's start). */
const REGISTRY_KEY = "turnlens:moduleMocks";
export const MOCK_NAMESPACE = "turnlens-mock";
const ACTUAL_PREFIX = "turnlens-actual:";

/** A file of the bundle that makes mock calls, and the paths they name, as written (relative to it). */
export interface MockSource {
  file: string;
  specifiers: string[];
  /** The paths a call names without a factory (`vi.mock("./x")`, `vi.importMock`): only those may need their `__mocks__` file. */
  factoryless?: string[];
  /** The names the file imports from each bare path it mocks: a virtual module's (one that does not exist) proxy exports these. */
  imported?: Record<string, string[]>;
}

/**
 * What a test file's bundle mocks: the paths its own mock calls name (`file`, `specifiers`), and
 * those of the config's setup files that make mock calls (`setup`). As under Vitest, a setup file's
 * `vi.mock` holds for the test file it runs before; its paths are relative to the setup file.
 */
export interface MockPlan extends MockSource {
  setup: MockSource[];
  /** Whether the test file makes mock calls itself (`vi.hoisted` alone names no path, and is hoisted too). */
  own: boolean;
}

function mockSource(file: string, text: string): MockSource | undefined {
  if (!MOCK_CALL.test(text)) return undefined;
  const specifiers = new Set<string>();
  const factoryless = new Set<string>();
  for (const match of text.matchAll(MOCK_PATH)) {
    specifiers.add(match[2]!);
    // The call ends after its path (the import form's own parenthesis aside): no factory, so Vitest looks in __mocks__.
    const closes = /import\s*\($/.test(match[0].slice(0, -match[2]!.length - 2).trimEnd()) ? /^\s*\)\s*\)/ : /^\s*\)/;
    if (closes.test(text.slice(match.index + match[0].length))) factoryless.add(match[2]!);
  }
  const imported: Record<string, string[]> = {};
  for (const specifier of specifiers) if (isBareName(specifier)) imported[specifier] = importedNames(text, specifier);
  return { file, specifiers: [...specifiers], imported, factoryless: [...factoryless] };
}

/** A package's name (not a relative or absolute path): the kind of path a virtual module may have. */
function isBareName(specifier: string): boolean {
  return !/^[./]/.test(specifier);
}

/** The names `text`'s import and export-from statements take from `specifier` (and `default`). */
function importedNames(text: string, specifier: string): string[] {
  const names = new Set(["default"]);
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  for (const match of text.matchAll(new RegExp(`\\b(?:import|export)\\s+(?:type\\s+)?([^;"'\`]*?)\\s*from\\s*["']${quoted}["']`, "g"))) {
    const braces = /\{([^}]*)\}/.exec(match[1]!);
    for (const part of braces?.[1]?.split(",") ?? []) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)[0]!
        .trim()
        .replace(/^["']|["']$/g, "");
      if (name) names.add(name);
    }
    // `import * as ns`: the names the file reads from `ns` (a virtual module's names are known only from its use).
    const namespace = /\*\s*as\s+([A-Za-z_$][\w$]*)/.exec(match[1]!)?.[1];
    if (namespace) for (const use of text.matchAll(new RegExp(`(?<![\\w$.])${namespace.replace(/\$/g, "\\$")}\\s*\\.\\s*([A-Za-z_$][\\w$]*)`, "g"))) names.add(use[1]!);
  }
  return [...names];
}

/**
 * The plan of `file` from its text and the setup files' (path and text), or undefined when none of
 * them names a module to mock (most files).
 */
export function planModuleMocks(file: string, text: string, setupTexts: ReadonlyArray<{ file: string; text: string }> = []): MockPlan | undefined {
  const setup = setupTexts.flatMap((one) => mockSource(one.file, one.text) ?? []);
  const own = mockSource(file, text);
  if (!own && setup.length === 0) return undefined;
  return { file, specifiers: own?.specifiers ?? [], imported: own?.imported ?? {}, factoryless: own?.factoryless ?? [], setup, own: own !== undefined };
}

/** Whether `text` makes a mock call (a setup file that does makes every test file's bundle mock). */
export function makesMockCalls(text: string): boolean {
  return MOCK_CALL.test(text);
}

/** Whether the file at `path` mocks modules: such a file is bundled alone, never with others. */
export async function mocksModules(path: string): Promise<boolean> {
  try {
    return MOCK_CALL.test((await readBoundedSource(path, true)) ?? "");
  } catch {
    return false;
  }
}

interface Resolved {
  /** The file whose mock call names it (the test file or a setup file). */
  from: string;
  specifier: string;
  /** The module's identity: `node:x` for a builtin, else its absolute path. */
  id: string;
  /** `virtual`: a bare name no module answers to, which a factory's mock stands for (Vitest mocks such names too). */
  kind: "builtin" | "package" | "file" | "virtual";
  /** A virtual module's export names: those its importers take. */
  names?: string[];
  /** Its file in a `__mocks__` folder, which `vi.mock(path)` without a factory gives instead of an automock (mockFolders.ts). */
  redirect?: string;
}

const requireHere = createRequire(import.meta.url);
const isBuiltin = (name: string) => name.startsWith("node:") || isNodeBuiltin(name);

/** The export names of the real module `id`, which its proxy re-exports by name. */
async function exportsOf(b: PluginBuild, module: Resolved): Promise<string[]> {
  if (module.kind === "virtual" && module.redirect === undefined) return module.names ?? ["default"];
  if (module.kind === "virtual") {
    const own = await exportsOf(b, { ...module, id: module.redirect as string, kind: "file", redirect: undefined });
    return [...new Set([...(module.names ?? []), ...own])];
  }
  if (module.kind === "builtin") return [...new Set([...Object.keys(requireHere(module.id) as object), "default"])];
  const result = await build({
    entryPoints: [module.id],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    metafile: true,
    packages: module.kind === "package" ? undefined : "external",
    logLevel: "silent",
    absWorkingDir: b.initialOptions.absWorkingDir ?? process.cwd(),
    outdir: "out",
  }).catch(() => undefined);
  const output = result && Object.values(result.metafile.outputs).find((meta) => meta.entryPoint !== undefined);
  const names = new Set(output?.exports ?? []);
  const input = result && Object.values(result.metafile.inputs).find((_meta, index) => index === 0);
  if (module.kind === "package" && (input?.format === "cjs" || names.size === 0 || (names.size === 1 && names.has("default")))) {
    // A CommonJS package: Node gives an import the names cjs-module-lexer finds (as Vitest reads them).
    try {
      // Loaded when needed: @vitest/mocker's lexers compile WebAssembly as their module loads.
      const { collectModuleExports, initSyntaxLexers } = await import("@vitest/mocker/transforms");
      await initSyntaxLexers();
      for (const name of collectModuleExports(module.id, await readFile(module.id, "utf8"), "commonjs")) names.add(name);
    } catch {
      // Only `default` then.
    }
  }
  names.add("default");
  return [...names];
}

function proxySource(id: string, names: string[]): string {
  const at = JSON.stringify(id);
  const locals = names.map((name, index) => ({ name: JSON.stringify(name), local: `_${index}` }));
  return [
    `const mocks = globalThis[Symbol.for("turnlens.modules")][${JSON.stringify(REGISTRY_KEY)}].moduleMocks;`,
    `const module = await mocks.load(${at});`,
    ...locals.map(({ name, local }) => `let ${local} = module[${name}];`),
    `mocks.bind(${at}, (replaced) => {`,
    ...locals.map(({ name, local }) => `  if (${name} in replaced) ${local} = replaced[${name}];`),
    "});",
    `export { ${locals.map(({ name, local }) => `${local} as ${name}`).join(", ")} };`,
  ].join("\n");
}

/** A bundle's module mocks: the esbuild plugin and the rewrite of the text of its files that mock. */
export interface ModuleMocksBundle {
  /** Placed before turnlens's own plugin. */
  plugin: Plugin;
  /** Whether `path` is a file of the plan whose text sourceText rewrites (the entry, a setup file that mocks). */
  rewrites(path: string): boolean;
  /** Another project file's text: its `import(name)` of a name known only when it runs asks the mocks first. */
  moduleText(path: string, text: string): string;
  /** That file's text (already read), hoisted, with the table of the modules it names declared first. */
  sourceText(path: string, text: string, loader: "ts" | "tsx" | "js" | "jsx"): Promise<string>;
}

const REGISTRY_EXPRESSION = `globalThis[Symbol.for("turnlens.modules")][${JSON.stringify(REGISTRY_KEY)}].moduleMocks`;

/**
 * The esbuild plugin of a bundle whose entry mocks modules: the entry's text hoisted, each import of
 * a mocked module (from any file of the bundle, but `require`, which Vitest does not mock either)
 * sent to its proxy, and the proxies' real modules loaded.
 */
export function moduleMocksBundle(plan: MockPlan): ModuleMocksBundle {
  // Bundles find the registry through the served modules' registry, which the worker made at its start.
  (registry() as Record<string, unknown>)[REGISTRY_KEY] = { moduleMocks };
  let resolve: (list: Resolved[]) => void = () => {};
  const resolving = new Promise<Resolved[]>((done) => (resolve = done));
  // Per file of the plan (the test file, each setup file that mocks): the paths it names that cannot be mocked, and why.
  const unmockable = new Map<string, Map<string, string>>();
  const sources: MockSource[] = [...plan.setup, plan];
  const refuse = (from: string, specifier: string, why: string) => {
    let refused = unmockable.get(from);
    if (!refused) unmockable.set(from, (refused = new Map()));
    refused.set(specifier, why);
  };
  let pluginBuild: PluginBuild | undefined;
  const plugin: Plugin = {
    name: "turnlens-module-mocks",
    setup(b) {
      pluginBuild = b;
      // esbuild resolves only once the build has started.
      b.onStart(() => {
        resolveAll();
      });
      const root = b.initialOptions.absWorkingDir ?? process.cwd();
      const withRedirect = (module: Resolved | undefined): Resolved | undefined => {
        // A mock with a factory never loads the __mocks__ file (which may import what is not installed): it is left out of the bundle.
        const wanted = module && sources.some((source) => source.factoryless?.includes(module.specifier));
        const redirect = wanted ? mockFolderFile(root, module.specifier, module.id, module.kind, module.from) : undefined;
        return redirect ? { ...module!, redirect } : module;
      };
      const resolveAll = () =>
        Promise.all(
          sources.flatMap((source) => source.specifiers.map(async (specifier): Promise<Resolved | undefined> => withRedirect(await resolveOne(source, specifier)))),
        ).then(
          (list) => resolve(list.filter((item): item is Resolved => item !== undefined)),
          () => resolve([]),
        );
      const resolveOne = async (source: MockSource, specifier: string): Promise<Resolved | undefined> => {
        const from = source.file;
        if (isServed(specifier)) {
          refuse(from, specifier, `turnlens serves "${specifier}" itself; it cannot be mocked`);
          return undefined;
        }
        if (isBuiltin(specifier)) return { from, specifier, id: specifier.startsWith("node:") ? specifier : `node:${specifier}`, kind: "builtin" };
        const resolved = await b.resolve(specifier, {
          kind: "import-statement",
          resolveDir: dirname(from),
          importer: from,
          pluginData: { turnlensInner: true, mocksInner: true },
        });
        const missing = resolved.errors.length > 0 || (resolved.namespace !== "file" && resolved.namespace !== VITE_QUERY_NAMESPACE);
        // A bare name, or an absolute path (Vite's root-relative `/data`), no module answers to: mocked by its name, as Vitest does.
        if (missing && (isBareName(specifier) || specifier.startsWith("/")) && !specifier.includes(":")) {
          const names = new Set(sources.flatMap((one) => one.imported?.[specifier] ?? []));
          return { from, specifier, id: specifier, kind: "virtual", names: [...names] };
        }
        if (missing) {
          refuse(from, specifier, `Cannot find module "${specifier}" imported from ${from}`);
          return undefined;
        }
        const kind = /[\\/]node_modules[\\/]/.test(resolved.path) ? "package" : "file";
        return { from, specifier, id: resolved.path, kind };
      };
      const byId = resolving.then((list) => new Map(list.map((item) => [item.id, item])));

      // The real module behind a proxy (or vi.importActual): the file, the package or the builtin itself.
      b.onResolve({ filter: /^turnlens-actual:/ }, async (args) => {
        const id = args.path.slice(ACTUAL_PREFIX.length);
        const module = (await byId).get(id);
        if (!module) return { errors: [{ text: `turnlens: ${id} is not a mocked module` }] };
        if (module.kind === "builtin") return { path: id, external: true };
        if (module.kind === "package") return { path: pathToFileURL(id).href, external: true };
        return { path: id };
      });
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.mocksInner || args.kind === "entry-point" || args.kind === "require-call" || args.namespace === MOCK_NAMESPACE) return undefined;
        const mocked = await byId;
        if (mocked.size === 0 || isServed(args.path)) return undefined;
        let id: string;
        if (isBuiltin(args.path)) {
          id = args.path.startsWith("node:") ? args.path : `node:${args.path}`;
        } else {
          const resolved = await b.resolve(args.path, {
            kind: args.kind,
            resolveDir: args.resolveDir,
            importer: args.importer,
            pluginData: { turnlensInner: true, mocksInner: true },
          });
          // A virtual module's names are those its importer takes: a proxy per importer (the suffix makes it a module of its own).
          if (resolved.errors.length > 0)
            return mocked.get(args.path)?.kind === "virtual"
              ? { path: args.path, namespace: MOCK_NAMESPACE, suffix: `?importer=${encodeURIComponent(args.importer)}` }
              : undefined;
          id = resolved.path;
        }
        // A __mocks__ file that imports the module it stands for gets the real one, as under Vitest.
        if (mocked.get(id)?.redirect === args.importer) return undefined;
        return mocked.has(id) ? { path: id, namespace: MOCK_NAMESPACE } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: MOCK_NAMESPACE }, async (args) => {
        const module = (await byId).get(args.path)!;
        const importer = module.kind === "virtual" && args.suffix?.startsWith("?importer=") ? decodeURIComponent(args.suffix.slice("?importer=".length)) : "";
        const imported = importer ? importedNames((await readFile(importer, "utf8").catch(() => "")) as string, args.path) : [];
        const names = [...new Set([...(await exportsOf(b, module)), ...imported])];
        return { contents: proxySource(args.path, names), loader: "js", resolveDir: dirname(plan.file) };
      });
    },
  };
  const isSetup = new Set(plan.setup.map((source) => source.file));
  const sourceText = async (path: string, text: string, loader: "ts" | "tsx" | "js" | "jsx") => {
    const all = await resolving;
    const list = all.filter((item) => item.from === path);
    const bySpecifier = new Map(list.map((item) => [item.specifier, item]));
    // The file's imports that name a mocked module by another path (`./x` where the mock says `./x.ts`) join its table.
    const byId = new Map(all.map((item) => [item.id, item]));
    for (const [, , specifier] of text.matchAll(IMPORTED_PATH)) {
      if (bySpecifier.has(specifier!) || isServed(specifier!) || !pluginBuild) continue;
      const id = isBuiltin(specifier!)
        ? specifier!.startsWith("node:")
          ? specifier!
          : `node:${specifier}`
        : (
            await pluginBuild.resolve(specifier!, {
              kind: "import-statement",
              resolveDir: dirname(path),
              importer: path,
              pluginData: { turnlensInner: true, mocksInner: true },
            })
          ).path;
      const same = id ? byId.get(id) : undefined;
      if (same && same.kind !== "virtual") {
        const alias = { ...same, from: path, specifier: specifier! };
        list.push(alias);
        bySpecifier.set(specifier!, alias);
      }
    }
    const table = [
      ...list.map(
        (item) =>
          `{ specifier: ${JSON.stringify(item.specifier)}, id: ${JSON.stringify(item.id)}, actual: ${
            item.kind === "virtual"
              ? `() => Promise.reject(new Error(${JSON.stringify(`Cannot find module "${item.specifier}" imported from ${item.from}`)}))`
              : `() => import(${JSON.stringify(ACTUAL_PREFIX + item.id)})`
          }${item.redirect === undefined ? "" : `, redirect: () => import(${JSON.stringify(item.redirect)})`} }`,
      ),
      ...[...(unmockable.get(path) ?? [])].map(
        ([specifier, error]) =>
          `{ specifier: ${JSON.stringify(specifier)}, id: "", error: ${JSON.stringify(error)}, actual: () => Promise.reject(new Error(${JSON.stringify(error)})) }`,
      ),
    ];
    // Loaded by the first file that mocks: hoistMocks's module compiles WebAssembly (@vitest/mocker's
    // lexers) as it loads, which the CLI and a worker that mocks nothing must not pay for.
    const { hoistedSource } = await import("./mockHoisting.ts");
    // A setup file's table joins the mocks of the test file it runs before; the test file's starts them, or joins them.
    const start = isSetup.has(path) ? "forSetupFile" : "forFile";
    return hoistedSource(path, text, loader, {
      // One line, so the file's own lines keep their numbers in what esbuild reads.
      prologue: `const __turnlens_mocks = ${REGISTRY_EXPRESSION}; __turnlens_mocks.${start}(${JSON.stringify(path)}, [${table.join(", ")}]);\n`,
      dynamicImport: (specifier) => (bySpecifier.has(specifier) ? `__turnlens_mocks.dynamicImport(${JSON.stringify(specifier)})` : undefined),
      test: MOCK_CALL,
    });
  };
  // The test file is rewritten only when it mocks itself: else its imports reach the setup files' mocks through the proxies alone.
  const rewritten = new Set([...plan.setup.map((source) => source.file), ...(plan.own ? [plan.file] : [])]);
  // `import(` of anything but a literal (a variable, a call), which the bundle already sends to the runtime's
  // import (dynamicImportCalls.ts): Vite's mocker sees those imports too, so the mocks are asked first.
  const moduleText = (path: string, text: string) =>
    text.replaceAll(runtimeImportCall(path), `(${REGISTRY_EXPRESSION}.computedImport((name) => ${runtimeImportCall(path)}name)))(`);
  return { plugin, rewrites: (path) => rewritten.has(path), sourceText, moduleText };
}
