// Mock functions and spies, Vitest's own (@vitest/spy, and @vitest/mocker for `vi.mockObject`):
// what `vi` and bun's `mock`/`spyOn`/`jest` give a test file, with Vitest 4's meaning (settled
// results, `mockThrow`, classes and `new`, resets back to the original implementation).
import { mockModule } from "./viModules.ts";
import { mockObject as mockObjectOf } from "@vitest/mocker";
import {
  clearAllMocks,
  createMockInstance,
  fn,
  isMockFunction,
  type MaybeMocked,
  type MaybeMockedDeep,
  type MaybePartiallyMocked,
  type MaybePartiallyMockedDeep,
  type Mock,
  type MockInstance,
  resetAllMocks,
  restoreAllMocks,
  spyOn,
} from "@vitest/spy";

export type { Mock, MockInstance } from "@vitest/spy";

/** `vi.mocked`: a type helper, the value itself (as in Vitest). */
export const mocked = (<T>(item: T) => item) as (<T>(item: T, deep?: false) => MaybeMocked<T>) &
  (<T>(item: T, deep: true) => MaybeMockedDeep<T>) &
  (<T>(item: T, options: { partial?: false; deep?: false }) => MaybeMocked<T>) &
  (<T>(item: T, options: { partial?: false; deep: true }) => MaybeMockedDeep<T>) &
  (<T>(item: T, options: { partial: true; deep?: false }) => MaybePartiallyMocked<T>) &
  (<T>(item: T, options: { partial: true; deep: true }) => MaybePartiallyMockedDeep<T>);

/** The builtins @vitest/mocker leaves unmocked, this realm's (Vitest hands it the test's realm). */
const globalConstructors = { Object, Function, RegExp, Array, Map };

/**
 * `vi.mockObject(value, { spy })`: a deep copy whose functions are mocks returning undefined, or
 * spies calling the original with `{ spy: true }`, as `vi.mock` mocks a module's exports.
 */
export function mockObject<T>(value: T, options?: { spy?: boolean }): MaybeMockedDeep<T> {
  const made = mockObjectOf({ type: options?.spy ? "autospy" : "automock", globalConstructors, createMockInstance }, { value });
  return made.value as MaybeMockedDeep<T>;
}

/** What `vi` and `jest` share: making, checking and resetting mocks. */
export const mockUtils = {
  fn,
  spyOn,
  mocked,
  mockObject,
  isMockFunction: isMockFunction as (value: unknown) => value is MockInstance,
  clearAllMocks,
  resetAllMocks,
  /** Vitest 4: restores the spies `spyOn` made (their calls stay) and leaves `vi.fn()` mocks as they are. */
  restoreAllMocks,
};

/**
 * The file's spies put back when it ends (the runner calls it), and every mock's calls let go:
 * a forgotten spy on Map.prototype.get must not reach the next file, and a warm worker must not
 * keep a finished file's arguments alive.
 */
export function restoreFileSpies(): void {
  try {
    restoreAllMocks();
    clearAllMocks();
  } catch {
    // What could not be restored is left to the builtins check (realmCheck.ts), which replaces the worker.
  }
}

/** bun's `mock(fn)`, with `mock.restore()` and `mock.clearAllMocks()`. */
export interface BunMock {
  <T extends (...args: never[]) => unknown>(implementation?: T): Mock<T>;
  /** Restores every spy. */
  restore(): void;
  clearAllMocks(): void;
  /** bun's module mock: not hoisted; later imports get the factory's module, earlier ones its exports in place (docs/vitest.md). */
  module(name: string, factory: () => unknown): void;
}

export const bunMock: BunMock = Object.assign(<T extends (...args: never[]) => unknown>(implementation?: T) => fn(implementation) as Mock<T>, {
  restore: () => restoreAllMocks(),
  clearAllMocks: () => clearAllMocks(),
  module: mockModule,
});

export { fn, spyOn };

export { type Replaced, replaceProperty, restoreReplacedProperties } from "./replacedProperties.ts";
