// `bun:test` under Vitest (served by plugin.ts): bun's names mapped onto Vitest's own test API, so
// the tests are Vitest tests in its reports, with the same meaning as core/testApi/testApi.ts gives
// them under `turnlens test` (done callbacks, test.failing, test.if, row names, bun's matchers).
// The plugin hands it the project's own `vitest` module (`bunTestOn`), so it never resolves a
// Vitest of its own (a linked Turnlens clone has one in its node_modules).
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { argsOfRow, formatEachName, rowsOf } from "../testApi/eachTable.ts";
import { bunOnlyMatchers } from "../testApi/bunOnlyMatchers.ts";
import { replaceProperty, restoreReplacedProperties } from "../testApi/replacedProperties.ts";
import { type NameLike, nameOf, splitArgs, type TestOptions } from "../testApi/testArguments.ts";
import { type ModifierFlags, noModifierFlags, withModifiers } from "../testApi/testModifiers.ts";

// biome-ignore lint/suspicious/noExplicitAny: any function, whatever its parameters (unknown[] would refuse most)
type AnyFn = (...args: any[]) => unknown;
// Vitest's callable chains, loosely typed: the public types are testApi.ts's (docs/vitest.md).
type VitestChain = AnyFn & Record<string, AnyFn & Record<string, AnyFn>>;

type VitestHook = (fn: AnyFn, timeout?: number) => void;
interface VitestExpect {
  (actual: unknown): unknown;
  extend(matchers: Record<string, AnyFn>): void;
}

/**
 * Vitest's runtime API as far as this file uses it (the `vitest` module the plugin passes in).
 * This file does not import Vitest's types: this repository's tsconfig maps "vitest" onto the API
 * `turnlens test` serves under that name, for test files.
 */
export interface VitestRuntime {
  test: VitestChain;
  describe: VitestChain;
  beforeAll: VitestHook;
  afterAll: VitestHook;
  beforeEach: VitestHook;
  afterEach: VitestHook;
  onTestFinished: (fn: AnyFn) => void;
  expect: VitestExpect;
  chai: { Assertion: { prototype: object } };
  vi: {
    fn: AnyFn;
    spyOn: AnyFn;
    mocked: AnyFn;
    isMockFunction: (value: unknown) => boolean;
    setConfig(config: { testTimeout?: number }): void;
    setSystemTime(time: number | string | Date): unknown;
    getRealSystemTime(): number;
    isFakeTimers(): boolean;
    useRealTimers(): unknown;
    clearAllMocks(): unknown;
    resetAllMocks(): unknown;
    restoreAllMocks(): unknown;
    doMock(path: string, factory?: AnyFn): unknown;
  };
}

/**
 * A relative path made absolute from the file that called mock.module (Vitest would resolve it
 * from this module, which called vi.doMock); a package name as it is.
 */
function pathFromCaller(path: string, stack: string | undefined): string {
  if (!path.startsWith("./") && !path.startsWith("../")) return path;
  const files = (stack ?? "")
    .split("\n")
    .map((line) => /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?\s*$/.exec(line)?.[1])
    .filter((file): file is string => file !== undefined)
    .map((file) => (file.startsWith("file://") ? fileURLToPath(file) : file));
  const caller = files.find((file) => file !== files[0]);
  return caller ? resolve(dirname(caller), path) : path;
}

// Set once by bunTestOn, before a test file can declare anything.
let vi: VitestRuntime["vi"];
let vitestExpect: VitestExpect;
let vitestOnTestFinished: VitestRuntime["onTestFinished"];
let vitestTests: VitestChain;
let vitestSuites: VitestChain;

type Flags = ModifierFlags;
const noFlags = noModifierFlags;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as PromiseLike<unknown>).then === "function";
}

/** What Vitest hands a test or hook, as far as a bun test's context reads it. */
interface VitestContext {
  expect?: unknown;
  task?: unknown;
  skip?: unknown;
  signal?: AbortSignal;
  onTestFinished?: unknown;
}

/**
 * Calls a bun test or hook body as `turnlens test` does: its parameter is bun's `done` callback,
 * which also carries Vitest's context; a body that takes it and returns no promise ends when it
 * calls done. Resolves with the body's result (a hook's teardown function).
 */
function callBunBody(fn: AnyFn, context: VitestContext | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      if (error === undefined || error === null) resolve(undefined);
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    const bunContext = Object.assign(done, {
      task: context?.task,
      skip:
        context?.skip ??
        ((): never => {
          throw new Error("skip() can only be called in a test or in a beforeEach/afterEach hook");
        }),
      signal: context?.signal ?? new AbortController().signal,
      onTestFinished: context?.onTestFinished ?? vitestOnTestFinished,
    });
    // Read only when the body asks: Vitest counts `expect.assertions` on the context's own expect
    // once it exists, and on the global one (the one `bun:test` exports) until then.
    Object.defineProperty(bunContext, "expect", { get: () => context?.expect ?? vitestExpect, enumerable: true });
    let result: unknown;
    try {
      result = fn(bunContext);
    } catch (error) {
      reject(error);
      return;
    }
    if (isThenable(result)) result.then(resolve, (error) => reject(error ?? new Error(`the body rejected with ${String(error)}`)));
    else if (fn.length === 0) resolve(result);
  });
}

