// How the language server forks a worker (dist/worker.mjs beside its bundle, with its Node flags),
// and the hand-over of the first one: dist/server.js forks it before anything else loads
// (firstWorker.ts) and the server's bundle, whose pool (earlyPool.ts) takes it; only a global
// crosses from one bundle to the other.
import { join } from "node:path";
import { processSlot } from "../core/execution/processSlot.ts";
import { forkWorker } from "../core/execution/workerProcess.ts";
import { WORKER_HEAP_MB } from "./limits.ts";
import type { Mark } from "./startTimeline.ts";

type ChildProcess = ReturnType<typeof forkWorker>;

/** Forks a worker of the language server: dist/worker.mjs, beside this bundle. */
export function forkServerWorker(): ChildProcess {
  return forkWorker({
    // The worker entry next to this bundle: dist/worker.mjs, beside dist/server.js (the bundle keeps this comment: ASCII only, codeCache.ts).
    entry: join(__dirname, "worker.mjs"),
    env: { NO_COLOR: "1" },
    // A test that exhausts memory crashes its worker (reported, respawned), not the machine. No
    // --enable-source-maps, as `turnlens test`'s workers: it had Node read and parse the source maps
    // of the worker's own ~4 MB of modules at every start (~40-60 ms on a loaded machine), where the
    // worker turns maps on itself for the test files (their frames are the ones reports show).
    execArgv: [`--max-old-space-size=${WORKER_HEAP_MB}`],
  });
}

/** The worker dist/server.js forked first, and the start's marks made so far (startTimeline.ts). */
export interface FirstWorker {
  child: ChildProcess;
  marks: Mark[];
}

const firstWorker = processSlot<FirstWorker>("firstWorker");

/** Leaves the first worker for the bundle that makes the pool. */
export function handOverFirstWorker(first: FirstWorker): void {
  firstWorker.set(first);
}

/** The first worker, once: undefined when this process did not start through dist/server.js. */
export function takeFirstWorker(): FirstWorker | undefined {
  return firstWorker.take();
}
