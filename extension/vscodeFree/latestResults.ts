// Every test's latest known result in the workspace, whichever run gave it: what the Testing view's
// summary, its badge and the status bar count, and what a background run is compared with (one that
// changed no test's result makes no entry in Test Results). No `vscode` import, so it is unit-tested.
import { TestId } from "../../server/protocol.ts";
import { testIdOf, type MessageModel, type TestCounts } from "./testTree.ts";

/** The results a test can end a run with. */
export type FinalState = "passed" | "failed" | "errored" | "skipped";

/** A test's latest result; `detail` is what the controller shows of it (its VS Code messages), not compared. */
export interface LatestResult<Detail = unknown> {
  state: FinalState;
  durationMs?: number;
  messages: MessageModel[];
  detail?: Detail;
}

/** What is kept across sessions (workspaceState): results without their detail. */
export type StoredResults = Array<[test: string, result: LatestResult<never>]>;

/** At most this many results are kept across sessions: a record, not a history. */
const STORED = 5000;

export class LatestResults<Detail = unknown> {
  private readonly byTest = new Map<string, LatestResult<Detail>>();
  /** A result changed, or a test with one went away, since the last `takeChanged`. */
  private changed = false;

  /**
   * Records a test's result (a `testWorkflow` run's node is not a test: ignored). A result is news
   * when the test had none, or another state, or other messages; where a message points is not
   * compared (an edit above a failure moves it, and VS Code moves its decoration with the text).
   */
  record(test: string, result: LatestResult<Detail>): boolean {
    if (testIdOf(test) !== test) return false;
    const before = this.byTest.get(test);
    this.byTest.set(test, result);
    const news = before === undefined || before.state !== result.state || !sameMessages(before.messages, result.messages);
    if (news) this.changed = true;
    return news;
  }

  get(test: string): LatestResult<Detail> | undefined {
    return this.byTest.get(test);
  }

  /** The file's tests are now `present` (its tree was discovered again): the others' results go. */
  keepOnly(uri: string, present: ReadonlySet<string>): void {
    for (const test of this.byTest.keys()) if (TestId.parse(test).uri === uri && !present.has(test)) this.forget(test);
  }

  /** The file is gone (deleted, or no longer a test file): its tests' results go. */
  forgetFile(uri: string): void {
    for (const test of this.byTest.keys()) if (TestId.parse(test).uri === uri) this.forget(test);
  }

  /** Whether anything changed since the last call; resets it. */
  takeChanged(): boolean {
    const changed = this.changed;
    this.changed = false;
    return changed;
  }

  /** Every test's latest result (those `counted` says are in the workspace), by result; an errored test counts as failed. */
  counts(counted: (test: string) => boolean = () => true): TestCounts {
    const counts: TestCounts = { passed: 0, failed: 0, skipped: 0 };
    for (const [test, { state }] of this.byTest) {
      if (!counted(test)) continue;
      switch (state) {
        case "passed":
          counts.passed++;
          break;
        case "failed":
        case "errored":
          counts.failed++;
          break;
        case "skipped":
          counts.skipped++;
          break;
        default:
          state satisfies never;
      }
    }
    return counts;
  }

  entries(): Array<[string, LatestResult<Detail>]> {
    return [...this.byTest];
  }

  /** The results to keep across sessions, without their detail. */
  stored(): StoredResults {
    return [...this.byTest].slice(-STORED).map(([test, { detail: _detail, ...result }]) => [test, result]);
  }

  /** Takes back what `stored` gave (a value of another shape, from an older version, is ignored); not news. */
  restore(stored: unknown): void {
    if (!Array.isArray(stored)) return;
    for (const entry of stored) {
      if (!Array.isArray(entry) || typeof entry[0] !== "string" || !isStoredResult(entry[1])) continue;
      if (!this.byTest.has(entry[0])) this.byTest.set(entry[0], entry[1]);
    }
  }

  private forget(test: string): void {
    if (this.byTest.delete(test)) this.changed = true;
  }
}

const FINAL_STATES: ReadonlySet<string> = new Set<FinalState>(["passed", "failed", "errored", "skipped"]);

function isStoredResult(value: unknown): value is LatestResult<never> {
  if (typeof value !== "object" || value === null) return false;
  const { state, messages } = value as { state?: unknown; messages?: unknown };
  return typeof state === "string" && FINAL_STATES.has(state) && Array.isArray(messages) && messages.every((message) => typeof message?.message === "string");
}

function sameMessages(left: readonly MessageModel[], right: readonly MessageModel[]): boolean {
  return left.length === right.length && left.every((message, index) => sameMessage(message, right[index]!));
}

function sameMessage(left: MessageModel, right: MessageModel): boolean {
  return left.message === right.message && left.expected === right.expected && left.actual === right.actual && left.location?.uri === right.location?.uri;
}
