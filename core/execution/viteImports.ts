// The imports Vite gives a test file that esbuild has no loader for: `.wasm` as an ES module (the
// WebAssembly ESM integration Vitest gets from Node: its imports imported, the instance's exports
// exported), `x.wasm?init` (Vite's: a function that instantiates it), `x?raw` and `x.css?inline` (the
// file's text), `x?url` and an asset (an image, media, a font: its URL from the root), and
// `/@vite/client` (the stub Vitest serves in its place: no dev server runs under a test).
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, sep } from "node:path";
import type { Plugin } from "esbuild";

/** What of WebAssembly is used here (the project's TypeScript libs leave it out). */
interface WasmEntry {
  module: string;
  name: string;
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  Module: { imports(module: object): WasmEntry[]; exports(module: object): Array<{ name: string }> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The esbuild plugins, placed before Turnlens's own so these suffixes are theirs. */
export function viteImportPlugins(): Plugin[] {
  return [queryImports, wasmModules, viteClient];
}

/** Vite's asset types (vite's KNOWN_ASSET_TYPES) but `.txt`, which Bun imports as its text: imported, each is its URL. */
const ASSET = /\.(apng|bmp|png|jpe?g|jfif|pjpeg|pjp|gif|svg|ico|webp|avif|cur|jxl|mp4|webm|ogg|mp3|wav|flac|aac|opus|mov|m4a|vtt|woff2?|eot|ttf|otf|webmanifest|pdf)$/i;

/** Where `?raw`, `?url`, `?inline` and `?init` imports resolve to (a mocked one is still found, moduleMocks.ts). */
export const VITE_QUERY_NAMESPACE = "turnlens-vite-query";

/** A file's URL as Vite's dev server gives it: from the root (the working folder), or `/@fs/` and its full path outside it. */
export function viteAssetUrl(path: string, root = process.cwd()): string {
  const fromRoot = relative(root, path);
  if (fromRoot.startsWith("..") || isAbsolute(fromRoot)) return `/@fs/${path.split(sep).join("/").replace(/^\//, "")}`;
  return `/${fromRoot.split(sep).join("/")}`;
}

/** `?raw`/`?url` on any file, `?inline` on a stylesheet, `?init` on a `.wasm` file: resolved as the file, the query kept as its suffix. */
const queryImports: Plugin = {
  name: "turnlens-vite-queries",
  setup(b) {
    // A `data:` URL (`data:application/wasm;base64,...`, `data:text/javascript,...`) is Node's to import when the file runs, as under Vitest.
    b.onResolve({ filter: /^data:/ }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: /\?(?:raw|init|url|inline)$/ }, async (args) => {
      const [path = "", query = ""] = args.path.split(/(?=\?(?:raw|init|url|inline)$)/);
      if (query === "?init" && !path.endsWith(".wasm")) return undefined;
      if (query === "?inline" && !/\.(css|less|sass|scss|styl|stylus|pcss|postcss|sss)$/.test(path)) return undefined;
      // Resolved by esbuild itself (a package's file too): the text is read, never imported. As
      // Turnlens's own inner lookups (moduleMocks.ts): the mocks' rule, itself resolving, must not wait on this one.
      const inner = { turnlensInner: true, mocksInner: true };
      const resolved = await b.resolve(path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: inner });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      // A namespace of its own, so esbuild asks this plugin to load these files alone, not every module of a bundle.
      return { path: resolved.path, suffix: query, namespace: VITE_QUERY_NAMESPACE };
    });
    b.onLoad({ filter: /.*/, namespace: VITE_QUERY_NAMESPACE }, async (args) => {
      const resolveDir = dirname(args.path);
      if (args.suffix === "?raw" || args.suffix === "?inline") return { contents: await readFile(args.path, "utf8"), loader: "text", resolveDir };
      if (args.suffix === "?url") return { contents: `export default ${JSON.stringify(viteAssetUrl(args.path))};`, loader: "js", resolveDir };
      return { contents: wasmInitSource(args.path), loader: "js", resolveDir };
    });
    b.onLoad({ filter: ASSET }, (args) =>
      args.namespace === "file" && !args.suffix ? { contents: `export default ${JSON.stringify(viteAssetUrl(args.path))};`, loader: "js" } : undefined,
    );
  },
};

