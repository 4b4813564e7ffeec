// expect for test files: jest's matchers (the npm package `expect`) plus the matchers bun adds
// that jest lacks, so tests written for bun:test run unchanged.
import { expect as jestExpect, type Expect } from "expect";
import { bunOnlyMatchers } from "./bunOnlyMatchers.ts";
import { addSnapshotMatchers } from "./snapshotJestAdapter.ts";

declare module "expect" {
  interface Matchers<R extends void | Promise<void>, T = unknown> {
    toStartWith(expected: string): R;
    toEndWith(expected: string): R;
    toInclude(expected: string): R;
    toIncludeRepeated(expected: string, times: number): R;
    toEqualIgnoringWhitespace(expected: string): R;
    toBeTrue(): R;
    toBeFalse(): R;
    toBeEmpty(): R;
    toBeNil(): R;
    toBeArray(): R;
    toBeArrayOfSize(size: number): R;
    toBeString(): R;
    toBeNumber(): R;
    toBeInteger(): R;
    toBeFinite(): R;
    toBePositive(): R;
    toBeNegative(): R;
    toBeEven(): R;
    toBeOdd(): R;
    toBeWithin(start: number, end: number): R;
    toBeBoolean(): R;
    toBeFunction(): R;
    toBeObject(): R;
    toBeDate(): R;
    toBeSymbol(): R;
    toBeTypeOf(type: "string" | "number" | "bigint" | "boolean" | "symbol" | "undefined" | "object" | "function"): R;
    toBeOneOf(expected: readonly unknown[]): R;
    toContainKey(key: PropertyKey): R;
    toContainKeys(keys: readonly PropertyKey[]): R;
    toContainAllKeys(keys: readonly PropertyKey[]): R;
    toContainAnyKeys(keys: readonly PropertyKey[]): R;
    toContainValue(value: unknown): R;
    toContainValues(values: readonly unknown[]): R;
    toSatisfy(predicate: (value: T) => boolean): R;
    toHaveBeenCalledOnce(): R;
  }
}

jestExpect.extend(bunOnlyMatchers as unknown as Parameters<typeof jestExpect.extend>[0]);
addSnapshotMatchers(jestExpect);

export type TurnlensExpect = Expect & {
  /** Fails the test: this line should not have been reached. */
  unreachable(message?: string): never;
};

export const expect: TurnlensExpect = Object.assign(jestExpect, {
  unreachable(message?: string): never {
    throw new Error(message ?? "reached a line the test marked unreachable");
  },
});
