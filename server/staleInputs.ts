// Which run results were made from inputs that changed since the run read them (a workflow edited
// after it): their code lenses and inlay hints carry the stale mark, as an edited test file's do,
// until the new run's results replace them, so a lens never says ✓ of a workflow that is no more.
import type { TestReport } from "../core/execution/report.ts";
import type { Server } from "./server.ts";
import type { RunResults } from "./state.ts";

/** The files a run read and the scheduler's input-change count when it started. */
interface RunRead {
  files: readonly string[];
  changesBefore: number;
}

export class StaleInputs {
  private readonly byReport = new WeakMap<TestReport, RunRead>();
  private readonly byResults = new WeakMap<RunResults, RunRead>();

  constructor(private readonly server: Server) {
    server.scheduler.onDidEndRun.event(
      server.guardNotification("remember what a run read", ({ run, outcome, result }) => {
        if (outcome !== "fresh" || !result) return;
        const read: RunRead = { files: result.inputs ?? [run.file], changesBefore: run.changesBefore };
        for (const report of result.report.tests) this.byReport.set(report, read);
        const results = server.state.get(run.uri)?.results;
        if (results) this.byResults.set(results, read);
      }),
    );
  }

  /** Whether a file the run of this test report read changed after that run started. */
  reportStale(report: TestReport): boolean {
    const read = this.byReport.get(report);
    return read !== undefined && this.server.scheduler.changedAfter(read.files, read.changesBefore);
  }

  /** Whether a file the run of these results read changed after that run started. */
  resultsStale(results: RunResults): boolean {
    const read = this.byResults.get(results);
    return read !== undefined && this.server.scheduler.changedAfter(read.files, read.changesBefore);
  }
}

const instances = new WeakMap<Server, StaleInputs>();

/** The server's one StaleInputs (made by the first feature that asks, at registration). */
export function staleInputs(server: Server): StaleInputs {
  let instance = instances.get(server);
  if (!instance) instances.set(server, (instance = new StaleInputs(server)));
  return instance;
}
