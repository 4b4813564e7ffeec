// `expect` under `turnlens test` is Vitest's (core/testApi/vitestExpect.ts): the real @vitest/expect
// loads beside it, and a failure's report carries Vitest's words, the diff, expected and actual,
// every `expect.soft` failure and an `expect.poll`'s timeout.
import { describe, expect, test } from "bun:test";
import type { RunSummary, TestReport } from "../../core/execution/report.ts";
import { fixture, turnlens } from "./harness.ts";

function testsOf(stdout: string): Record<string, TestReport> {
  const report = JSON.parse(stdout) as RunSummary;
  return Object.fromEntries(report.files.flatMap((file) => file.tests.map((t) => [t.path.join(" > "), t])));
}

describe("expect under turnlens test", () => {
  test("a test file that imports the real @vitest/expect loads and both expects work", async () => {
    const result = await turnlens([fixture("expectBeside"), "--reporter", "json"]);
    const tests = testsOf(result.stdout);
    expect(Object.fromEntries(Object.entries(tests).map(([name, t]) => [name, [t.status, t.error?.message]]))).toEqual({
      "the real @vitest/expect loads and its chai plugins work": ["passed", undefined],
      "the served expect still works after it": ["passed", undefined],
    });
    expect(result.code).toBe(0);
  }, 120_000);

  test("failures are reported in Vitest's words with the diff, expected and actual, a soft failure among them", async () => {
    const result = await turnlens([`${fixture("vitestParity")}/expectSemantics.test.ts`, "--reporter", "json"]);
    const tests = testsOf(result.stdout);
    const soft = tests["expect.soft > records a failure and the test goes on"]!.error!;
    expect(soft.message).toBe("expected 1 to be 2 // Object.is equality\n\n- Expected\n+ Received\n\n- 2\n+ 1");
    expect([soft.type, soft.expected, soft.actual, soft.location?.line]).toEqual(["AssertionError", "2", "1", 24]);
    const assertFailure = tests["chai's assert fails"]!.error!;
    expect(assertFailure.message).toBe("expected 2 to equal 3\n\n- Expected\n+ Received\n\n- 3\n+ 2");
    expect([assertFailure.type, assertFailure.expected, assertFailure.actual, assertFailure.diff]).toEqual([
      "AssertionError",
      "3",
      "2",
      "- Expected\n+ Received\n\n- 3\n+ 2",
    ]);
    expect(tests["expect.poll > fails when the value never passes in time"]!.error!.message).toBe(
      "expected 'never' to be 'always' // Object.is equality\n\nExpected: \"always\"\nReceived: \"never\"\n  caused by: Matcher did not succeed in time.",
    );
    expect(tests["expect.extend > a custom matcher that fails fails the test"]!.error).toMatchObject({
      message: "expected 10 to be divisible by 4",
      type: "AssertionError",
    });
    expect(tests["counting assertions > expect.assertions(2) with one fails"]!.error!.message).toBe("expected number of assertions to be 2, but got 1");
    expect(tests["counting assertions > expect.hasAssertions with none fails"]!.error!.message).toBe("expected any number of assertion, but got none");
    expect(tests["expect.unreachable fails"]!.error!.message).toBe('expected "this branch" not to be reached');
  }, 120_000);
});