/**
 * The Vitest body of a bun body. It declares no parameter and reads its context from `arguments`:
 * Vitest reads a body's first parameter as a destructuring of its fixtures, and refuses any other.
 */
function contextFree(fn: AnyFn): () => Promise<unknown> {
  return function (this: unknown) {
    // biome-ignore lint/complexity/noArguments: a declared parameter would be read as fixtures (above)
    return callBunBody(fn, arguments[0] as VitestContext | undefined);
  };
}

// ---------------------------------------------------------------------------------------------
// Declaring tests

function declareTest(flags: Flags, name: NameLike, a?: unknown, b?: unknown, args?: unknown[]): void {
  const { fn, options } = splitArgs<AnyFn>(a, b);
  const title = nameOf(name);
  if (flags.todo || options.todo === true || typeof fn !== "function") {
    vitestTests.todo!(title);
    return;
  }
  let chain: VitestChain = vitestTests;
  if (flags.skip || options.skip === true) chain = chain.skip as VitestChain;
  else if (flags.only || options.only === true) chain = chain.only as VitestChain;
  if (flags.failing) chain = chain.fails as VitestChain;
  const vitestOptions: { timeout?: number; retry?: number } = {};
  if (typeof options.timeout === "number" && options.timeout > 0) vitestOptions.timeout = options.timeout;
  if (typeof options.retry === "number" && options.retry > 0) vitestOptions.retry = Math.floor(options.retry);
  chain(title, vitestOptions, args ? () => fn(...args) : contextFree(fn));
}

function declareSuite(flags: Flags, name: NameLike, a?: unknown, b?: unknown): void {
  const { fn, options } = splitArgs<AnyFn>(a, b);
  const title = nameOf(name);
  let chain: VitestChain = vitestSuites;
  if (flags.skip || flags.todo || options.skip === true) chain = chain.skip as VitestChain;
  else if (flags.only || options.only === true) chain = chain.only as VitestChain;
  chain(title, () => {
    const result = typeof fn === "function" ? fn() : undefined;
    if (isThenable(result)) {
      // As under `turnlens test`: Vitest would await it, bun and Turnlens do not.
      throw new Error(
        `describe("${title}") was given an async function; a describe callback must declare its tests synchronously (await inside the tests or in beforeAll)`,
      );
    }
  });
}

function makeTest(flags: Flags): AnyFn {
  const declare = (name: NameLike, a?: unknown, b?: unknown) => declareTest(flags, name, a, b);
  return withModifiers(declare, flags, {
    make: makeTest,
    failing: true,
    // Rows are named by Turnlens's rules (eachTable.ts), so a row's test has one name everywhere.
    each: (table: unknown, ...values: unknown[]) => {
      const rows = rowsOf(table, values);
      return (name: string, body?: AnyFn, options?: number | TestOptions) => {
        rows.forEach((row, index) => declareTest(flags, formatEachName(name, row, index), body, options, argsOfRow(row)));
      };
    },
  });
}

function makeDescribe(flags: Flags): AnyFn {
  const declare = (name: NameLike, a?: unknown, b?: unknown) => declareSuite(flags, name, a, b);
  return withModifiers(declare, flags, {
    make: makeDescribe,
    each: (table: unknown, ...values: unknown[]) => {
      const rows = rowsOf(table, values);
      return (name: string, body: AnyFn) => {
        rows.forEach((row, index) => declareSuite(flags, formatEachName(name, row, index), () => body(...argsOfRow(row))));
      };
    },
  });
}

function hook(kind: string, vitestHook: VitestHook, passesContext: boolean): (fn: AnyFn, timeout?: number) => void {
  return (fn, timeout) => {
    if (typeof fn !== "function") throw new Error(`${kind}() needs a function`);
    const body = passesContext ? contextFree(fn) : () => callBunBody(fn, undefined);
    if (typeof timeout === "number" && timeout > 0) vitestHook(body, timeout);
    else vitestHook(body);
  };
}

/** bun's `setDefaultTimeout`: the default timeout of the tests in this file. */
function setDefaultTimeout(ms: number): void {
  vi.setConfig({ testTimeout: ms });
}

