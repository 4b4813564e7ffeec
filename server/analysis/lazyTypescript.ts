// What dist/serverMain.js has in place of typescript.ts (build.mjs): the TypeScript compiler (9 MB, 3.6 MB minified,
// most of the server's start) kept in its own file, dist/serverTypescript.js, and loaded through the
// code cache on first use, so `initialize` is answered and a document's first run starts without it.
import { join } from "node:path";
import type * as TS from "typescript";
import { requireWithCodeCache } from "../../core/execution/codeCache.ts";
import { markStart } from "../startTimeline.ts";

let loaded: typeof TS | undefined;

/** Loads dist/serverTypescript.js (beside this bundle) once, and makes `ts` the compiler itself. */
function load(): typeof TS {
  if (!loaded) {
    loaded = requireWithCodeCache(join(__dirname, "serverTypescript.js")) as typeof TS;
    ts = loaded;
    markStart("TypeScript loaded");
  }
  return loaded;
}

// Until loaded, `ts` is a stand-in whose first property read loads the compiler and puts it in its
// place: the binding is live (typescript.ts re-exports it), so every later `ts.…` reads the compiler
// itself, at no cost. Nothing reads it at module load (tooDeep.ts makes its sets on first use).
let ts: typeof TS = new Proxy({} as typeof TS, { get: (_target, key) => load()[key as keyof typeof TS] });
export { ts as default };

/** Whether the compiler is loaded. */
export function typescriptLoaded(): boolean {
  return loaded !== undefined;
}

/** Loads the compiler now if it is not yet. */
export function loadTypescript(): void {
  load();
}
