// `expect.poll(fn, { interval, timeout })`: the assertion retried on fn's latest value until it
// passes or the time is up, as Vitest's createExpectPoll does (vitest/dist's test chunk), on the
// timers the worker had at its start so a test's fake or replaced timers cannot stall it.
import "./plainColors.ts";
import { type Assertion, type ExpectPollOptions, type ExpectStatic, type PromisifyAssertion, chai } from "@vitest/expect";
import type { ExpectTask } from "./expectTest.ts";
import { advanceFakeTimersBy } from "./fakeTimers.ts";

// Matchers that make no sense retried (Vitest's list): refused with its words.
const unsupported = [
  "matchSnapshot",
  "toMatchSnapshot",
  "toMatchInlineSnapshot",
  "toThrowErrorMatchingSnapshot",
  "toThrowErrorMatchingInlineSnapshot",
  "throws",
  "Throw",
  "throw",
  "toThrow",
  "toThrowError",
];

const safeSetTimeout = globalThis.setTimeout;
const safeClearTimeout = globalThis.clearTimeout;
const DEFAULT_INTERVAL = 50;
const DEFAULT_TIMEOUT = 1000;

function copyStackTrace(target: Error, source: Error): Error {
  if (source.stack !== undefined) target.stack = source.stack.replace(source.message, target.message);
  return target;
}

function throwWithCause(error: unknown, source: Error): never {
  if (error instanceof Error) {
    if (error.cause == null) error.cause = new Error("Matcher did not succeed in time.");
    throw copyStackTrace(error, source);
  }
  throw error;
}

type Flagged = Assertion & { withContext(context: object): Assertion };

/** `expect.poll` for `expect`, which must be called inside a running test. */
export function createExpectPoll(expect: ExpectStatic): ExpectStatic["poll"] {
  return function poll<T>(fn: () => T, options: ExpectPollOptions = {}): PromisifyAssertion<Awaited<T>> {
    const { interval = DEFAULT_INTERVAL, timeout = DEFAULT_TIMEOUT, message } = options;
    const assertion = (expect(null, message) as Flagged).withContext({ poll: true });
    const bound = fn.bind(assertion);
    const test = chai.util.flag(assertion, "vitest-test") as ExpectTask | undefined;
    if (!test) throw new Error("expect.poll() must be called inside a test");
    const proxy: object = new Proxy(assertion, {
      get(target, key, receiver) {
        const assertionFunction = Reflect.get(target, key, receiver);
        if (typeof assertionFunction !== "function") return assertionFunction instanceof chai.Assertion ? proxy : assertionFunction;
        if (key === "assert") return assertionFunction;
        if (typeof key === "string" && unsupported.includes(key)) {
          throw new SyntaxError(`expect.poll() is not supported in combination with .${key}(). Use vi.waitFor() if your assertion condition is unstable.`);
        }
        return function __VITEST_POLL_CHAIN__(...args: unknown[]) {
          const STACK_TRACE_ERROR = new Error("STACK_TRACE_ERROR");
          const run = async () => {
            chai.util.flag(assertion, "_name", key);
            chai.util.flag(assertion, "error", STACK_TRACE_ERROR);
            let phase: "fn" | "assertion" = "fn";
            let timedOut = false;
            const timer = safeSetTimeout(() => {
              timedOut = true;
            }, timeout);
            try {
              while (true) {
                const lastAttempt = timedOut;
                if (lastAttempt) chai.util.flag(assertion, "_isLastPollAttempt", true);
                try {
                  phase = "fn";
                  const value = await bound();
                  chai.util.flag(assertion, "object", value);
                  phase = "assertion";
                  return await assertionFunction.call(assertion, ...args);
                } catch (error) {
                  if (lastAttempt || (phase === "assertion" && chai.util.flag(assertion, "_poll.assert_once"))) throwWithCause(error, STACK_TRACE_ERROR);
                  await new Promise((resolve) => safeSetTimeout(resolve, interval));
                  // Under fake timers each retry moves them on by the interval, as Vitest's does, so a
                  // value a faked timer sets is seen.
                  advanceFakeTimersBy(interval);
                }
              }
            } finally {
              safeClearTimeout(timer);
            }
          };
          let awaited = false;
          test.onFinished ??= [];
          test.onFinished.push(() => {
            if (!awaited) {
              const negated = chai.util.flag(assertion, "negate") ? "not." : "";
              const text = `expect.poll(assertion).${negated}${String(key)}()`;
              throw copyStackTrace(
                new Error(
                  `${text} was not awaited. This assertion is asynchronous and must be awaited; otherwise, it is not executed to avoid unhandled rejections:\n\nawait ${text}\n`,
                ),
                STACK_TRACE_ERROR,
              );
            }
          });
          let result: Promise<unknown> | undefined;
          // Only `then` shows it was awaited; the promise starts on it, as Vitest's does.
          return {
            // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, so an unawaited poll is caught (above)
            then(onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) {
              awaited = true;
              result ??= run();
              return result.then(onFulfilled, onRejected);
            },
            catch(onRejected?: (reason: unknown) => unknown) {
              awaited = true;
              result ??= run();
              return result.catch(onRejected);
            },
            finally(onFinally?: () => void) {
              awaited = true;
              result ??= run();
              return result.finally(onFinally);
            },
            [Symbol.toStringTag]: "Promise",
          };
        };
      },
    });
    return proxy as PromisifyAssertion<Awaited<T>>;
  };
}
