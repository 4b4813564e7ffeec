// The language server process: `node dist/server.js --stdio` (or `--node-ipc`, as the VS Code
// client starts it). Real timers, the real clock, and workers forked from dist/worker.mjs.
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { startServer } from "./server.ts";

/** The worker entry next to this bundle (dist/server.js → dist/worker.mjs). */
const workerEntry = join(__dirname, "worker.mjs");

/** The package this bundle belongs to (dist/server.js → package.json): its version is the server's. */
function packageVersion(): string | undefined {
  try {
    const version: unknown = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

const connection = createConnection(ProposedFeatures.all);
const version = packageVersion();
startServer(connection, {
  ...(version !== undefined ? { version } : {}),
  timer: { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) },
  now: () => performance.now(),
  createWorker: () =>
    fork(workerEntry, [], {
      // stdout must be a pipe: over --stdio the server's own stdout is the protocol.
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      serialization: "json",
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      // A test that exhausts memory crashes its worker (reported, respawned), not the machine.
      execArgv: ["--max-old-space-size=2048", "--enable-source-maps"],
    }),
});
