// expect for test files: Vitest's (vitestExpect.ts) plus the matchers bun adds that Vitest lacks,
// added with expect.extend, so tests written for bun:test run unchanged. Where Vitest has a
// matcher of the same name (toSatisfy, toBeOneOf, toBeTypeOf, toHaveBeenCalledOnce) its own
// stays, as under the Vitest plugin (core/vitest/bunTest.ts).
import "./plainColors.ts";
import { type ExpectStatic, type MatchersObject, chai } from "@vitest/expect";
import { bunOnlyMatchers } from "./bunOnlyMatchers.ts";
import { globalExpect } from "./vitestExpect.ts";

declare module "@vitest/expect" {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration merges with @vitest/expect's own `Matchers<T = any>`
  interface Matchers<T = any> {
    toStartWith(expected: string): void;
    toEndWith(expected: string): void;
    toInclude(expected: string): void;
    toIncludeRepeated(expected: string, times: number): void;
    toEqualIgnoringWhitespace(expected: string): void;
    toBeTrue(): void;
    toBeFalse(): void;
    toBeEmpty(): void;
    toBeNil(): void;
    toBeArray(): void;
    toBeArrayOfSize(size: number): void;
    toBeString(): void;
    toBeNumber(): void;
    toBeInteger(): void;
    toBeFinite(): void;
    toBePositive(): void;
    toBeNegative(): void;
    toBeEven(): void;
    toBeOdd(): void;
    toBeWithin(start: number, end: number): void;
    toBeBoolean(): void;
    toBeFunction(): void;
    toBeObject(): void;
    toBeDate(): void;
    toBeSymbol(): void;
    toContainKey(key: PropertyKey): void;
    toContainKeys(keys: readonly PropertyKey[]): void;
    toContainAllKeys(keys: readonly PropertyKey[]): void;
    toContainAnyKeys(keys: readonly PropertyKey[]): void;
    toContainValue(value: unknown): void;
    toContainValues(values: readonly unknown[]): void;
  }
}

const vitestMatchers = chai.Assertion.prototype as object;
const missing = Object.fromEntries(Object.entries(bunOnlyMatchers).filter(([name]) => !(name in vitestMatchers)));
globalExpect.extend(missing as unknown as MatchersObject);

export type TurnlensExpect = ExpectStatic;
export const expect: TurnlensExpect = globalExpect;
