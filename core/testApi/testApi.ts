// The test API served as `bun:test` and `vitest`: test/describe/hooks declare into the collector,
// `expect` is jest's, mocks are jest-mock's. The runner (runFile.ts) runs what was declared.
import { ModuleMocker, type Mock, type FunctionLike, type UnknownFunction } from "jest-mock";
import { expect, type TurnlensExpect } from "./bunMatchers.ts";
import { mockModule, viModules } from "./viModules.ts";
import { argsOfRow, formatEachName, rowsOf } from "./eachTable.ts";
import { type NameLike, nameOf, splitArgs, type TestOptions } from "./testArguments.ts";
import { type ModifierFlags, noModifierFlags, withModifiers } from "./testModifiers.ts";
import {
  type AnyFn,
  type Flavour,
  type HookEntry,
  type Hooks,
  type TestNode,
  callSite,
  currentSuite,
  newSuite,
  runningTest,
  setFileDefaultTimeout,
  withSuite,
} from "./collector.ts";

// ---------------------------------------------------------------------------------------------
// Types

/** What a test function receives: bun's `done` callback, which also carries vitest's context. */
export interface TestContext {
  (error?: unknown): void;
  expect: TurnlensExpect;
  task: { name: string };
  /** Ends the test as skipped. */
  skip(note?: string): never;
  /** Aborted when the test times out or the run is cancelled. */
  signal: AbortSignal;
  onTestFinished(fn: () => unknown): void;
}

export type { TestOptions } from "./testArguments.ts";

type TestBody = (context: TestContext) => unknown;
type Options = number | TestOptions;

/**
 * `.each(table)` typed as Vitest types it (@vitest/runner's TestEachFunction), so a test Vitest
 * accepts tsc accepts here: an array row is a tuple (`[["a", 1, true]]` gives `(string, number,
 * boolean)`, the `[unknown]` in the constraint asks TypeScript for a tuple rather than an array of
 * a union), a readonly row (`as const`) its elements, and any other row is the one argument.
 */
interface EachTest {
  <T extends unknown[] | [unknown]>(table: readonly T[]): EachTestReturn<T>;
  <T extends readonly unknown[]>(table: readonly T[]): EachTestReturn<[...T]>;
  <T>(table: readonly T[]): EachTestReturn<[T]>;
  // biome-ignore lint/suspicious/noExplicitAny: a template table's row has no type to give
  (strings: TemplateStringsArray, ...values: unknown[]): EachTestReturn<[any]>;
}

/** A row's test: its body gets the row's cells as arguments; options go after it or before it, as `test`'s do. */
interface EachTestReturn<Args extends unknown[]> {
  (name: string, fn: (...args: Args) => unknown, options?: Options): void;
  (name: string, options: Options, fn: (...args: Args) => unknown): void;
}

export interface TestFunction {
  (name: NameLike, fn?: TestBody, options?: Options): void;
  (name: NameLike, options: Options, fn: TestBody): void;
  only: TestFunction;
  skip: TestFunction;
  todo: TestFunction;
  /** Runs like any other test: Turnlens runs a file's tests one at a time. */
  concurrent: TestFunction;
  sequential: TestFunction;
  /** Passes when the body fails. */
  failing: TestFunction;
  /** Declares the test only when `condition` is truthy (else skipped). */
  if(condition: unknown): TestFunction;
  runIf(condition: unknown): TestFunction;
  skipIf(condition: unknown): TestFunction;
  each: EachTest;
}

/** `describe.each(table)`, its rows typed as `test.each`'s are. */
interface EachDescribe {
  <T extends unknown[] | [unknown]>(table: readonly T[]): (name: string, fn: (...args: T) => void) => void;
  <T extends readonly unknown[]>(table: readonly T[]): (name: string, fn: (...args: [...T]) => void) => void;
  <T>(table: readonly T[]): (name: string, fn: (arg: T) => void) => void;
  // biome-ignore lint/suspicious/noExplicitAny: a template table's row has no type to give
  (strings: TemplateStringsArray, ...values: unknown[]): (name: string, fn: (arg: any) => void) => void;
}

