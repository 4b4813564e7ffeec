// The workers `turnlens test` starts as its run goes (workersWanted.ts): one first, all but one
// core for a run worth it, the last core only for one worth a fresh worker's warm-up too.
import { describe, expect, test } from "bun:test";
import { EVERY_CORE_AFTER_MS, MORE_WORKERS_AFTER_MS, workersWanted } from "../../core/runner/workersWanted.ts";

describe("the workers a run wants", () => {
  test("a run whose work left is not yet known, or is short, keeps its one worker", () => {
    expect(workersWanted({ cores: 8, oldestMs: 0, workLeftMs: 0 })).toBe(1);
    expect(workersWanted({ cores: 8, oldestMs: 200, workLeftMs: MORE_WORKERS_AFTER_MS })).toBe(1);
  });

  test("a run with more than a second of work left gets a worker on every core but one", () => {
    expect(workersWanted({ cores: 8, oldestMs: 20, workLeftMs: 1600 })).toBe(7);
  });

  test("on two cores, 100 files' work (~1.6 s) stays in one worker: the second core is the CLI's and esbuild's", () => {
    expect(workersWanted({ cores: 2, oldestMs: 20, workLeftMs: 1600 })).toBe(1);
  });

  test("a run with more work left than a fresh worker's warm-up is worth gets every core", () => {
    expect(workersWanted({ cores: 2, oldestMs: 20, workLeftMs: EVERY_CORE_AFTER_MS + 1 })).toBe(2);
    expect(workersWanted({ cores: 8, oldestMs: 20, workLeftMs: 3100 })).toBe(8);
  });

  test("a file that has held its worker over a second gets the others started at once, even on two cores", () => {
    expect(workersWanted({ cores: 2, oldestMs: MORE_WORKERS_AFTER_MS + 1, workLeftMs: 0 })).toBe(2);
  });

  test("one core, or --maxWorkers 1, is one worker whatever is left", () => {
    expect(workersWanted({ cores: 1, oldestMs: 5000, workLeftMs: 60_000 })).toBe(1);
  });
});
