// What a test run produced, as plain JSON-serialisable data. The CLI reporters, the worker
// protocol and the language server all speak in these types.
import type { ProblemTrace, RunTrace, SourceSite } from "../testing/trace.ts";
import type { SnapshotFileResult } from "../testApi/snapshots.ts";

/** A place in a source file, 1-based line and column, mapped back to the `.ts` source. */
export type Site = SourceSite;

export type TestStatus = "passed" | "failed" | "skipped" | "todo";

export interface ErrorReport {
  /** The error's message, without colors. For `expect` failures it already holds the diff. */
  message: string;
  /** The error's class as JUnit's `type` shows it: `AssertionError` for an `expect` failure, else its `name` (`TypeError`, `TestWorkflowError`). */
  type?: string;
  stack?: string;
  /** First stack frame in the test file, else the first frame in a user file. */
  location?: Site;
  /** The matcher's expected value, printed, when the error came from `expect`. */
  expected?: string;
  /** The matcher's received value, printed, when the error came from `expect`. */
  actual?: string;
  /** The `- Expected / + Received` part of an `expect` message, when it has one. */
  diff?: string;
  /** The test's own mistakes behind an error `testWorkflow` rejected with. */
  problems?: ProblemTrace[];
  /** For a syntax or import error: the source line with a caret under the column. */
  codeFrame?: string;
}

export interface TestReport {
  /** Stable within a file: the path joined with " › ", with " (2)" and so on for repeated names. */
  id: string;
  name: string;
  /** The describe names, then the test name. */
  path: string[];
  status: TestStatus;
  durationMs: number;
  /** Where the `test(...)` call is. */
  location?: Site;
  error?: ErrorReport;
  /** Every `testWorkflow` call this test made, in the order they settled. */
  runs: RunTrace[];
}

export interface FileReport {
  /** Absolute path of the test file. */
  file: string;
  tests: TestReport[];
  /** The file could not be loaded: a syntax error, a missing import, a throw at the top level. */
  error?: ErrorReport;
  durationMs: number;
  /** The run was stopped (Ctrl-C, `--bail`) before the file ended: `tests` holds those that had. */
  stopped?: true;
  /** Reported from `--cache`: an earlier run's result for the same bytes of every input, not run now. */
  cached?: true;
  /**
   * Notes that are no failure, each a sentence: the builtins the file changed, for which its worker
   * was replaced (`a.test.ts changed Promise.prototype.then; its worker was replaced`).
   */
  warnings?: string[];
  /**
   * The file's snapshots, when it matched any or its .snap file has any: Vitest's counts, the
   * obsolete keys, and each failed snapshot's kind, file (the .snap, or the source of an inline
   * one, with its site) and key, for a client's diff and "Update this snapshot".
   */
  snapshots?: SnapshotFileResult;
}

export interface RunSummary {
  files: FileReport[];
  passed: number;
  /** Failed tests, plus one for each file that failed to load. */
  failed: number;
  /** Skipped and todo tests. */
  skipped: number;
}

export function summarize(files: FileReport[]): RunSummary {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of files) {
    if (file.error) failed++;
    for (const test of file.tests) {
      if (test.status === "passed") passed++;
      else if (test.status === "failed") failed++;
      else skipped++;
    }
  }
  return { files, passed, failed, skipped };
}

/** The full name a `-t` pattern is matched against: describe names and test name, space separated. */
export function fullName(path: readonly string[]): string {
  return path.join(" ");
}

/** The report of a beforeAll/afterAll hook whose worker died or was stopped while it ran (`why`). */
export function hookFailureReport(kind: "beforeAll" | "afterAll", suite: string[], why: string): TestReport {
  const name = `${kind} hook`;
  return {
    id: [...suite, name].join(" › "),
    name,
    path: [...suite, name],
    status: "failed",
    durationMs: 0,
    error: { message: `the ${name} ${why}; the file's remaining tests did not run` },
    runs: [],
  };
}
