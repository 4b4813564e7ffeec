// Runs a workflow on the engine itself, with a test's own agent host instead of testWorkflow's
// scripts: for the core tests that check what the engine asks of a host.

import type { Workflow } from "agentswf/workflow";
import { realClocks } from "../../core/workflow/clock.ts";
import { runWorkflow, type RunOptions, type RunResult } from "../../core/workflow/engine.ts";
import type { AgentHost } from "../../core/workflow/host.ts";
import { DEFAULT_RUNTIMES } from "../../core/workflow/runtimes.ts";

/** Attempt 1 of a run with no args and no decisions, on real clocks, in `/tmp` unless `more` says otherwise. */
export function runOnEngine<Result>(workflow: Workflow<null, Result>, host: AgentHost, more: Partial<RunOptions> = {}): Promise<RunResult<Result>> {
  return runWorkflow(workflow, {
    args: null,
    runId: "engine",
    attempt: 1,
    cwd: "/tmp",
    clocks: realClocks,
    host,
    decisions: { name: "none", decide: async () => new Error("no decisions") },
    runtimes: DEFAULT_RUNTIMES,
    ...more,
  });
}
