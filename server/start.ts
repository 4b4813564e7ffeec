// dist/server.js, the language server's entry, kept small: forks the first worker (firstWorker.ts,
// imported first), then loads the server (dist/serverMain.js, main.ts) through a V8 code cache
// (codeCache.ts), whose first module is the pool that warms that worker (earlyPool.ts). Compiling
// the pool and TypeBox here, without the cache, as this file did, came before the fork.
import "./firstWorker.ts";
import { join } from "node:path";
import { requireWithCodeCache } from "../core/execution/codeCache.ts";
import { markStart } from "./startTimeline.ts";

// The server is the other bundle (esbuild does not follow this path).
requireWithCodeCache(join(__dirname, "serverMain.js"));
markStart("server bundle loaded");