/** Vitest's stub of Vite's client (vitest/dist/module-evaluator.js): hot contexts that do nothing, styles put in a document if there is one. */
const VITE_CLIENT_STUB = `export const injectQuery = (id) => id;
export const createHotContext = () => ({ accept() {}, prune() {}, dispose() {}, decline() {}, invalidate() {}, on() {}, send() {} });
export function updateStyle(id, css) {
  if (typeof document === "undefined") return;
  const element = document.querySelector(\`[data-vite-dev-id="\${id}"]\`);
  if (element) {
    element.textContent = css;
    return;
  }
  const style = document.createElement("style");
  style.setAttribute("type", "text/css");
  style.setAttribute("data-vite-dev-id", id);
  style.textContent = css;
  document.querySelector("head")?.appendChild(style);
}
export function removeStyle(id) {
  if (typeof document === "undefined") return;
  const sheet = document.querySelector(\`[data-vite-dev-id="\${id}"]\`);
  if (sheet) document.head.removeChild(sheet);
}
`;

/** `/@vite/client` (and `@vite/client`): the stub, as Vitest gives it. */
const viteClient: Plugin = {
  name: "turnlens-vite-client",
  setup(b) {
    b.onResolve({ filter: /^\/?@vite\/client$/ }, () => ({ path: "/@vite/client", namespace: "turnlens-vite-client" }));
    b.onLoad({ filter: /.*/, namespace: "turnlens-vite-client" }, () => ({ contents: VITE_CLIENT_STUB, loader: "js" }));
  },
};

/** `.wasm` imported as an ES module: compiled once while bundling to learn its imports and exports. */
const wasmModules: Plugin = {
  name: "turnlens-wasm",
  setup(b) {
    b.onLoad({ filter: /\.wasm$/ }, async (args) => {
      if (args.namespace !== "file" || args.suffix) return undefined;
      let module: object;
      try {
        module = await wasm.compile(await readFile(args.path));
      } catch (error) {
        return { errors: [{ text: `${args.path} is not a WebAssembly module esbuild can import: ${(error as Error).message}` }] };
      }
      return { contents: wasmModuleSource(args.path, wasm.Module.imports(module), wasm.Module.exports(module)), loader: "js" };
    });
  },
};

/**
 * The module standing for a `.wasm` file, as the ESM integration links it: each module the wasm
 * imports from is imported (a cycle back to the JS that imports the wasm works, as wasm-bindgen's
 * output needs), the instance is made when the module runs, and each of its exports is exported.
 * The bytes are read when it runs, from the file itself.
 */
export function wasmModuleSource(path: string, imports: readonly WasmEntry[], exports: ReadonlyArray<{ name: string }>): string {
  const modules = [...new Set(imports.map((entry) => entry.module))];
  const lines = [`import { readFileSync as __turnlensReadWasm } from "node:fs";`];
  modules.forEach((name, index) => lines.push(`import * as __turnlensWasmImport${index} from ${JSON.stringify(name)};`));
  const importObject = modules.map((name, index) => `${JSON.stringify(name)}: __turnlensWasmImport${index}`).join(", ");
  lines.push(`const __turnlensWasmInstance = new WebAssembly.Instance(new WebAssembly.Module(__turnlensReadWasm(${JSON.stringify(path)})), { ${importObject} });`);
  exports.forEach((entry, index) => {
    lines.push(`const __turnlensWasmExport${index} = __turnlensWasmInstance.exports[${JSON.stringify(entry.name)}];`);
    lines.push(`export { __turnlensWasmExport${index} as ${JSON.stringify(entry.name)} };`);
  });
  return lines.join("\n");
}

/** Vite's `x.wasm?init`: a default export that instantiates the module with the imports given and resolves to the instance. */
function wasmInitSource(path: string): string {
  return [
    `import { readFileSync as __turnlensReadWasm } from "node:fs";`,
    `export default async function init(imports = {}) {`,
    `  const { instance } = await WebAssembly.instantiate(__turnlensReadWasm(${JSON.stringify(path)}), imports);`,
    `  return instance;`,
    `}`,
  ].join("\n");
}
