// `turnlens/outcomeCoverage`: the Test Explorer's Run with Coverage asks, once its run ended, what
// the tests did in each workflow file they reached: every call site found in the file's text with
// how many tests reached it and how its turns ended. From the same runs the workflow views read
// (workflowRuns.ts), narrowed to the test files the client names.
import { pathToFileURL } from "node:url";
import { OUTCOME_KINDS, type CallCoverage, type Reach } from "../../core/coverage/outcomeCoverage.ts";
import { OutcomeCoverageRequest, type CallSiteCoverage, type OutcomeCoverageParams, type OutcomeCoverageResult } from "../protocol.ts";
import type { Server } from "../server.ts";
import { fileOf } from "../state.ts";
import { callNameRange } from "../analysis/ranges.ts";

/** The outcomes a decision can end with (core/coverage/outcomeCoverage.ts's `decisionOutcome`). */
const DECISION_OUTCOMES = ["answered", "unanswered", "failed"];

export function register(server: Server): void {
  const runs = server.workflowViews.runs;
  server.connection.onRequest(
    OutcomeCoverageRequest.type,
    server.guardRequest(OutcomeCoverageRequest.method, (params: OutcomeCoverageParams): OutcomeCoverageResult => {
      const tests = params?.tests ? new Set(params.tests.map((uri) => fileOf(uri)).filter((file): file is string => file !== undefined)) : undefined;
      const workflows: OutcomeCoverageResult["workflows"] = [];
      for (const workflow of runs.coverage().workflows) {
        const lines = (runs.textOf(workflow.file) ?? "").split("\n");
        const calls = workflow.calls.map((call) => callSite(call, lines, tests));
        // A workflow only the other test files reached is not this run's.
        if (!calls.some((call) => call.tests > 0)) continue;
        workflows.push({ uri: pathToFileURL(workflow.file).href, calls });
      }
      return { workflows };
    }),
  );
}

function callSite(call: CallCoverage, lines: readonly string[], tests: Set<string> | undefined): CallSiteCoverage {
  const reached: Reach[] = tests ? call.reached.filter((reach) => tests.has(reach.test.file)) : call.reached;
  const counts = new Map<string, number>();
  for (const reach of reached) for (const turn of reach.turns) counts.set(turn.outcome, (counts.get(turn.outcome) ?? 0) + 1);
  const possible: string[] = call.kind === "decision" ? DECISION_OUTCOMES : OUTCOME_KINDS;
  const others = [...counts.keys()].filter((outcome) => !possible.includes(outcome)).sort();
  return {
    range: callNameRange(lines, call.site, call.callee),
    kind: call.kind,
    ...(call.callee !== undefined ? { callee: call.callee } : {}),
    tests: reached.length,
    turns: reached.reduce((sum, reach) => sum + reach.turns.length, 0),
    outcomes: [...possible, ...others].map((outcome) => ({ outcome, turns: counts.get(outcome) ?? 0 })),
  };
}
