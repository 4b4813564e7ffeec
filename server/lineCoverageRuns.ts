// Run with Coverage's line coverage: each test file's last run that measured it (the explorer's
// coverage runs, RunTestsParams.coverage), kept by test file and merged when the client asks
// (`turnlens/lineCoverage`). The server's one instance (`server.lineCoverage`), made by startServer.
import type { CoverageMap } from "istanbul-lib-coverage";
import { mergeLineCoverage } from "../core/coverage/lineCoverageMap.ts";
import type { JobResult } from "../core/execution/pool.ts";
import type { LineCoverageData } from "../core/execution/v8Coverage.ts";
import type { Scheduler } from "./scheduler.ts";
import type { RunInfo } from "./state.ts";

type Guard = <P extends unknown[]>(name: string, handler: (...params: P) => void) => (...params: P) => void;

export class LineCoverageRuns {
  /** Test file (absolute) → the line coverage of its last coverage run. */
  private readonly runs = new Map<string, LineCoverageData>();

  constructor(scheduler: Scheduler, guard: Guard) {
    scheduler.onDidEndRun.event(
      guard("keep line coverage", ({ run, result }: { run: RunInfo; result?: JobResult }) => {
        // A coverage run that ended, stale or not: the coverage is of the code that ran, as a
        // coverage run in the terminal would be. A worker that died mid-file sent none: none kept.
        if (!run.request.coverage || !result) return;
        if (result.coverage) this.runs.set(run.file, result.coverage);
        else this.runs.delete(run.file);
      }),
    );
  }

  /** The merged coverage of the given test files' last coverage runs (all of them when absent), without any test file. */
  coverage(tests?: ReadonlySet<string>): CoverageMap {
    const chosen = [...this.runs].filter(([file]) => !tests || tests.has(file));
    return mergeLineCoverage(
      chosen.map(([, data]) => data),
      new Set(this.runs.keys()),
    );
  }
}
