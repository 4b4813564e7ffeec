// How `test(name, fn?, options?)` and `describe(...)` read their arguments (options before or after the
// body, a number as a timeout, a function or class as a name): one reading for the runner's own API
// (testApi.ts) and the Vitest plugin's `bun:test` (core/vitest/bunTest.ts).

export interface TestOptions {
  /** Milliseconds before the test fails as timed out. */
  timeout?: number;
  /** Reruns a failing test up to this many more times. */
  retry?: number;
  skip?: boolean;
  only?: boolean;
  todo?: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: a test body may take any arguments (a .each row)
type AnyFunction = (...args: any[]) => unknown;

export type NameLike = string | number | AnyFunction | { name: string };

export function nameOf(name: NameLike): string {
  if (typeof name === "string") return name;
  if (typeof name === "number") return String(name);
  if (typeof name === "function" || (typeof name === "object" && name !== null)) return name.name;
  return String(name);
}

/** The body and the options, whichever order they came in; the body is left out when there is none. */
export function splitArgs<F>(a: unknown, b: unknown): { fn?: F; options: TestOptions } {
  let fn: unknown = a;
  let options: unknown = b;
  if (typeof a !== "function" && typeof b === "function") {
    fn = b;
    options = a;
  }
  const opts: TestOptions = typeof options === "number" ? { timeout: options } : ((options as TestOptions) ?? {});
  return fn === undefined ? { options: opts } : { fn: fn as F, options: opts };
}
