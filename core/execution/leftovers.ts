// What a test file leaves behind in a warm worker is reaped when its run ends: the timers and
// intervals it set, the worker_threads it started and the processes it spawned (found by the
// file's tag in their environment, detached or re-parented ones too). So a timer left by file A
// never fires, or throws, while file B runs.
import { createRequire, syncBuiltinESMExports } from "node:module";
import { promisify } from "node:util";
import { onProcessStart } from "./processStarts.ts";
import { killTagged, tagDescendants, untagDescendants } from "./processTree.ts";

type Kind = "timeout" | "interval" | "immediate";

interface Scope {
  tag: string;
  timers: Map<unknown, Kind>;
  threads: Set<{ terminate(): Promise<number> }>;
  /** Whether the file started a process or a thread: only then is /proc searched for its tag. */
  spawned: boolean;
}

let scope: Scope | null = null;
let installed = false;
let counter = 0;
/** Whether a file has begun: until then only the runner's own code has run in this worker. */
let filesBegun = false;
/**
 * Whether anything started a process or a thread since the first file began, inside a file's
 * scope or not (a file's stray code may spawn after its end): while not, no process carries this
 * worker's tag but esbuild's service, which the runner started, not detached, in the worker's
 * process group (killing the group kills it), so a clean exit needs no search of /proc.
 */
let startedSinceFiles = false;

/** A process or a thread was started: the file's scope, and the worker, are searched for it. */
function markStarted(): void {
  if (scope) scope.spawned = true;
  if (filesBegun) startedSinceFiles = true;
}

/** Whether the running file's code started a process or a thread, or loaded a native addon, so far. */
export function fileStartedAnything(): boolean {
  return scope?.spawned ?? false;
}

/** Whether anything may have started a process since the first file began (startedSinceFiles). */
export function startedProcesses(): boolean {
  return startedSinceFiles;
}

const real = {
  setTimeout: globalThis.setTimeout,
  setInterval: globalThis.setInterval,
  setImmediate: globalThis.setImmediate,
  clearTimeout: globalThis.clearTimeout,
  clearInterval: globalThis.clearInterval,
  clearImmediate: globalThis.clearImmediate,
};

/** Replaces the global timer functions and worker_threads' Worker with ones that record what a file starts. */
function install(): void {
  if (installed) return;
  installed = true;
  const wrapOnce = (kind: "timeout" | "immediate", start: (callback: (...args: unknown[]) => void, ...rest: unknown[]) => unknown) =>
    function (this: unknown, callback: unknown, ...rest: unknown[]) {
      const owner = scope;
      if (!owner || typeof callback !== "function") return start(callback as never, ...rest);
      let handle: unknown;
      const wrapped = function (this: unknown, ...args: unknown[]) {
        owner.timers.delete(handle);
        return (callback as (...a: unknown[]) => unknown).apply(this, args);
      };
      handle = start(wrapped, ...rest);
      owner.timers.set(handle, kind);
      return handle;
    };
  const timers = globalThis as unknown as Record<string, unknown>;
  // util.promisify(setTimeout) keeps working: the wrappers carry the originals' custom promisified forms.
  const withPromisified = (wrapped: object, original: object) =>
    Object.defineProperty(wrapped, promisify.custom, { value: (original as Record<symbol, unknown>)[promisify.custom] });
  timers.setTimeout = withPromisified(
    wrapOnce("timeout", (callback, ...rest) => real.setTimeout(callback, ...(rest as [number])) as unknown),
    real.setTimeout,
  );
  timers.setImmediate = withPromisified(
    wrapOnce("immediate", (callback, ...rest) => real.setImmediate(callback, ...rest)),
    real.setImmediate,
  );
  timers.setInterval = (callback: (...args: unknown[]) => void, ...rest: unknown[]) => {
    const handle = real.setInterval(callback, ...(rest as [number]));
    scope?.timers.set(handle, "interval");
    return handle;
  };
  for (const name of ["clearTimeout", "clearInterval", "clearImmediate"] as const) {
    const clear = real[name] as (handle: unknown) => void;
    timers[name] = (handle: unknown) => {
      scope?.timers.delete(handle);
      clear(handle);
    };
  }
  // worker_threads is a builtin the test imports itself: patch its export and re-sync the ESM view.
  const threads = createRequire(import.meta.url)("node:worker_threads") as {
    Worker: new (...args: never[]) => { terminate(): Promise<number>; once(event: string, listener: () => void): void };
  };
  const RealWorker = threads.Worker;
  threads.Worker = class extends RealWorker {
    constructor(...args: never[]) {
      super(...args);
      const owner = scope;
      markStarted();
      if (owner) {
        owner.threads.add(this);
        this.once("exit", () => owner.threads.delete(this));
      }
    }
  };
  // Every way of starting a process marks the file as having spawned (processStarts.ts). Searching
  // /proc for the file's tag reads every process's environment, milliseconds on a busy machine: a
  // file that started nothing is spared it.
  onProcessStart(() => markStarted());
  syncBuiltinESMExports();
}

/** Replaces the timer and process functions now, before any file runs (the worker's start). */
export function installFileScopes(): void {
  install();
}

/** Starts recording what the file's code starts; processes it spawns carry the returned tag. */
export function beginFileScope(): void {
  install();
  endFileScope();
  filesBegun = true;
  const tag = `file-${process.pid}-${++counter}`;
  scope = { tag, timers: new Map(), threads: new Set(), spawned: false };
  tagDescendants(tag);
}

/** Clears the file's timers, terminates its threads and kills its processes. */
export function endFileScope(): void {
  const ending = scope;
  if (!ending) return;
  scope = null;
  untagDescendants(ending.tag);
  for (const [handle, kind] of ending.timers) {
    if (kind === "interval") real.clearInterval(handle as NodeJS.Timeout);
    else if (kind === "timeout") real.clearTimeout(handle as NodeJS.Timeout);
    else real.clearImmediate(handle as NodeJS.Immediate);
  }
  for (const thread of ending.threads) void thread.terminate().catch(() => {});
  if (ending.spawned) killTagged(ending.tag);
}
