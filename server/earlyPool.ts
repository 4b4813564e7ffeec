// dist/serverEarlyPool.js, loaded by dist/server.js (start.ts) once the first worker is forked: the
// worker pool that takes that worker and sends it the preload file, handed to the server's bundle
// (dist/serverMain.js, main.ts), which it then loads, so the worker's start and warm-up overlap that load.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkerPool } from "../core/execution/pool.ts";
import { requireWithCodeCache } from "../core/execution/codeCache.ts";
import { HeldLines, loggedWorkers } from "./workerLog.ts";
import { forkServerWorker, takeFirstWorker } from "./serverWorker.ts";
import { handOverEarlyWorkers, preloadJob, warmupJob, type EarlyWorkers } from "./warmup.ts";
import { adoptStartMarks, observeWorkers, startMarks } from "./startTimeline.ts";

let first = takeFirstWorker();
if (first) adoptStartMarks(first.marks);
/** The worker dist/server.js forked the first time, then a fresh fork each time. */
function takeServerWorker() {
  const child = first?.child ?? forkServerWorker();
  first = undefined;
  return child;
}

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
  startMarks: startMarks(),
};
// Trust is not known yet: the warm-ups are Turnlens's own files, in the temp folder, and run no
// code of the workspace; an untrusted workspace (known at initialize) has the worker killed.
early.pool.prewarm(1, { withFork: preloadJob(tmpdir()), whenIdle: warmupJob(tmpdir()) });
handOverEarlyWorkers(early);
// The server is the other bundle (esbuild does not follow this path).
requireWithCodeCache(join(__dirname, "serverMain.js"));
