// The output channel's lines for the workers (window/logMessage through the logger): each worker's
// start and end. Apart from runLog.ts so server/earlyPool.ts, evaluated before the rest of the server, imports only this.
import type { WorkerFactory } from "../core/execution/pool.ts";
import { HELD_WORKER_LINES } from "./limits.ts";

/** What one line says and at which level the logger writes it. */
export interface LogLine {
  level: "error" | "warn" | "info" | "debug";
  text: string;
}

/** The line for a worker that ended: a clean exit (recycled, stopped) is info; a death (a signal, a crash) is a warning. */
export function workerExitLine(pid: number | undefined, code: number | null, signal: NodeJS.Signals | null): LogLine {
  const how = signal ? `killed by signal ${signal}` : `exit code ${code}`;
  if (code === 0 && !signal) return { level: "info", text: `worker ${pid ?? "?"} exited (${how})` };
  return { level: "warn", text: `worker ${pid ?? "?"} died (${how})` };
}

/**
 * A worker factory whose workers say when they start and end. Why a worker was killed (a blocked
 * test, a message it may not send) the pool logs itself; this says that it ended.
 */
export function loggedWorkers(factory: WorkerFactory, say: (line: LogLine) => void): WorkerFactory {
  return () => {
    const child = factory();
    say({ level: "info", text: `worker ${child.pid ?? "?"} started` });
    child.once("exit", (code, signal) => say(workerExitLine(child.pid, code, signal)));
    return child;
  };
}

/**
 * The worker lines of server/earlyPool.ts's early pool, whose first worker starts before the server
 * has a connection: held until the server attaches its log at initialize, then written at their
 * level (not to stderr, which the client's output channel shows as an `[error]` line).
 */
export class HeldLines {
  private held: LogLine[] = [];
  private to: ((line: LogLine) => void) | undefined;

  readonly say = (line: LogLine): void => {
    if (this.to) return this.to(line);
    if (this.held.length < HELD_WORKER_LINES) this.held.push(line);
  };

  attach(to: (line: LogLine) => void): void {
    this.to = to;
    for (const line of this.held.splice(0)) to(line);
  }
}
