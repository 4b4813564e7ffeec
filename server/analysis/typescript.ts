// The TypeScript compiler, imported here once for the whole static pass. Bundled, each module's
// own `import ts from "typescript"` copies the compiler's ~2,250 exports into a module object of
// its own (esbuild's CommonJS interop): ten of them were ~45 ms of every server start.
// A re-export, so the binding stays live: dist/serverMain.js has lazyTypescript.ts in this module's
// place (build.mjs), which loads the compiler from its own file on first use.
export { default } from "typescript";

/** Whether the compiler is loaded (always, from source; in dist/serverMain.js once something used it). */
export function typescriptLoaded(): boolean {
  return true;
}

/** Loads the compiler now if it is not yet (from source it always is). */
export function loadTypescript(): void {}
