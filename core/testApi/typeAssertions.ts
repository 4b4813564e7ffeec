// `expectTypeOf` and `assertType`, as Vitest exports them: checks the type checker makes, which do
// nothing when the test runs (expect-type's `expectTypeOf` returns a chain of no-ops).
export { expectTypeOf } from "expect-type";

type AssertType = <T>(value: T) => void;

/** Type-checks `value` against `T`; at run time, nothing. */
export const assertType: AssertType = function assertType() {};
