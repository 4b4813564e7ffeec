// Starting a worker process: dist/worker.mjs forked with an IPC channel, piped output (over the
// language server's --stdio its own stdout is the protocol) and plain-text messages, as the
// leader of a process group of its own, so that killing the group kills what its tests spawned.
import { fork, type ChildProcess } from "node:child_process";
import { workerEntry } from "./paths.ts";

export interface WorkerProcessOptions {
  /** The worker script; defaults to this install's dist/worker.mjs. */
  entry?: string;
  /** Node options of the worker, such as a heap limit. */
  execArgv?: string[];
  /** Added to the worker's environment. */
  env?: Record<string, string>;
  /** The script's arguments (the language server's `turnlens record` runs the CLI as its entry). */
  args?: string[];
}

/**
 * The worker's environment: no colour in what it prints. NO_COLOR, where set, already says so, and
 * FORCE_COLOR beside it makes Node 24 warn on every start, so only one of the two is set.
 */
export function workerEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0", ...extra };
  if (env.NO_COLOR) delete env.FORCE_COLOR;
  return env;
}

/**
 * Node's flags every worker starts with. A young generation of at most 2 MB a semi-space (Node's
 * default grows it to 16): a worker that runs many small test files keeps little alive between
 * them, and the 32 MB of new space V8 otherwise commits stayed resident in each worker (a worker
 * through 100 files of ten tests: 140 MB at the end, 127-129 MB with it, no slower).
 */
const WORKER_NODE_FLAGS = ["--max-semi-space-size=2"];

export function forkWorker(options: WorkerProcessOptions = {}): ChildProcess {
  return fork(options.entry ?? workerEntry(), options.args ?? [], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "json",
    env: workerEnvironment(options.env),
    execArgv: [...WORKER_NODE_FLAGS, ...(options.execArgv ?? [])],
    // setsid(): the worker leads a new process group (and a terminal's Ctrl-C reaches only its owner).
    detached: process.platform !== "win32",
  });
}
