// dist/server.js, the language server's entry: forks and warms one worker first, then loads the
// server itself (dist/serverMain.js, server/main.ts: ~11 MB with the TypeScript compiler inside,
// about half a second; through a V8 code cache, codeCache.ts), so the worker's start and warm-up
// overlap that load.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkerPool } from "../core/runner/pool.ts";
import { endOnSignals, ownProcessTree } from "../core/runner/processTree.ts";
import { forkWorker } from "../core/runner/workerProcess.ts";
import { requireWithCodeCache } from "./codeCache.ts";
import { handOverEarlyWorkers, warmupJob, type EarlyWorkers } from "./warmup.ts";

// Nothing outlives the server: its workers and what their tests spawned are killed when it exits
// (an `exit` notification with or without `shutdown`, stdin closing) or is
// sent SIGTERM, SIGINT or SIGHUP; a SIGKILL is noticed by each worker's parent watch.
ownProcessTree();
endOnSignals();

const early: EarlyWorkers = {
  // Until the server has read its settings: the default size, and its log to stderr (stdout may be the protocol).
  size: () => 2,
  log: (message) => process.stderr.write(`turnlens: ${message}\n`),
  pool: new WorkerPool({
    size: () => early.size(),
    log: (message) => early.log(message),
    factory: () =>
      forkWorker({
        // The worker entry next to this bundle (dist/server.js → dist/worker.mjs).
        entry: join(__dirname, "worker.mjs"),
        env: { NO_COLOR: "1" },
        // A test that exhausts memory crashes its worker (reported, respawned), not the machine.
        execArgv: ["--max-old-space-size=2048", "--enable-source-maps"],
      }),
  }),
};
// Trust is not known yet: the warm-up is Turnlens's own file, in the temp folder, and runs no
// code of the workspace; an untrusted workspace (known at initialize) has the worker killed.
early.pool.prewarm(1, warmupJob(tmpdir()));
handOverEarlyWorkers(early);
// The server is the other bundle (esbuild does not follow this path).
requireWithCodeCache(join(__dirname, "serverMain.js"));
