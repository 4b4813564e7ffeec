// Every handler the server registers goes through `guard`: a thrown error becomes an LSP error
// (for a request) and a log line, never a crash of the server. So do its timers' callbacks and the
// promises it starts without awaiting (a notification sent to a client that is gone).
import { ErrorCodes, ResponseError } from "vscode-languageserver";
import type { Timer } from "./scheduler.ts";
import type { Logger } from "./state.ts";

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * The document a request is about: its `textDocument.uri`, or a command's first argument when that
 * is a uri (`turnlens.runFile`, `turnlens.runTest`, …).
 */
export function documentOfRequest(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const document = (params as { textDocument?: { uri?: unknown } }).textDocument;
  if (typeof document?.uri === "string") return document.uri;
  const first = (params as { arguments?: unknown }).arguments;
  return Array.isArray(first) && typeof first[0] === "string" && first[0].includes(":") ? first[0] : undefined;
}

/** Wraps a request handler: a throw or a rejection answers with InternalError. */
export function guardRequest<P, R, T extends unknown[]>(log: Logger, name: string, handler: (params: P, ...rest: T) => R | Promise<R>) {
  return async (params: P, ...rest: T): Promise<R | ResponseError<never>> => {
    try {
      return await handler(params, ...rest);
    } catch (error) {
      log.error(`${name} failed: ${describe(error)}`);
      return new ResponseError<never>(ErrorCodes.InternalError, `turnlens: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

/** Wraps a notification handler or an event listener: a throw is logged and dropped. */
export function guardNotification<P extends unknown[]>(log: Logger, name: string, handler: (...params: P) => void | Promise<void>) {
  return (...params: P): void => {
    try {
      const result = handler(...params);
      if (result instanceof Promise) result.catch((error: unknown) => log.error(`${name} failed: ${describe(error)}`));
    } catch (error) {
      log.error(`${name} failed: ${describe(error)}`);
    }
  };
}

/** The timer every part of the server uses: a callback that throws is logged, not fatal. */
export function guardTimer(log: Logger, timer: Timer): Timer {
  return {
    setTimeout: (callback, ms) => timer.setTimeout(guardNotification(log, "timer", callback), ms),
    clearTimeout: (handle) => timer.clearTimeout(handle),
  };
}

/** A promise nobody awaits (a notification sent, a refresh asked): its rejection is logged, never unhandled. */
export function forget(log: Logger, name: string, promise: Promise<unknown>): void {
  promise.catch((error: unknown) => log.debug(`${name} failed: ${describe(error)}`));
}
