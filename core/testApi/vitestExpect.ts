// `expect`, `assert` and `chai` as Vitest makes them (vitest/dist's `createExpect`): chai 6 with
// @vitest/expect's plugins (chaiPlugins.ts), an `expect` whose state counts assertions, with
// `expect.soft`, `expect.poll`, `expect.unreachable`, and the checks a runner makes around a test.
import "./plainColors.ts";
import {
  ASYMMETRIC_MATCHERS_OBJECT,
  type Assertion,
  type ExpectStatic,
  GLOBAL_EXPECT,
  type MatcherState,
  type MatchersObject,
  type PromisifyAssertion,
  type Tester,
  addCustomEqualityTesters,
  chai,
  customMatchers,
  getState,
  setState,
} from "@vitest/expect";
// For its `declare module` too: the snapshot matchers' declarations reach the served `vitest` and `bun:test` types
// only through an import the declaration files keep (chaiPlugins.ts's import of it is a value one, dropped).
import "./snapshotMatchers.ts";
import { chaiPlugins } from "./chaiPlugins.ts";
import { type ExpectTask, currentTestForExpect, setTestForExpect } from "./expectTest.ts";
import { createExpectPoll } from "./expectPoll.ts";
import { currentSnapshotState } from "./snapshots.ts";

// What Vitest's own declarations add to @vitest/expect's `expect` (vitest/dist's global.d.ts),
// word for word, less the snapshot members, which the snapshot plugin declares.
declare module "@vitest/expect" {
  interface ExpectPollOptions {
    interval?: number;
    timeout?: number;
    message?: string;
  }
  interface ExpectStatic {
    assert: Chai.AssertStatic;
    unreachable: (message?: string) => never;
    soft: <T>(actual: T, message?: string) => Assertion<T>;
    poll: <T>(actual: () => T, options?: ExpectPollOptions) => PromisifyAssertion<Awaited<T>>;
    addEqualityTesters: (testers: Array<Tester>) => void;
    assertions: (expected: number) => void;
    hasAssertions: () => void;
  }
}

/** What a runner resets before each try of a test and reads after it (Vitest's TestRunner). */
interface CountingState extends MatcherState {
  isExpectingAssertionsError?: Error | null;
  expectedAssertionsNumberErrorGen?: (() => Error) | null;
  testPath?: string;
  snapshotState?: unknown;
}

for (const plugin of chaiPlugins) chai.use(plugin);

type WithTest = Assertion & { withTest(task: ExpectTask): Assertion; withContext(context: object): Assertion };
const holder = globalThis as unknown as Record<symbol, unknown>;

/** An `expect` as Vitest's `createExpect` makes one: the global one, or a test context's own for `task`. */
export function createExpect(task?: ExpectTask): ExpectStatic {
  const expect = ((value: unknown, message?: string) => {
    // Counted in place: Vitest's own createExpect goes through setState, which redefines every
    // field of the state from its descriptors (~10 µs an expect call) to change this one.
    getState(expect).assertionCalls++;
    const assertion = chai.expect(value, message) as unknown as WithTest;
    const running = task ?? currentTestForExpect();
    return running ? assertion.withTest(running) : assertion;
  }) as ExpectStatic;
  Object.assign(expect, chai.expect);
  Object.assign(expect, holder[ASYMMETRIC_MATCHERS_OBJECT]);
  expect.getState = () => getState(expect);
  expect.setState = (state) => setState(state, expect);
  const globalState: Partial<CountingState> = (holder[GLOBAL_EXPECT] ? getState(holder[GLOBAL_EXPECT] as ExpectStatic) : undefined) ?? {};
  setState<CountingState>(
    {
      ...globalState,
      assertionCalls: 0,
      isExpectingAssertions: false,
      isExpectingAssertionsError: null,
      expectedAssertionsNumber: null,
      expectedAssertionsNumberErrorGen: null,
      currentTestName: task ? (task.fullTestName ?? task.name) : (globalState.currentTestName ?? ""),
    },
    expect,
  );
  expect.assert = chai.assert;
  // Called on chai.expect, as Vitest calls it: chai's method wrapper reads its flags from `this`.
  const chaiExpect = chai.expect as unknown as { extend(on: ExpectStatic, matchers: MatchersObject): void };
  expect.extend = (matchers) => chaiExpect.extend(expect, matchers);
  expect.addEqualityTesters = (testers) => addCustomEqualityTesters(testers);
  expect.soft = <T>(value: T, message?: string) => (expect(value, message) as unknown as WithTest).withContext({ soft: true }) as Assertion<T>;
  expect.poll = createExpectPoll(expect);
  expect.unreachable = (message?: string): never => {
    chai.assert.fail(`expected${message ? ` "${message}" ` : " "}not to be reached`);
  };
  function assertions(expected: number): void {
    const errorGen = () => new Error(`expected number of assertions to be ${expected}, but got ${expect.getState().assertionCalls}`);
    expect.setState({ expectedAssertionsNumber: expected, expectedAssertionsNumberErrorGen: errorGen } as Partial<CountingState>);
  }
  function hasAssertions(): void {
    const error = new Error("expected any number of assertion, but got none");
    Error.captureStackTrace(error, hasAssertions);
    expect.setState({ isExpectingAssertions: true, isExpectingAssertionsError: error } as Partial<CountingState>);
  }
  chai.util.addMethod(expect, "assertions", assertions);
  chai.util.addMethod(expect, "hasAssertions", hasAssertions);
  expect.extend(customMatchers);
  return expect;
}

