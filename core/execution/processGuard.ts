// Process-wide guards for a process that runs tests: process.exit throws instead of ending it,
// process.kill refuses to signal the runner above it, and errors no promise awaited go to the
// test that is running.
import { createRequire, syncBuiltinESMExports } from "node:module";
import { readFileSync } from "node:fs";
import { shapedLike } from "./shapedLike.ts";

const realExit = process.exit.bind(process);

/** Ends the process for real (process.exit is replaced while Turnlens runs tests). */
export function exitProcess(code?: number): never {
  return realExit(code);
}

export class ProcessExitError extends Error {
  constructor(code: unknown) {
    super(`the test called process.exit(${code === undefined ? "" : String(code)}); a test must not end the process`);
    this.name = "ProcessExitError";
  }
}

export class ProcessKillError extends Error {
  constructor(pid: number, signal: unknown) {
    super(
      `the test called process.kill(${pid}${signal === undefined ? "" : `, ${JSON.stringify(signal)}`}), which would signal the turnlens process that runs it; a test must not signal its runner`,
    );
    this.name = "ProcessKillError";
  }
}

export class ProcessFdError extends Error {
  constructor(what: string, fd: number, owner: string) {
    super(`the test ${what} file descriptor ${fd} (${owner}), which is turnlens's; a test must not ${what === "closed" ? "close" : "write to"} its runner's descriptors`);
    this.name = "ProcessFdError";
  }
}

/**
 * A test cannot close the worker's stdout, stderr or channel, nor write to the channel: its
 * runner's report would go (closing fd 1 and 2 aborted the worker after the file's last test,
 * which was then reported twice) or be garbled (bytes on the channel ended the whole run).
 */
function guardDescriptors(): void {
  const channelFd = (process as unknown as { channel?: { fd?: unknown } }).channel?.fd;
  const owners = new Map<number, string>([
    [0, "the worker's stdin"],
    [1, "the worker's stdout"],
    [2, "the worker's stderr"],
  ]);
  if (typeof channelFd === "number" && channelFd >= 0) owners.set(channelFd, "the worker's channel to turnlens");
  const fs = createRequire(import.meta.url)("node:fs") as Record<string, unknown>;
  const guard = (name: string, what: "closed" | "wrote to", refused: (fd: number) => boolean) => {
    const original = fs[name];
    if (typeof original !== "function") return;
    fs[name] = shapedLike(
      function (this: unknown, fd: unknown, ...rest: unknown[]) {
        if (typeof fd === "number" && refused(fd)) throw new ProcessFdError(what, fd, owners.get(fd) ?? "");
        return Reflect.apply(original, this, [fd, ...rest]);
      },
      original as (...args: never[]) => unknown,
    );
  };
  for (const name of ["close", "closeSync"]) guard(name, "closed", (fd) => owners.has(fd));
  if (typeof channelFd === "number" && channelFd >= 0) {
    for (const name of ["write", "writeSync", "writev", "writevSync", "writeFile", "writeFileSync", "appendFile", "appendFileSync"]) {
      guard(name, "wrote to", (fd) => fd === channelFd);
    }
  }
  // A test's `import { closeSync } from "node:fs"` reads the ES module view, synced here.
  syncBuiltinESMExports();
}

/** The process group of `pid`, read from /proc (Linux); undefined elsewhere. */
function groupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const group = Number(fields[2]);
    return Number.isInteger(group) && group > 0 ? group : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pids a test may not signal: the parent (the CLI or the language server), its process
 * group, and every process at once (-1). Its own worker and what it spawned stay fair game.
 */
function refusedTargets(): (pid: number) => boolean {
  const parent = process.ppid;
  const parentGroup = groupOf(parent) ?? parent;
  return (pid) => pid === parent || pid === -1 || pid === -parent || pid === -parentGroup;
}

type Sink = (error: unknown) => void;
let sink: Sink | null = null;

/** The process's error listeners when the file began: any other is the test's own. */
let listenersBefore = new Set<unknown>();

/** Routes uncaught errors to `next` (the running test), or to stderr when null. */
export function routeStrayErrors(next: Sink | null): void {
  sink = next;
  listenersBefore = next ? new Set([...process.listeners("uncaughtException"), ...process.listeners("unhandledRejection")]) : new Set();
}

/**
 * Whether the test file listens for `event` itself: as Vitest does, an error it listens for is
 * taken as handled by it (a test of its own `process.on("unhandledRejection")`), not a failure.
 */
function handledByTest(event: "uncaughtException" | "unhandledRejection"): boolean {
  const listeners = event === "uncaughtException" ? process.listeners("uncaughtException") : process.listeners("unhandledRejection");
  return sink !== null && listeners.some((listener) => !listenersBefore.has(listener));
}
let guarded = false;

/** Installs, once per process, the process.exit replacement and the uncaught-error routing. */
export function guardProcess(): void {
  if (guarded) return;
  guarded = true;
  process.exit = ((code?: number) => {
    throw new ProcessExitError(code);
  }) as typeof process.exit;
  guardDescriptors();
  const refused = refusedTargets();
  const realKill = process.kill.bind(process);
  process.kill = ((pid: number, signal?: string | number) => {
    // Signal 0 only asks whether the process exists.
    if (signal !== 0 && refused(Number(pid))) throw new ProcessKillError(Number(pid), signal);
    return realKill(pid, signal);
  }) as typeof process.kill;
  const route = (error: unknown, event: "uncaughtException" | "unhandledRejection") => {
    if (handledByTest(event)) return;
    if (sink) sink(error);
    else {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`turnlens: an error was thrown while no test was running:\n${text}\n`);
    }
  };
  process.on("uncaughtException", (error) => route(error, "uncaughtException"));
  process.on("unhandledRejection", (error) => route(error, "unhandledRejection"));
}
