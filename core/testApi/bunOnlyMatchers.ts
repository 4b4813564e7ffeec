// The matchers bun adds to expect, as a table `expect.extend` takes: the expect `turnlens test`
// serves (bunMatchers.ts) and Vitest's own (core/vitest/bunTest.ts, for the Vitest plugin) are both
// extended with it, so a bun test's assertions mean the same under both.
import { inspect } from "node:util";

type MatcherThis = {
  isNot?: boolean;
  equals(a: unknown, b: unknown): boolean;
  utils: {
    matcherHint(name: string, received?: string, expected?: string, options?: { isNot?: boolean }): string;
    printReceived(value: unknown): string;
    printExpected(value: unknown): string;
  };
};

function matcher<A extends unknown[]>(
  name: string,
  check: (this: MatcherThis, received: unknown, ...args: A) => boolean,
  expectation: (...args: A) => string,
  withExpected = true,
) {
  return function (this: MatcherThis, received: unknown, ...args: A) {
    const pass = check.call(this, received, ...args);
    return {
      pass,
      message: () => {
        const hint = this.utils.matcherHint(name, undefined, withExpected ? undefined : "", { isNot: this.isNot });
        const not = this.isNot ? "not " : "";
        return `${hint}\n\nExpected value ${not}${expectation(...args)}\nReceived: ${this.utils.printReceived(received)}`;
      },
    };
  };
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string" || Array.isArray(value)) return value.length === 0;
  if (value instanceof Map || value instanceof Set) return value.size === 0;
  if (typeof value === "object") {
    if (Symbol.iterator in value) {
      for (const _ of value as Iterable<unknown>) return false;
      return true;
    }
    return Object.keys(value).length === 0;
  }
  return false;
}

function hasKey(value: unknown, key: PropertyKey): boolean {
  return typeof value === "object" && value !== null && key in value && Object.hasOwn(value, key);
}

const p = (value: unknown) => inspect(value, { depth: 4, colors: false, breakLength: Infinity });