/** bun's `setSystemTime(time?)`: Vitest's; with no time (or 0), the real date back, the timers as they were. */
function setSystemTime(time?: number | string | Date): void {
  if (time !== undefined && (time instanceof Date ? time.getTime() : time) !== 0) vi.setSystemTime(time);
  else if (vi.isFakeTimers()) vi.setSystemTime(vi.getRealSystemTime());
  else vi.useRealTimers();
}

function restoreAllMocks(): void {
  vi.restoreAllMocks();
  restoreReplacedProperties();
}

/** The fake-timer calls bun's `jest` shares with Vitest's `vi`. */
const JEST_TIMER_NAMES = [
  "useFakeTimers",
  "useRealTimers",
  "isFakeTimers",
  "advanceTimersByTime",
  "advanceTimersByTimeAsync",
  "advanceTimersToNextTimer",
  "advanceTimersToNextTimerAsync",
  "runAllTimers",
  "runAllTimersAsync",
  "runOnlyPendingTimers",
  "runOnlyPendingTimersAsync",
  "runAllTicks",
  "getTimerCount",
  "clearAllTimers",
  "setSystemTime",
  "getRealSystemTime",
] as const;

/** The names `bun:test` has under Vitest: the plugin's virtual module re-exports each. */
export const bunTestNames = [
  "test",
  "it",
  "describe",
  "suite",
  "beforeAll",
  "afterAll",
  "beforeEach",
  "afterEach",
  "onTestFinished",
  "setDefaultTimeout",
  "setSystemTime",
  "expect",
  "fn",
  "spyOn",
  "mock",
  "jest",
  "vi",
  "formatEachName",
] as const;

export type BunTestOnVitest = Record<(typeof bunTestNames)[number], unknown>;

let built: { runtime: VitestRuntime; api: BunTestOnVitest } | undefined;

/** `bun:test` on the given Vitest: the project's own `vitest` module, as the test file sees it. */
export function bunTestOn(runtime: VitestRuntime): BunTestOnVitest {
  if (built?.runtime === runtime) return built.api;
  vi = runtime.vi;
  vitestExpect = runtime.expect;
  vitestOnTestFinished = runtime.onTestFinished;
  vitestTests = runtime.test;
  vitestSuites = runtime.describe;

  // expect: Vitest's, plus bun's matchers that Vitest lacks. Where Vitest has a matcher of the
  // same name (toSatisfy, toBeOneOf, toBeTypeOf, toHaveBeenCalledOnce) its own stays, so an
  // assertion means the same whether the file took `expect` from "vitest" or from "bun:test".
  const vitestMatchers = runtime.chai.Assertion.prototype;
  const missing = Object.fromEntries(Object.entries(bunOnlyMatchers).filter(([name]) => !(name in vitestMatchers)));
  runtime.expect.extend(missing as unknown as Record<string, AnyFn>);

  const test = makeTest(noFlags);
  const describe = makeDescribe(noFlags);
  const api: BunTestOnVitest = {
    test,
    it: test,
    describe,
    suite: describe,
    // beforeAll and afterAll get Vitest's suite, not a test's context.
    beforeAll: hook("beforeAll", runtime.beforeAll, false),
    afterAll: hook("afterAll", runtime.afterAll, false),
    beforeEach: hook("beforeEach", runtime.beforeEach, true),
    afterEach: hook("afterEach", runtime.afterEach, true),
    onTestFinished: runtime.onTestFinished,
    setDefaultTimeout,
    setSystemTime,
    expect: runtime.expect,
    // Mocks: Vitest's own (`vi`), under bun's and jest's names.
    fn: vi.fn,
    spyOn: vi.spyOn,
    mock: Object.assign((implementation?: AnyFn) => vi.fn(implementation), {
      restore: () => vi.restoreAllMocks(),
      clearAllMocks: () => vi.clearAllMocks(),
      // Vitest's vi.doMock (not hoisted, as bun's is not): the imports that follow get the mock. A
      // module imported before keeps its exports under Vitest, where Bun replaces them in place.
      module(name: string, factory: () => unknown): void {
        vi.doMock(pathFromCaller(name, new Error().stack), factory);
      },
    }),
    // jest's `jest` object: mocks, and Vitest's fake timers under jest's names.
    jest: {
      ...Object.fromEntries(JEST_TIMER_NAMES.map((name) => [name, (vi as unknown as Record<string, AnyFn>)[name]])),
      fn: vi.fn,
      spyOn: vi.spyOn,
      mocked: vi.mocked,
      isMockFunction: vi.isMockFunction,
      replaceProperty,
      clearAllMocks: () => vi.clearAllMocks(),
      resetAllMocks: () => vi.resetAllMocks(),
      restoreAllMocks,
      setTimeout: (ms: number) => setDefaultTimeout(ms),
    },
    vi,
    formatEachName,
  };
  built = { runtime, api };
  return api;
}
