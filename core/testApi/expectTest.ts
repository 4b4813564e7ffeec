// The test `expect` belongs to while it runs: what `expect.soft` records a failure on, what
// `expect.poll` and unawaited `.resolves` hang their checks on. One function reads it, so the
// runner that runs tests (today runFile.ts through the collector) is the one place to re-point.
import type { AnyFn } from "./collector.ts";

/**
 * The part of @vitest/runner's `Test` task that @vitest/expect reads and writes: its name, the
 * result a soft failure is pushed to, the promises of assertions not awaited, and what runs
 * when the test ends. A real @vitest/runner `Test` is one.
 */
export interface ExpectTask {
  type: "test";
  name: string;
  fullTestName?: string;
  result?: { state: string; errors?: unknown[] };
  promises?: Promise<unknown>[];
  onFinished?: AnyFn[];
}

let current: ExpectTask | undefined;

/** The running test, for `expect`; undefined between tests (an `expect` outside any test). */
export function currentTestForExpect(): ExpectTask | undefined {
  return current;
}

/** Set by the runner as a test starts (its task) and ends (undefined). */
export function setTestForExpect(task: ExpectTask | undefined): void {
  current = task;
}
