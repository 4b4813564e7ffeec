// What a test file leaves behind in a warm worker is reaped when its run ends: the timers and
// intervals it set, the worker_threads it started and the processes it spawned (found by the
// file's tag in their environment, detached or re-parented ones too). So a timer left by file A
// never fires, or throws, while file B runs.
import { createRequire, syncBuiltinESMExports } from "node:module";
import { promisify } from "node:util";
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
      if (owner) {
        owner.spawned = true;
        owner.threads.add(this);
        this.once("exit", () => owner.threads.delete(this));
      }
    }
  };
  // Every way child_process starts a process marks the file as having spawned. Searching /proc for
  // the file's tag reads every process's environment, milliseconds on a busy machine: a file that
  // started nothing is spared it.
  const childProcess = createRequire(import.meta.url)("node:child_process") as Record<string, unknown>;
  for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]) {
    const original = childProcess[name];
    if (typeof original !== "function") continue;
    const marking = function (this: unknown, ...args: unknown[]) {
      if (scope) scope.spawned = true;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
    // exec and execFile keep their promisified forms (util.promisify(exec) resolves { stdout, stderr }).
    const custom = (original as unknown as Record<symbol, unknown>)[promisify.custom];
    if (typeof custom === "function") {
      const markingCustom = function (this: unknown, ...args: unknown[]) {
        if (scope) scope.spawned = true;
        return (custom as (...a: unknown[]) => unknown).apply(this, args);
      };
      Object.defineProperty(marking, promisify.custom, { value: markingCustom });
    }
    childProcess[name] = marking;
  }
  syncBuiltinESMExports();
}

/** Starts recording what the file's code starts; processes it spawns carry the returned tag. */
export function beginFileScope(): void {
  install();
  endFileScope();
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
