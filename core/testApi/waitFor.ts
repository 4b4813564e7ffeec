// `vi.waitFor` and `vi.waitUntil`, Vitest 4's: a callback retried every `interval` ms until it
// passes (or returns truthy) or `timeout` ms pass. They wait on the real timers saved when this
// module loaded, so a test's fake timers cannot stop them (they move those on instead).
import { advanceFakeTimersBy } from "./fakeTimers.ts";

const real = {
  setTimeout: globalThis.setTimeout,
  setInterval: globalThis.setInterval,
  clearTimeout: globalThis.clearTimeout,
  clearInterval: globalThis.clearInterval,
};

export interface WaitForOptions {
  /** How long to wait, in ms (1000). */
  timeout?: number;
  /** How often to check, in ms (50). */
  interval?: number;
}

function optionsOf(options: number | WaitForOptions): Required<WaitForOptions> {
  const { interval = 50, timeout = 1000 } = typeof options === "number" ? { timeout: options } : options;
  return { interval, timeout };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" && typeof (value as PromiseLike<unknown>).then === "function";
}

function withStackOf(target: Error, source: Error): Error {
  if (source.stack !== undefined) target.stack = source.stack.replace(source.message, target.message);
  return target;
}

/** Waits until `callback` neither throws nor rejects; fails with its last error at the timeout. */
export function waitFor<T>(callback: () => T | Promise<T>, options: number | WaitForOptions = {}): Promise<T> {
  const { interval, timeout } = optionsOf(options);
  const stackError = new Error("STACK_TRACE_ERROR");
  return new Promise<T>((resolve, reject) => {
    let lastError: unknown;
    let status: "idle" | "pending" | "resolved" | "rejected" = "idle";
    let timeoutId: ReturnType<typeof setTimeout> | undefined;
    let intervalId: ReturnType<typeof setInterval> | undefined;
    const done = (result: T) => {
      if (timeoutId) real.clearTimeout(timeoutId);
      if (intervalId) real.clearInterval(intervalId);
      resolve(result);
    };
    const onTimeout = () => {
      if (intervalId) real.clearInterval(intervalId);
      reject(lastError ?? withStackOf(new Error("Timed out in waitFor!"), stackError));
    };
    const check = (): boolean | undefined => {
      advanceFakeTimersBy(interval);
      if (status === "pending") return undefined;
      try {
        const result = callback();
        if (isThenable(result)) {
          status = "pending";
          result.then(
            (value) => {
              status = "resolved";
              done(value as T);
            },
            (error) => {
              status = "rejected";
              lastError = error;
            },
          );
        } else {
          done(result as T);
          return true;
        }
      } catch (error) {
        lastError = error;
      }
      return undefined;
    };
    if (check() === true) return;
    timeoutId = real.setTimeout(onTimeout, timeout);
    intervalId = real.setInterval(check, interval);
  });
}

/** Waits until `callback` returns a truthy value; any error it throws ends the wait at once. */
export function waitUntil<T>(callback: () => T | Promise<T>, options: number | WaitForOptions = {}): Promise<T> {
  const { interval, timeout } = optionsOf(options);
  const stackError = new Error("STACK_TRACE_ERROR");
  return new Promise<T>((resolve, reject) => {
    let status: "idle" | "pending" | "resolved" | "rejected" = "idle";
    let timeoutId: ReturnType<typeof setTimeout> | undefined;
    let intervalId: ReturnType<typeof setInterval> | undefined;
    const fail = (error?: unknown) => {
      if (intervalId) real.clearInterval(intervalId);
      reject(error ?? withStackOf(new Error("Timed out in waitUntil!"), stackError));
    };
    const succeed = (result: T): boolean | undefined => {
      if (!result) return undefined;
      if (timeoutId) real.clearTimeout(timeoutId);
      if (intervalId) real.clearInterval(intervalId);
      resolve(result);
      return true;
    };
    const check = (): boolean | undefined => {
      advanceFakeTimersBy(interval);
      if (status === "pending") return undefined;
      try {
        const result = callback();
        if (isThenable(result)) {
          status = "pending";
          result.then(
            (value) => {
              status = "resolved";
              succeed(value as T);
            },
            (error) => {
              status = "rejected";
              fail(error);
            },
          );
          return undefined;
        }
        return succeed(result as T);
      } catch (error) {
        fail(error);
        return undefined;
      }
    };
    if (check() === true) return;
    timeoutId = real.setTimeout(() => fail(), timeout);
    intervalId = real.setInterval(check, interval);
  });
}
