// The workers `turnlens test` starts as its run goes (workersWanted.ts): one first, all but one
// core for a run worth it, the last core only for one worth a fresh worker's warm-up too.
import { describe, expect, test } from "bun:test";
import { EVERY_CORE_AFTER_MS, FILES_MEASURED_FOR_THE_LAST_CORE, MORE_WORKERS_AFTER_MS, workersWanted } from "../../core/runner/workersWanted.ts";

describe("the workers a run wants", () => {
  test("a run whose work left is not yet known, or is short, keeps its one worker", () => {
    expect(workersWanted({ cores: 8, oldestMs: 0, workLeftMs: 0, filesMeasured: 20 })).toBe(1);
    expect(workersWanted({ cores: 8, oldestMs: 200, workLeftMs: MORE_WORKERS_AFTER_MS, filesMeasured: 20 })).toBe(1);
  });

  test("a run with more than a second of work left gets a worker on every core but one", () => {
    expect(workersWanted({ cores: 8, oldestMs: 20, workLeftMs: 1600, filesMeasured: 20 })).toBe(7);
  });

  test("on two cores, 100 files' work (~1.6 s) stays in one worker: the second core is the CLI's and esbuild's", () => {
    expect(workersWanted({ cores: 2, oldestMs: 20, workLeftMs: 1600, filesMeasured: 20 })).toBe(1);
  });

  test("a run with more work left than a fresh worker's warm-up is worth gets every core", () => {
    expect(workersWanted({ cores: 2, oldestMs: 20, workLeftMs: EVERY_CORE_AFTER_MS + 1, filesMeasured: 20 })).toBe(2);
    expect(workersWanted({ cores: 8, oldestMs: 20, workLeftMs: 3100, filesMeasured: 20 })).toBe(8);
  });

  test("a file that has held its worker over a second gets the others started at once, even on two cores", () => {
    expect(workersWanted({ cores: 2, oldestMs: MORE_WORKERS_AFTER_MS + 1, workLeftMs: 0, filesMeasured: 20 })).toBe(2);
  });

  test("a cold worker's first few files, slow, do not buy the last core near its bound (100 files on a busy machine)", () => {
    // 96 files left at the ~28 ms of a cold worker's first files: ~2.7 s, where its later files make ~1.6.
    expect(workersWanted({ cores: 2, oldestMs: 20, workLeftMs: 2700, filesMeasured: 3 })).toBe(1);
    expect(workersWanted({ cores: 2, oldestMs: 20, workLeftMs: 2700, filesMeasured: FILES_MEASURED_FOR_THE_LAST_CORE })).toBe(2);
  });

  test("far past the bound, a few files are enough (200 files, or files that take long)", () => {
    expect(workersWanted({ cores: 2, oldestMs: 20, workLeftMs: 2 * EVERY_CORE_AFTER_MS + 1, filesMeasured: 1 })).toBe(2);
    expect(workersWanted({ cores: 8, oldestMs: 20, workLeftMs: 1600, filesMeasured: 1 })).toBe(7);
  });

  test("one core, or --maxWorkers 1, is one worker whatever is left", () => {
    expect(workersWanted({ cores: 1, oldestMs: 5000, workLeftMs: 60_000, filesMeasured: 20 })).toBe(1);
  });
});
