// The language server process: `node dist/server.js --stdio` (or `--node-ipc`, as the VS Code
// client starts it). Real timers, the real clock, and workers forked from dist/worker.mjs.
import { fork } from "node:child_process";
import { join } from "node:path";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { startServer } from "./server.ts";

/** The worker entry next to this bundle (dist/server.js → dist/worker.mjs). */
const workerEntry = join(__dirname, "worker.mjs");

const connection = createConnection(ProposedFeatures.all);
startServer(connection, {
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
