// Each test's last report, kept from every run (open documents or run from disk) for
// `turnlens/transcript` and `turnlens/timeline`, which render it when a client asks. The server's
// one instance (`server.testReports`), made by startServer.
import type { TestReport } from "../core/execution/report.ts";
import { KEPT_TRANSCRIPT_DOCUMENTS } from "./limits.ts";
import { TestId } from "./protocol.ts";
import type { Scheduler } from "./scheduler.ts";
import type { RunInfo } from "./state.ts";

type Guard = <P extends unknown[]>(name: string, handler: (...params: P) => void) => (...params: P) => void;

export class TestReports {
  /** Document uri → test id → that test's last report, in the order they came in. */
  private readonly reports = new Map<string, Map<string, TestReport>>();

  constructor(scheduler: Scheduler, guard: Guard) {
    scheduler.onRunEvent.event(
      guard("keep test reports", ({ run, event }: { run: RunInfo; event: { type: string; report?: TestReport } }) => {
        if (event.type !== "test" || !event.report) return;
        const tests = this.forDocument(run.uri);
        const id = TestId.of(run.uri, event.report.path);
        tests.delete(id);
        tests.set(id, event.report);
      }),
    );
    scheduler.onDidEndRun.event(
      guard("drop removed tests' reports", ({ run, result }: { run: RunInfo; result?: { report: { tests: TestReport[] } } }) => {
        // A whole-file run that finished says which tests the file has now.
        if (run.request.paths || !result) return;
        const tests = this.reports.get(run.uri);
        if (!tests) return;
        const present = new Set(result.report.tests.map((test) => TestId.of(run.uri, test.path)));
        for (const id of tests.keys()) if (!present.has(id)) tests.delete(id);
      }),
    );
  }

  /** The document's tests' last reports by test id; undefined when none of its runs reported. */
  ofDocument(uri: string): ReadonlyMap<string, TestReport> | undefined {
    return this.reports.get(uri);
  }

  private forDocument(uri: string): Map<string, TestReport> {
    let tests = this.reports.get(uri);
    if (tests) this.reports.delete(uri);
    else tests = new Map();
    // Re-inserting keeps the map in least-recently-run order.
    this.reports.set(uri, tests);
    while (this.reports.size > KEPT_TRANSCRIPT_DOCUMENTS) this.reports.delete(this.reports.keys().next().value!);
    return tests;
  }
}