/** The `expect` test files import, kept where @vitest/expect's matchers look for it (`GLOBAL_EXPECT`). */
export const globalExpect: ExpectStatic = createExpect();
Object.defineProperty(globalThis, GLOBAL_EXPECT, { value: globalExpect, writable: true, configurable: true });

/** chai's `assert`, as Vitest exports it. */
export const assert: Chai.AssertStatic = chai.assert;
export { chai };

// ---------------------------------------------------------------------------------------------
// Around each test: what Vitest's TestRunner does in onBeforeTryTask and onAfterTryTask. A runner
// built on @vitest/runner calls the first two from those hooks; today's (runFile.ts) calls
// startExpectTest / expectAfterBody / finishExpectTest, which wrap them.

/**
 * A test file starts loading: `expect.getState().testPath` is its path from its top-level code on,
 * and `environment` the name of the environment it runs in (Node's, "node"), as under Vitest.
 */
export function setExpectTestPath(file: string): void {
  setState<CountingState & { environment: string }>({ testPath: file, environment: "node" }, globalExpect);
}

/** Before each try of a test: its assertions are counted from zero, `expect.assertions` unset. */
export function resetExpectForTest(fullName: string, file: string): void {
  const fresh: Partial<CountingState> = {
    assertionCalls: 0,
    isExpectingAssertions: false,
    isExpectingAssertionsError: null,
    expectedAssertionsNumber: null,
    expectedAssertionsNumberErrorGen: null,
    currentTestName: fullName,
    testPath: file,
    // Vitest's: the file's snapshot state, which a test's own `expect` copies too.
    snapshotState: currentSnapshotState(),
  };
  const state = getState<CountingState>(globalExpect) as CountingState | undefined;
  if (!state || !writtenOver(state, fresh)) setState(fresh, globalExpect);
}

/**
 * The test before's state with `fresh`'s fields assigned over it: @vitest/expect's setState
 * redefines every field the state has from their descriptors (~20 µs a test). False for a state a
 * test made read-only (an assignment throws), which setState is left to.
 */
function writtenOver(state: CountingState, fresh: Partial<CountingState>): boolean {
  try {
    const target = state as unknown as Record<string, unknown>;
    for (const key of Object.keys(fresh) as Array<keyof CountingState>) target[key] = fresh[key];
    return true;
  } catch {
    return false;
  }
}

/** After a test's body: throws when `expect.assertions(n)` or `expect.hasAssertions()` was not met. */
export function checkExpectedAssertions(expect: ExpectStatic = globalExpect): void {
  const state = getState<CountingState>(expect);
  if (state.expectedAssertionsNumber !== null && state.assertionCalls !== state.expectedAssertionsNumber) {
    throw state.expectedAssertionsNumberErrorGen?.() ?? new Error(`expected number of assertions to be ${state.expectedAssertionsNumber}`);
  }
  if (state.isExpectingAssertions === true && state.assertionCalls === 0) {
    throw state.isExpectingAssertionsError ?? new Error("expected any number of assertion, but got none");
  }
}

/** A test starts (today's runner): the task `expect.soft` and `expect.poll` record on. */
export function startExpectTest(path: readonly string[], file: string): ExpectTask {
  const fullTestName = vitestTestName(path);
  const task: ExpectTask = { type: "test", name: path[path.length - 1] ?? "", fullTestName, result: { state: "run" } };
  setTestForExpect(task);
  resetExpectForTest(fullTestName, file);
  return task;
}

/** A test's name as Vitest's `expect.getState().currentTestName` has it: its describes' names and its own, joined by " > ". */
export function vitestTestName(path: readonly string[]): string {
  return path.join(" > ");
}

/**
 * After the body returned: the assertions it did not await settle (@vitest/runner's
 * withAwaitAsyncAssertions), the first that failed is thrown, then the assertion count is checked.
 */
export async function expectAfterBody(task: ExpectTask): Promise<void> {
  if (task.promises) {
    const settled = await Promise.allSettled(task.promises);
    const failed = settled.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
  }
  checkExpectedAssertions();
}

/**
 * The test ended (after its afterEach hooks and finishers): every `expect.soft` failure (`soft`,
 * which Vitest lists before the error that stopped the test) and what `expect` ran at the end
 * (`atEnd`: an `expect.poll` never awaited fails there).
 */
export async function finishExpectTest(task: ExpectTask): Promise<{ soft: unknown[]; atEnd: unknown[] }> {
  const atEnd: unknown[] = [];
  for (const fn of task.onFinished ?? []) {
    try {
      await fn();
    } catch (error) {
      atEnd.push(error);
    }
  }
  setTestForExpect(undefined);
  return { soft: (task.result?.errors ?? []).map(softFailure), atEnd };
}

/**
 * A soft failure as an Error again: @vitest/expect keeps it processed for Vitest's reporters (a
 * plain object without a prototype, its values and diff printed), which the runner reads as any
 * other error it was thrown.
 */
function softFailure(processed: unknown): unknown {
  if (typeof processed !== "object" || processed === null) return processed;
  const fields = processed as { message?: unknown; name?: unknown };
  const error = new Error(typeof fields.message === "string" ? fields.message : "expect.soft failed");
  return Object.assign(error, { ...processed, message: error.message, name: typeof fields.name === "string" ? fields.name : "AssertionError" });
}
