// The language server's early pool: main.ts imports this module first, so in dist/serverMain.js it is
// evaluated (with core's pool and TypeBox) before the rest of the server. When dist/server.js forked
// a first worker (firstWorker.ts), the pool takes it and sends it the preload file at once, so the
// worker's start and warm-up overlap the server's own load; started otherwise, there is none.
import { tmpdir } from "node:os";
import { WorkerPool } from "../core/execution/pool.ts";
import { HeldLines, loggedWorkers } from "./workerLog.ts";
import { forkServerWorker, takeFirstWorker } from "./serverWorker.ts";
import { preloadJob, warmupJob, type EarlyWorkers } from "./warmup.ts";
import { adoptStartMarks, observeWorkers } from "./startTimeline.ts";

/** The pool, its size and its log until the server takes them (server.ts); undefined without a first worker. */
export const earlyWorkers: EarlyWorkers | undefined = makeEarlyPool();

function makeEarlyPool(): EarlyWorkers | undefined {
  let first = takeFirstWorker();
  if (!first) return undefined;
  adoptStartMarks(first.marks);
  /** The worker dist/server.js forked the first time, then a fresh fork each time. */
  const takeServerWorker = () => {
    const child = first?.child ?? forkServerWorker();
    first = undefined;
    return child;
  };
  const workerLines = new HeldLines();
  const early: EarlyWorkers = {
    // Until the server has read its settings: the default size, and its log to stderr (stdout may be the protocol).
    size: () => 2,
    log: (message) => process.stderr.write(`turnlens: ${message}\n`),
    pool: new WorkerPool({
      size: () => early.size(),
      log: (message) => early.log(message),
      factory: loggedWorkers(takeServerWorker, workerLines.say),
      observe: observeWorkers,
    }),
    workerLines,
  };
  // Trust is not known yet: the warm-ups are Turnlens's own files, in the temp folder, and run no
  // code of the workspace; an untrusted workspace (known at initialize) has the worker killed.
  early.pool.prewarm(1, { withFork: preloadJob(tmpdir()), whenIdle: warmupJob(tmpdir()) });
  return early;
}