/** What bun:test's expect has and jest's lacks (Vitest has a few of them too, and keeps its own: bunMatchers.ts). */
export const bunOnlyMatchers = {
  toStartWith: matcher(
    "toStartWith",
    (r, s: string) => typeof r === "string" && r.startsWith(s),
    (s) => `to start with ${p(s)}`,
  ),
  toEndWith: matcher(
    "toEndWith",
    (r, s: string) => typeof r === "string" && r.endsWith(s),
    (s) => `to end with ${p(s)}`,
  ),
  toInclude: matcher(
    "toInclude",
    (r, s: string) => typeof r === "string" && r.includes(s),
    (s) => `to include ${p(s)}`,
  ),
  toIncludeRepeated: matcher(
    "toIncludeRepeated",
    (r, s: string, n: number) => typeof r === "string" && s.length > 0 && r.split(s).length - 1 === n,
    (s, n) => `to include ${p(s)} exactly ${n} times`,
  ),
  toEqualIgnoringWhitespace: matcher(
    "toEqualIgnoringWhitespace",
    (r, s: string) => typeof r === "string" && r.replace(/\s+/g, "") === s.replace(/\s+/g, ""),
    (s) => `to equal ${p(s)} ignoring whitespace`,
  ),
  toBeTrue: matcher(
    "toBeTrue",
    (r) => r === true,
    () => "to be true",
    false,
  ),
  toBeFalse: matcher(
    "toBeFalse",
    (r) => r === false,
    () => "to be false",
    false,
  ),
  toBeEmpty: matcher(
    "toBeEmpty",
    (r) => isEmpty(r),
    () => "to be empty",
    false,
  ),
  toBeNil: matcher(
    "toBeNil",
    (r) => r === null || r === undefined,
    () => "to be null or undefined",
    false,
  ),
  toBeArray: matcher(
    "toBeArray",
    (r) => Array.isArray(r),
    () => "to be an array",
    false,
  ),
  toBeArrayOfSize: matcher(
    "toBeArrayOfSize",
    (r, n: number) => Array.isArray(r) && r.length === n,
    (n) => `to be an array of size ${n}`,
  ),
  toBeString: matcher(
    "toBeString",
    (r) => typeof r === "string" || r instanceof String,
    () => "to be a string",
    false,
  ),
  toBeNumber: matcher(
    "toBeNumber",
    (r) => typeof r === "number",
    () => "to be a number",
    false,
  ),
  toBeInteger: matcher(
    "toBeInteger",
    (r) => Number.isInteger(r),
    () => "to be an integer",
    false,
  ),
  toBeFinite: matcher(
    "toBeFinite",
    (r) => Number.isFinite(r),
    () => "to be a finite number",
    false,
  ),
  toBePositive: matcher(
    "toBePositive",
    (r) => typeof r === "number" && r > 0,
    () => "to be a positive number",
    false,
  ),
  toBeNegative: matcher(
    "toBeNegative",
    (r) => typeof r === "number" && r < 0,
    () => "to be a negative number",
    false,
  ),
  toBeEven: matcher(
    "toBeEven",
    (r) => Number.isInteger(r) && (r as number) % 2 === 0,
    () => "to be even",
    false,
  ),
  toBeOdd: matcher(
    "toBeOdd",
    (r) => Number.isInteger(r) && Math.abs((r as number) % 2) === 1,
    () => "to be odd",
    false,
  ),
  toBeWithin: matcher(
    "toBeWithin",
    (r, start: number, end: number) => typeof r === "number" && r >= start && r < end,
    (start, end) => `to be within [${start}, ${end})`,
  ),
  toBeBoolean: matcher(
    "toBeBoolean",
    (r) => typeof r === "boolean",
    () => "to be a boolean",
    false,
  ),
  toBeFunction: matcher(
    "toBeFunction",
    (r) => typeof r === "function",
    () => "to be a function",
    false,
  ),
  toBeObject: matcher(
    "toBeObject",
    (r) => typeof r === "object" && r !== null,
    () => "to be an object",
    false,
  ),
  toBeDate: matcher(
    "toBeDate",
    (r) => r instanceof Date,
    () => "to be a Date",
    false,
  ),
  toBeSymbol: matcher(
    "toBeSymbol",
    (r) => typeof r === "symbol",
    () => "to be a symbol",
    false,
  ),
  toBeTypeOf: matcher(
    "toBeTypeOf",
    (r, t: string) => typeof r === t,
    (t) => `to be of type ${p(t)}`,
  ),
  toBeOneOf: matcher(
    "toBeOneOf",
    function (r, list: readonly unknown[]) {
      return Array.isArray(list) && list.some((item) => this.equals(r, item));
    },
    (list) => `to be one of ${p(list)}`,
  ),
  toContainKey: matcher(
    "toContainKey",
    (r, k: PropertyKey) => hasKey(r, k),
    (k) => `to contain key ${p(k)}`,
  ),
  toContainKeys: matcher(
    "toContainKeys",
    (r, ks: readonly PropertyKey[]) => ks.every((k) => hasKey(r, k)),
    (ks) => `to contain keys ${p(ks)}`,
  ),
  toContainAllKeys: matcher(
    "toContainAllKeys",
    (r, ks: readonly PropertyKey[]) => typeof r === "object" && r !== null && ks.every((k) => hasKey(r, k)) && Object.keys(r).length === ks.length,
    (ks) => `to contain exactly the keys ${p(ks)}`,
  ),
  toContainAnyKeys: matcher(
    "toContainAnyKeys",
    (r, ks: readonly PropertyKey[]) => ks.some((k) => hasKey(r, k)),
    (ks) => `to contain any of the keys ${p(ks)}`,
  ),
  toContainValue: matcher(
    "toContainValue",
    function (r, v: unknown) {
      return typeof r === "object" && r !== null && Object.values(r).some((x) => this.equals(x, v));
    },
    (v) => `to contain value ${p(v)}`,
  ),
  toContainValues: matcher(
    "toContainValues",
    function (r, vs: readonly unknown[]) {
      return typeof r === "object" && r !== null && vs.every((v) => Object.values(r).some((x) => this.equals(x, v)));
    },
    (vs) => `to contain values ${p(vs)}`,
  ),
  toSatisfy: matcher(
    "toSatisfy",
    (r, predicate: (v: unknown) => boolean) => Boolean(predicate(r)),
    (_predicate) => "to satisfy the predicate",
  ),
  toHaveBeenCalledOnce: matcher(
    "toHaveBeenCalledOnce",
    (r) => typeof r === "function" && (r as { mock?: { calls: unknown[] } }).mock?.calls.length === 1,
    () => "to be a mock called exactly once",
    false,
  ),
};
