// The expect test files get from "vitest" and "bun:test" is Vitest's (core/testApi/vitestExpect.ts):
// chai's AssertionError with the values the reporters diff, Vitest's words, equality that survives
// circular Sets and Maps, assertion counts, and bun's matchers added where Vitest has none.
import { expect as bunExpect } from "bun:test";
import { assert, assertType, chai, describe, expect, expectTypeOf, test } from "vitest";
import { errorReport } from "../../core/execution/stack.ts";

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("it did not throw");
}

describe("vitest's expect", () => {
  test("bun:test and vitest give the same expect, with chai's assert and chai beside it", () => {
    expect(bunExpect).toBe(expect);
    expect(expect.assert).toBe(assert);
    expect(chai.assert).toBe(assert);
  });

  test("a failed toEqual throws chai's AssertionError in Vitest's words, with the values compared", () => {
    const error = thrown(() => expect({ a: 1 }).toEqual({ a: 2 })) as { name: string; message: string; actual: unknown; expected: unknown; showDiff: boolean };
    expect(error.name).toBe("AssertionError");
    expect(error.message).toBe("expected { a: 1 } to deeply equal { a: 2 }");
    expect([error.actual, error.expected, error.showDiff]).toEqual([{ a: 1 }, { a: 2 }, true]);
  });

  test("the report of a failed assertion has its expected, actual and plain diff, the diff under the message", () => {
    const report = errorReport(thrown(() => expect([1, 2]).toEqual([1, 3])));
    expect(report.message).toBe("expected [ 1, 2 ] to deeply equal [ 1, 3 ]\n\n- Expected\n+ Received\n\n  [\n    1,\n-   3,\n+   2,\n  ]");
    expect([report.type, report.expected, report.actual]).toEqual(["AssertionError", "[ 1, 3 ]", "[ 1, 2 ]"]);
    expect(report.diff).toBe("- Expected\n+ Received\n\n  [\n    1,\n-   3,\n+   2,\n  ]");
  });

  test("an assertion that compares no values reports none", () => {
    const report = errorReport(thrown(() => assert.fail("no values")));
    expect(report).toMatchObject({ message: "no values", type: "AssertionError" });
    expect([report.expected, report.actual, report.diff]).toEqual([undefined, undefined, undefined]);
  });

  test("toEqual compares circular Sets and Maps without overflowing the stack", () => {
    const a = new Set<unknown>();
    a.add(a);
    const b = new Set<unknown>();
    b.add(b);
    expect(a).toEqual(b);
    const m = new Map<string, unknown>([["k", 1]]);
    m.set("self", m);
    const n = new Map<string, unknown>([["k", 2]]);
    n.set("self", n);
    expect(m).not.toEqual(n);
  });

  test("each expect call counts as an assertion", () => {
    const before = expect.getState().assertionCalls;
    expect(1).toBe(1);
    expect(2).toBe(2);
    // The argument is read before this third expect call counts itself.
    expect(expect.getState().assertionCalls - before).toBe(2);
  });

  test("a test that expects a number of assertions (its state the next test must not see)", () => {
    expect.hasAssertions();
    expect.assertions(1);
    expect(1).toBe(1);
  });

  test("the next test starts with its own count, name and no expectation of assertions", () => {
    const state = expect.getState();
    expect({ ...state, snapshotState: undefined }).toMatchObject({
      assertionCalls: 0,
      isExpectingAssertions: false,
      isExpectingAssertionsError: null,
      expectedAssertionsNumber: null,
      expectedAssertionsNumberErrorGen: null,
      currentTestName: "vitest's expect > the next test starts with its own count, name and no expectation of assertions",
    });
    expect(state.testPath).toMatch(/vitestExpect\.test\.ts$/);
  });

  test("expect.unreachable throws chai's AssertionError", () => {
    const error = thrown(() => expect.unreachable("here"));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('expected "here" not to be reached');
  });

  test("expectTypeOf and assertType return without checking anything at run time", () => {
    expect(assertType<string>("x")).toBeUndefined();
    expectTypeOf(1).toBeNumber();
    expectTypeOf(1).toEqualTypeOf<number>();
  });
});

describe("bun's matchers", () => {
  test("those Vitest lacks are added and fail in bun's words", () => {
    expect(5).toBeWithin(1, 10);
    expect({ a: 1, b: "x" }).toContainValue("x");
    expect("turnlens").toEndWith("lens");
    expect([1, 2]).toBeArrayOfSize(2);
    expect((thrown(() => expect(10).toBeWithin(1, 10)) as Error).message).toBe(
      "expect(received).toBeWithin(expected)\n\nExpected value to be within [1, 10)\nReceived: 10",
    );
  });

  test("where Vitest has one of the same name, Vitest's stays", () => {
    expect((thrown(() => expect(1).toSatisfy((n: number) => n > 1)) as Error).message).toBe(
      "expect(received).toSatisfy()\n\nExpected value to satisfy:\n[Function anonymous]\n\nReceived:\n1",
    );
    expect(2).toBeOneOf([1, 2]);
    expect("s").toBeTypeOf("string");
  });
});
