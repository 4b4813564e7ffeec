// The first thing dist/server.js does (server/start.ts imports this module first): owns the process
// tree and forks the language server's first worker, before the rest of that bundle (core's pool,
// TypeBox) is evaluated, which on a loaded machine is 30-100 ms the worker's own start overlaps.
import { join } from "node:path";
import { endOnSignals, ownProcessTree } from "../core/execution/processTree.ts";
import { forkWorker } from "../core/execution/workerProcess.ts";
import { WORKER_HEAP_MB } from "./limits.ts";
import { markStart } from "./startTimeline.ts";

// Nothing outlives the server: its workers and what their tests spawned are killed when it exits
// (an `exit` notification with or without `shutdown`, stdin closing) or is sent SIGTERM, SIGINT or
// SIGHUP; a SIGKILL is noticed by each worker's parent watch. Before the fork: the worker inherits the tag.
ownProcessTree();
endOnSignals();

/** Forks a worker of the language server: dist/worker.mjs, beside this bundle. */
export function forkServerWorker() {
  return forkWorker({
    entry: join(__dirname, "worker.mjs"),
    env: { NO_COLOR: "1" },
    // A test that exhausts memory crashes its worker (reported, respawned), not the machine. No
    // --enable-source-maps, as `turnlens test`'s workers: it had Node read and parse the source maps
    // of the worker's own ~4 MB of modules at every start (~40-60 ms on a loaded machine), where the
    // worker turns maps on itself for the test files (their frames are the ones reports show).
    execArgv: [`--max-old-space-size=${WORKER_HEAP_MB}`],
  });
}

let first: ReturnType<typeof forkWorker> | undefined = forkServerWorker();
markStart("worker forked");

/** The worker forked as this bundle began the first time, then a fresh fork each time. */
export function takeServerWorker(): ReturnType<typeof forkWorker> {
  const child = first ?? forkServerWorker();
  first = undefined;
  return child;
}