export interface DescribeFunction {
  (name: NameLike, fn: () => void): void;
  (name: NameLike, options: Options, fn: () => void): void;
  only: DescribeFunction;
  skip: DescribeFunction;
  todo: DescribeFunction;
  concurrent: DescribeFunction;
  sequential: DescribeFunction;
  if(condition: unknown): DescribeFunction;
  runIf(condition: unknown): DescribeFunction;
  skipIf(condition: unknown): DescribeFunction;
  each: EachDescribe;
}

type HookBody = (context: TestContext) => unknown;
type HookFunction = (fn: HookBody, timeout?: number) => void;

// ---------------------------------------------------------------------------------------------
// Declaring tests

type Flags = ModifierFlags;
const noFlags = noModifierFlags;

function declareTest(flags: Flags, flavour: Flavour, name: NameLike, a?: unknown, b?: unknown, args?: unknown[]): void {
  const suite = currentSuite("test()");
  const { fn, options } = splitArgs<AnyFn>(a, b);
  const node: TestNode = {
    kind: "test",
    name: nameOf(name),
    parent: suite,
    skip: flags.skip || options.skip === true,
    only: flags.only || options.only === true,
    todo: flags.todo || options.todo === true || fn === undefined,
    failing: flags.failing,
    retry: Math.max(0, Math.floor(options.retry ?? 0)),
    flavour,
  };
  if (fn) node.fn = fn;
  if (args) node.args = args;
  if (typeof options.timeout === "number" && options.timeout > 0) node.timeout = options.timeout;
  const site = callSite();
  if (site) node.site = site;
  suite.children.push(node);
}

function declareSuite(flags: Flags, name: NameLike, a?: unknown, b?: unknown): void {
  const parent = currentSuite("describe()");
  const { fn, options } = splitArgs<() => unknown>(a, b);
  const suite = newSuite(nameOf(name), parent);
  suite.skip = flags.skip || flags.todo || options.skip === true;
  suite.only = flags.only || options.only === true;
  const site = callSite();
  if (site) suite.site = site;
  parent.children.push(suite);
  if (!fn) return;
  withSuite(suite, () => {
    const result = fn();
    if (result && typeof (result as PromiseLike<unknown>).then === "function") {
      throw new Error(
        `describe("${suite.name}") was given an async function; a describe callback must declare its tests synchronously (await inside the tests or in beforeAll)`,
      );
    }
  });
}

// Building the callable objects ----------------------------------------------------------------

function makeTest(flags: Flags, flavour: Flavour): TestFunction {
  const fn = (name: NameLike, a?: unknown, b?: unknown) => declareTest(flags, flavour, name, a, b);
  return withModifiers(fn, flags, {
    make: (changed) => makeTest(changed, flavour),
    failing: true,
    each: (table: unknown, ...values: unknown[]) => {
      const rows = rowsOf(table, values);
      return (name: string, body?: AnyFn, options?: Options) => {
        rows.forEach((row, index) => {
          const title = formatEachName(name, row, index);
          declareTest(flags, flavour, title, body, options, argsOfRow(row));
        });
      };
    },
  }) as unknown as TestFunction;
}

function makeDescribe(flags: Flags): DescribeFunction {
  const fn = (name: NameLike, a?: unknown, b?: unknown) => declareSuite(flags, name, a, b);
  return withModifiers(fn, flags, {
    make: makeDescribe,
    each: (table: unknown, ...values: unknown[]) => {
      const rows = rowsOf(table, values);
      return (name: string, body: AnyFn) => {
        rows.forEach((row, index) => {
          declareSuite(flags, formatEachName(name, row, index), () => body(...argsOfRow(row)));
        });
      };
    },
  }) as unknown as DescribeFunction;
}

