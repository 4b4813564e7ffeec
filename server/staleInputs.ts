// Which run results were made from inputs that changed since the run read them (a workflow edited
// after it): their code lenses and inlay hints carry the stale mark, as an edited test file's do,
// until the new run's results replace them, so a lens never says ✓ of a workflow that is no more.
// The server's one instance (`server.staleInputs`), made by startServer.
import type { TestReport } from "../core/execution/report.ts";
import type { RunOutcome, Scheduler } from "./scheduler.ts";
import type { JobResult } from "../core/execution/pool.ts";
import type { RunInfo, RunResults, ServerState } from "./state.ts";

/** The files a run read and the scheduler's input-change count when it started. */
interface RunRead {
  files: readonly string[];
  changesBefore: number;
}

type RunEnd = { run: RunInfo; outcome: RunOutcome; result?: JobResult };

export class StaleInputs {
  private readonly byReport = new WeakMap<TestReport, RunRead>();
  private readonly byResults = new WeakMap<RunResults, RunRead>();

  constructor(
    state: ServerState,
    private readonly scheduler: Scheduler,
    guard: (name: string, handler: (end: RunEnd) => void) => (end: RunEnd) => void,
  ) {
    scheduler.onDidEndRun.event(
      guard("remember what a run read", ({ run, outcome, result }) => {
        if (outcome !== "fresh" || !result) return;
        const read: RunRead = { files: result.inputs ?? [run.file], changesBefore: run.changesBefore };
        for (const report of result.report.tests) this.byReport.set(report, read);
        const results = state.get(run.uri)?.results;
        if (results) this.byResults.set(results, read);
      }),
    );
  }

  /** Whether a file the run of this test report read changed after that run started. */
  reportStale(report: TestReport): boolean {
    const read = this.byReport.get(report);
    return read !== undefined && this.scheduler.changedAfter(read.files, read.changesBefore);
  }

  /** Whether a file the run of these results read changed after that run started. */
  resultsStale(results: RunResults): boolean {
    const read = this.byResults.get(results);
    return read !== undefined && this.scheduler.changedAfter(read.files, read.changesBefore);
  }
}
