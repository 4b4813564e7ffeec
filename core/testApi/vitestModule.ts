// The served `vitest` module (and what tsconfig's paths give "vitest"): the test API of testApi.ts
// with @vitest/runner's own test/describe/hooks, which core/execution/vitestRunner.ts runs. While the
// hand-written runner collects a file (one that also imports `bun:test`), the same names declare into
// it instead, so such a file loses no test.
import {
  afterAll as runnerAfterAll,
  afterEach as runnerAfterEach,
  aroundAll as runnerAroundAll,
  aroundEach as runnerAroundEach,
  beforeAll as runnerBeforeAll,
  beforeEach as runnerBeforeEach,
  describe as runnerDescribe,
  it as runnerIt,
  onTestFailed as runnerOnTestFailed,
  onTestFinished as runnerOnTestFinished,
  suite as runnerSuite,
  test as runnerTest,
  createTaskCollector,
  getCurrentSuite,
  getCurrentTest,
  getFn,
  getHooks,
  setFn,
  setHooks,
  type SuiteAPI,
  type TestAPI,
} from "@vitest/runner";
import { createChainable, matchesTags } from "@vitest/runner/utils";
import { collectingState, runningTest } from "./collector.ts";
import * as handWritten from "./testApi.ts";

// What the runner's context carries here (vitestRunner.ts's extendTaskContext), as Vitest declares it.
declare module "@vitest/runner" {
  interface TestContext {
    expect: handWritten.TurnlensExpect;
  }
}

/** Whether the hand-written runner (runFile.ts) is the one collecting or running right now. */
function handWrittenActive(): boolean {
  const running = runningTest();
  return collectingState() !== null || (running !== null && !running.onVitestRunner);
}

/**
 * `runner`'s name, but `handWritten`'s while the hand-written runner is active: a Proxy, so chains
 * (`test.skip.each(...)`) and properties read from whichever is active at that moment.
 */
function either<T extends object>(runner: T, hand: unknown): T {
  const pick = () => (handWrittenActive() && hand !== undefined ? (hand as T) : runner);
  return new Proxy(runner, {
    apply: (_target, thisArg, args) => Reflect.apply(pick() as (...a: unknown[]) => unknown, thisArg, args),
    get: (_target, key) => Reflect.get(pick(), key),
    has: (_target, key) => Reflect.has(pick(), key),
  });
}

// The rest of the test API (expect, vi, mocks) is the hand-written one; these names shadow its own.
export * from "./testApi.ts";
export const test: TestAPI = either(runnerTest, handWritten.vitestTest);
export const it: TestAPI = either(runnerIt, handWritten.vitestTest);
export const describe: SuiteAPI = either(runnerDescribe, handWritten.describe);
export const suite: SuiteAPI = either(runnerSuite, handWritten.suite);
export const beforeAll: typeof runnerBeforeAll = either(runnerBeforeAll, handWritten.beforeAll);
export const afterAll: typeof runnerAfterAll = either(runnerAfterAll, handWritten.afterAll);
export const beforeEach: typeof runnerBeforeEach = either(runnerBeforeEach, handWritten.beforeEach);
export const afterEach: typeof runnerAfterEach = either(runnerAfterEach, handWritten.afterEach);
export const aroundAll: typeof runnerAroundAll = runnerAroundAll;
export const aroundEach: typeof runnerAroundEach = runnerAroundEach;
export const onTestFinished: typeof runnerOnTestFinished = either(runnerOnTestFinished, handWritten.onTestFinished);
export const onTestFailed: typeof runnerOnTestFailed = runnerOnTestFailed;
/**
 * Vitest's runner class, exported for custom task collectors: its static helpers are @vitest/runner's
 * (`createTaskCollector`, `getCurrentSuite`, `createChainable`, …). Turnlens runs files with its own
 * runner (vitestRunner.ts), so the class is there for those statics, not to be constructed.
 */
// biome-ignore lint/complexity/noStaticOnlyClass: Vitest exports a class here, which custom runners extend.
export class TestRunner {
  static createTaskCollector = createTaskCollector;
  static getCurrentSuite = getCurrentSuite;
  static getCurrentTest = getCurrentTest;
  static createChainable = createChainable;
  static getSuiteHooks = getHooks;
  static getTestFn = getFn;
  static setSuiteHooks = setHooks;
  static setTestFn = setFn;
  static matchesTags = matchesTags;
}
/** Vitest exports its `vi` under both names. */
export const vitest: typeof handWritten.vi = handWritten.vi;
