// Every test's latest result (extension/vscodeFree/latestResults.ts): what the Testing view's summary, its
// badge and the status bar count, and whether a background run changed anything worth an entry in
// Test Results (one that gives every test the result it had adds none).
import { describe, expect, test } from "bun:test";
import { LatestResults } from "../../extension/vscodeFree/latestResults.ts";
import { runNodeId } from "../../extension/vscodeFree/testTree.ts";
import { TestId } from "../../server/protocol.ts";

const A = "file:///w/a.test.ts";
const B = "file:///w/b.test.ts";
const a1 = TestId.of(A, ["one"]);
const a2 = TestId.of(A, ["two"]);
const b1 = TestId.of(B, ["one"]);
const failure = { message: "expected 2, got 3", expected: "2", actual: "3" };

/** Run All: a.test.ts passes, b.test.ts's test fails. */
function afterRunAll(): LatestResults {
  const latest = new LatestResults();
  latest.record(a1, { state: "passed", durationMs: 3, messages: [] });
  latest.record(a2, { state: "passed", durationMs: 4, messages: [] });
  latest.record(b1, { state: "failed", durationMs: 5, messages: [failure] });
  latest.takeChanged();
  return latest;
}

describe("every test's latest result", () => {
  test("counts every file's tests whichever run gave their result: a run of a passing file leaves another file's failure counted", () => {
    const latest = afterRunAll();
    // The background run of a.test.ts after an edit: both pass again.
    latest.record(a1, { state: "passed", durationMs: 2, messages: [] });
    latest.record(a2, { state: "passed", durationMs: 6, messages: [] });
    expect(latest.counts()).toEqual({ passed: 2, failed: 1, skipped: 0 });
  });

  test("a run that gives every test the result it had changed nothing (no entry in Test Results), whatever its durations", () => {
    const latest = afterRunAll();
    expect(latest.record(a1, { state: "passed", durationMs: 9, messages: [] })).toBe(false);
    expect(latest.record(b1, { state: "failed", durationMs: 1, messages: [failure] })).toBe(false);
    expect(latest.takeChanged()).toBe(false);
  });

  test("a failure that moved with an edit above it is the same failure (VS Code moves its decoration with the text)", () => {
    const latest = new LatestResults();
    const at = (line: number) => ({ uri: B, range: { start: { line, character: 2 }, end: { line, character: 9 } } });
    latest.record(b1, { state: "failed", messages: [{ ...failure, location: at(7) }] });
    latest.takeChanged();
    expect(latest.record(b1, { state: "failed", messages: [{ ...failure, location: at(9) }] })).toBe(false);
    expect(latest.takeChanged()).toBe(false);
  });

  test("a new state, another failure message or a first result is a change", () => {
    const latest = afterRunAll();
    expect(latest.record(a1, { state: "failed", messages: [failure] })).toBe(true);
    expect(latest.takeChanged()).toBe(true);
    expect(latest.takeChanged()).toBe(false);
    expect(latest.record(b1, { state: "failed", messages: [{ ...failure, actual: "4", message: "expected 2, got 4" }] })).toBe(true);
    expect(latest.record(TestId.of(B, ["new"]), { state: "passed", messages: [] })).toBe(true);
    expect(latest.counts()).toEqual({ passed: 2, failed: 2, skipped: 0 });
  });

  test("an errored test counts as failed, a skipped one as skipped, and a testWorkflow run's node is no test", () => {
    const latest = new LatestResults();
    latest.record(a1, { state: "errored", messages: [{ message: "the server stopped" }] });
    latest.record(a2, { state: "skipped", messages: [] });
    expect(latest.record(runNodeId(b1, 0), { state: "passed", messages: [] })).toBe(false);
    expect(latest.counts()).toEqual({ passed: 0, failed: 1, skipped: 1 });
  });

  test("a test renamed or deleted, or a file removed, has no result any more, and its going is a change", () => {
    const latest = afterRunAll();
    latest.keepOnly(A, new Set([A, a1]));
    expect(latest.takeChanged()).toBe(true);
    expect(latest.counts()).toEqual({ passed: 1, failed: 1, skipped: 0 });
    latest.forgetFile(B);
    expect(latest.takeChanged()).toBe(true);
    expect(latest.counts()).toEqual({ passed: 1, failed: 0, skipped: 0 });
    // Tests still there are no change.
    latest.keepOnly(A, new Set([A, a1]));
    expect(latest.takeChanged()).toBe(false);
  });

  test("counts only the tests whose file is in the workspace's tree", () => {
    expect(afterRunAll().counts((id) => TestId.parse(id).uri === B)).toEqual({ passed: 0, failed: 1, skipped: 0 });
  });

  test("is kept across sessions without the controller's detail, and what another shape stored is ignored", () => {
    const latest = new LatestResults<string>();
    latest.record(b1, { state: "failed", durationMs: 5, messages: [failure], detail: "VS Code's messages" });
    const stored = JSON.parse(JSON.stringify(latest.stored()));
    expect(stored).toEqual([[b1, { state: "failed", durationMs: 5, messages: [failure] }]]);
    const next = new LatestResults();
    next.restore([...stored, ["x", { state: "exploded", messages: [] }], "nonsense", [a1, { state: "passed" }]]);
    next.restore({ not: "a list" });
    expect(next.entries()).toEqual([[b1, { state: "failed", durationMs: 5, messages: [failure] }]]);
    // Restored results are known: the same result again is no change.
    expect(next.record(b1, { state: "failed", messages: [failure] })).toBe(false);
    expect(next.takeChanged()).toBe(false);
  });
});
