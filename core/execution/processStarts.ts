// Hears of every process this process starts, however it is started: what lets a worker, and the
// CLI, skip searching /proc for processes left behind when none can have been started.
import { createRequire, syncBuiltinESMExports } from "node:module";

/** Told of each start: the child's pid when known (an asynchronous start that succeeded), else undefined. */
type Listener = (pid: number | undefined) => void;

const listeners: Listener[] = [];
let installed = false;

function started(pid: number | undefined): void {
  for (const listener of listeners) listener(pid);
}

/**
 * Calls `listener` whenever this process starts a process from now on. Every asynchronous start
 * (spawn, exec, execFile, fork, a `new ChildProcess().spawn(...)`) goes through ChildProcess's own
 * spawn; the synchronous ones through the exported spawnSync, execSync and execFileSync, or the
 * bindings process.binding still hands out; a native addon (process.dlopen) may start anything.
 */
export function onProcessStart(listener: Listener): void {
  listeners.push(listener);
  if (installed) return;
  installed = true;
  const childProcess = createRequire(import.meta.url)("node:child_process") as Record<string, unknown>;
  const prototype = (childProcess.ChildProcess as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  const spawnMethod = prototype?.spawn;
  if (prototype && typeof spawnMethod === "function") {
    prototype.spawn = function (this: { pid?: number }, ...args: unknown[]) {
      try {
        return (spawnMethod as (...a: unknown[]) => unknown).apply(this, args);
      } finally {
        started(typeof this.pid === "number" ? this.pid : undefined);
      }
    };
  }
  for (const name of ["spawnSync", "execSync", "execFileSync"]) {
    const original = childProcess[name];
    if (typeof original !== "function") continue;
    childProcess[name] = function (this: unknown, ...args: unknown[]) {
      started(undefined);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  const hooks = process as unknown as Record<string, unknown>;
  for (const name of ["binding", "dlopen"]) {
    const original = hooks[name];
    if (typeof original !== "function") continue;
    hooks[name] = function (this: unknown, ...args: unknown[]) {
      if (name === "dlopen" || args[0] === "spawn_sync" || args[0] === "process_wrap") started(undefined);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  syncBuiltinESMExports();
}
