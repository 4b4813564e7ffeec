// `turnlens/outcomeCoverage`: the Test Explorer's Run with Coverage asks, once its run ended, what
// the tests did in each workflow file they reached: every call site found in the file's text with
// how many tests reached it and how its turns ended. From the same runs the workflow views read
// (workflowRuns.ts), narrowed to the test files the client names.
import { pathToFileURL } from "node:url";
import { OutcomeCoverageRequest, type OutcomeCoverageParams, type OutcomeCoverageResult } from "../protocol.ts";
import type { Server } from "../server.ts";
import { fileOf } from "../state.ts";
import { callSite } from "../workflowFiles/callSiteCoverage.ts";

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
