// dist/server.js, the language server's entry: forks and warms one worker first (firstWorker.ts,
// imported first so the fork comes before the rest of this bundle loads), then loads the server
// itself (dist/serverMain.js, server/main.ts: ~11 MB with the TypeScript compiler inside; through a
// V8 code cache, codeCache.ts), so the worker's start and warm-up overlap that load.
import { takeServerWorker } from "./firstWorker.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkerPool } from "../core/execution/pool.ts";
import { requireWithCodeCache } from "../core/execution/codeCache.ts";
import { HeldLines, loggedWorkers } from "./workerLog.ts";
import { handOverEarlyWorkers, preloadJob, warmupJob, type EarlyWorkers } from "./warmup.ts";
import { markStart, observeWorkers, startMarks } from "./startTimeline.ts";

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
markStart("server bundle loaded");