function hook(kind: keyof Hooks): HookFunction {
  return (fn: HookBody, timeout?: number) => {
    const suite = currentSuite(`${kind}()`);
    if (typeof fn !== "function") throw new Error(`${kind}() needs a function`);
    const entry: HookEntry = { fn: fn as AnyFn };
    if (typeof timeout === "number" && timeout > 0) entry.timeout = timeout;
    const site = callSite();
    if (site) entry.site = site;
    suite.hooks[kind].push(entry);
  };
}

export const test: TestFunction = makeTest(noFlags, "bun");
export const it: TestFunction = test;
export const describe: DescribeFunction = makeDescribe(noFlags);
export const suite: DescribeFunction = describe;
export const beforeAll: HookFunction = hook("beforeAll");
export const afterAll: HookFunction = hook("afterAll");
export const beforeEach: HookFunction = hook("beforeEach");
export const afterEach: HookFunction = hook("afterEach");

/** vitest's flavour of `test`: the body gets a context, never a `done` callback. */
export const vitestTest: TestFunction = makeTest(noFlags, "vitest");

/** Runs `fn` once the current test has finished, passed or failed. */
export function onTestFinished(fn: () => unknown): void {
  const running = runningTest();
  if (!running) throw new Error("onTestFinished() must be called while a test runs");
  running.finishers.push(fn as AnyFn);
}

/** bun's `setDefaultTimeout`: the default timeout of the tests in this file. */
export function setDefaultTimeout(ms: number): void {
  setFileDefaultTimeout(ms);
}

export { expect, formatEachName, type TurnlensExpect };

// ---------------------------------------------------------------------------------------------
// Mocks (jest-mock)

const mocker = new ModuleMocker(globalThis);

export const fn = mocker.fn.bind(mocker) as ModuleMocker["fn"];
export const spyOn = mocker.spyOn.bind(mocker) as ModuleMocker["spyOn"];

export interface MockFunction {
  <T extends FunctionLike = UnknownFunction>(implementation?: T): Mock<T>;
  /** Restores every spy. */
  restore(): void;
  clearAllMocks(): void;
  /** bun's module mock: not hoisted; later imports get the factory's module, earlier ones its exports in place (docs/vitest.md). */
  module(name: string, factory: () => unknown): void;
}

/**
 * Restores every spy and replaced property made since the last call (the runner calls it when a
 * file ends), as a file's timers are cleared then.
 */
export function restoreFileMocks(): void {
  try {
    mocker.restoreAllMocks();
  } catch {
    // What could not be restored is left to the builtins check (realmCheck.ts), which replaces the worker.
  }
}

/** bun's `mock(fn)`. */
export const mock: MockFunction = Object.assign(<T extends FunctionLike = UnknownFunction>(implementation?: T) => mocker.fn<T>(implementation), {
  restore: () => mocker.restoreAllMocks(),
  clearAllMocks: () => mocker.clearAllMocks(),
  module: mockModule,
});

function mockHelpers() {
  return {
    fn,
    spyOn,
    mocked: mocker.mocked.bind(mocker) as ModuleMocker["mocked"],
    isMockFunction: mocker.isMockFunction.bind(mocker) as ModuleMocker["isMockFunction"],
    replaceProperty: mocker.replaceProperty.bind(mocker) as ModuleMocker["replaceProperty"],
    clearAllMocks: () => mocker.clearAllMocks(),
    resetAllMocks: () => mocker.resetAllMocks(),
    restoreAllMocks: () => mocker.restoreAllMocks(),
  };
}

/** jest's `jest` object as far as mocks go. */
export const jest = { ...mockHelpers(), setTimeout: (ms: number) => setFileDefaultTimeout(ms) };
/** vitest's `vi` object as far as mocks go, module mocks included (viModules.ts). */
export const vi = { ...mockHelpers(), ...viModules };
