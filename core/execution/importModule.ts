// import() of a test file's bundle, from the worker. The worker runs through a V8 code cache
// (workerStart.ts, codeCache.ts), and on Node 20 code compiled from a cache has lost the callback
// that serves its `import()` ("A dynamic import callback was not specified"), so the entry, an ES
// module compiled as usual, lends its own import() before it loads the worker.
const LENT_IMPORT = Symbol.for("turnlens.importModule");

type ImportModule = (url: string) => Promise<Record<string, unknown>>;

/** Lends this module's import() to code loaded after it (the worker's entry calls it first). */
export function lendImport(importModule: ImportModule): void {
  Object.defineProperty(globalThis, LENT_IMPORT, { value: importModule, configurable: false, enumerable: false, writable: false });
}

/** Imports `url` (a file URL) with the entry's import() when one was lent, else its own. */
export function importModule(url: string): Promise<Record<string, unknown>> {
  const lent = (globalThis as Record<symbol, ImportModule | undefined>)[LENT_IMPORT];
  return lent ? lent(url) : import(url);
}
