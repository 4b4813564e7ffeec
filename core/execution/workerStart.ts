// dist/worker.mjs, the entry a worker process is forked on: runs the worker itself (worker.ts and
// the modules it serves, one CommonJS bundle: dist/workerMain.js) through a V8 code cache, so a
// fresh or recycled worker does not compile ~1.8 MB of JavaScript again (codeCache.ts).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { requireWithCodeCache } from "./codeCache.ts";
import { lendImport } from "./importModule.ts";

// This module's own import(): the cached worker's has none on Node 20 (importModule.ts).
lendImport((url) => import(url));
requireWithCodeCache(join(dirname(fileURLToPath(import.meta.url)), "workerMain.js"));
