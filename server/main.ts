// The language server process, dist/serverMain.js, loaded by dist/server.js (start.ts) once that has
// forked the first worker: `node dist/server.js --stdio` (or `--node-ipc`, as the VS Code client
// starts it). Real timers, the real clock, and workers forked from dist/worker.mjs.
// First: the early pool takes that worker and sends it its preload before the rest of this bundle is evaluated.
import { earlyWorkers as early } from "./earlyPool.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { endOnSignals, ownProcessTree } from "../core/execution/processTree.ts";
import { MessageBacklog } from "./messageBacklog.ts";
import { startServer } from "./server.ts";
import { forkServerWorker } from "./serverWorker.ts";

// dist/server.js owns the process tree and ends on signals, and earlyPool.ts made the pool; started on its own
// (no early pool), this process does both itself.
if (!early) {
  ownProcessTree();
  endOnSignals();
}

/** The package this bundle belongs to (dist/server.js → package.json): its version is the server's. */
function packageVersion(): string | undefined {
  try {
    const version: unknown = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

// The backlog sees each message vscode-jsonrpc dispatches, so an edit's work waits for a burst's end.
const backlog = new MessageBacklog();
const connection = createConnection(ProposedFeatures.all, { messageStrategy: backlog });

// An error no handler caught (a library's callback, a timer outside the guarded ones) is logged
// and survived: one stray throw must not take every open file's diagnostics down. `reporting`
// keeps a failing log write from reporting itself forever.
let reporting = false;
function survive(kind: string, error: unknown): void {
  if (reporting) return;
  reporting = true;
  try {
    connection.console.error(`${kind} (the server goes on): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } catch {
    // The client is gone: stdin closing ends the process anyway.
  } finally {
    reporting = false;
  }
}
process.on("uncaughtException", (error) => survive("uncaught error", error));
process.on("unhandledRejection", (reason) => survive("unhandled rejection", reason));
const version = packageVersion();
startServer(connection, {
  ...(version !== undefined ? { version } : {}),
  ...(early ? { workers: early } : {}),
  backlog,
  timer: { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) },
  now: () => performance.now(),
  createWorker: forkServerWorker,
});
