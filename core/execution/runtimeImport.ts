// `import(specifier)` whose specifier is known only at run time: the bundle keeps no such import
// (esbuild cannot follow it), so it is resolved from the importing file, not from the bundle's
// temporary folder, and the module bundled then by the same rules as the test file's own imports.
import { existsSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { isAbsolute } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeExclusively } from "../tempFolder/privateFolder.ts";
import { IMPORT_META_RESOLVE, RUNTIME_IMPORT } from "./dynamicImportCalls.ts";
import { importModule } from "./importModule.ts";
import { bundlePathFor, bundleRuntimeImport } from "./transform.ts";

const builtins = new Set(builtinModules);

/** Each specifier's module by importer, so importing it twice gives the same namespace, as Node does. */
const imported = new Map<string, Promise<unknown>>();

async function runtimeImport(importer: string, specifier: unknown): Promise<unknown> {
  // import() coerces its argument to a string, as Node's does.
  const spec = String(specifier);
  // What Node resolves the same from any folder is imported as it is.
  if (/^(data|node|https?):/.test(spec) || builtins.has(spec)) return importModule(spec);
  const path = spec.startsWith("file:") ? fileURLToPath(spec) : spec;
  // A JavaScript file named by its full path Node imports itself, sharing its module cache with
  // every other such import (a file the test just wrote, a build's output); TypeScript it cannot. A
  // `file:` URL keeps its query and hash, which make it another instance of the module, as in Node.
  if (isAbsolute(path) && /\.[cm]?js$/.test(path) && existsSync(path)) return importModule(spec.startsWith("file:") ? spec : pathToFileURL(path).href);
  const key = `${importer}\0${path}`;
  let module = imported.get(key);
  if (!module) {
    module = (async () => {
      const code = await bundleRuntimeImport(path, importer);
      const outfile = bundlePathFor(importer);
      await writeExclusively(outfile, code);
      return (await importModule(pathToFileURL(outfile).href)).default;
    })();
    imported.set(key, module);
  }
  return module;
}

/** `import.meta.resolve(specifier)` of the file at `parentUrl`, as Node's resolves it there. */
function importMetaResolve(parentUrl: string, specifier: unknown): string {
  const spec = String(specifier);
  if (/^\.{0,2}\//.test(spec)) return new URL(spec, parentUrl).href;
  if (/^[a-z][a-z\d+.-]*:/i.test(spec)) return spec;
  if (builtins.has(spec)) return `node:${spec}`;
  return pathToFileURL(createRequire(parentUrl).resolve(spec)).href;
}

/** Makes RUNTIME_IMPORT and IMPORT_META_RESOLVE callable in this process (the worker does it once, at start). */
export function installRuntimeImport(): void {
  const fixed = { configurable: false, enumerable: false, writable: false };
  Object.defineProperty(globalThis, Symbol.for(RUNTIME_IMPORT), { value: runtimeImport, ...fixed });
  Object.defineProperty(globalThis, Symbol.for(IMPORT_META_RESOLVE), { value: importMetaResolve, ...fixed });
}
