// dist/server.js, the language server's entry, kept small: forks the first worker (firstWorker.ts,
// imported first), then loads the rest through a V8 code cache (codeCache.ts): the early pool
// (dist/serverEarlyPool.js, earlyPool.ts), which warms that worker and loads the server itself
// (dist/serverMain.js). Compiling the pool and TypeBox here, as this file did, came before the fork.
import "./firstWorker.ts";
import { join } from "node:path";
import { requireWithCodeCache } from "../core/execution/codeCache.ts";
import { markStart } from "./startTimeline.ts";

// The rest is other bundles (esbuild does not follow this path).
requireWithCodeCache(join(__dirname, "serverEarlyPool.js"));
markStart("server bundle loaded");
