// What `turnlens test --coverage` prints after the run: per workflow file, the outcomes each agent
// was given and not given, each call site's tests and outcomes, and the call sites no test
// reached; `--coverage=json` prints the same as one JSON document, for CI (docs/runner.md).
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { outcomeKindWords } from "../testing/outcomeWords.ts";
import type { SourceSite } from "../testing/trace.ts";
import { callSummary, OUTCOME_KINDS, outcomeCoverage, type OutcomeCoverage } from "./outcomeCoverage.ts";
import type { FileReport } from "../execution/report.ts";
import { workflowCallSites, type WorkflowCallSite } from "./workflowCallSites.ts";

/** The coverage of the reports, with each workflow's call sites read from its file on disk. */
export function coverageOfReports(reports: readonly FileReport[]): OutcomeCoverage {
  const cache = new Map<string, WorkflowCallSite[] | undefined>();
  return outcomeCoverage({
    reports,
    callSitesOf: (file) => {
      if (!cache.has(file)) {
        try {
          cache.set(file, workflowCallSites(readFileSync(file, "utf8")));
        } catch {
          // A file gone since the run: only the calls the traces name are shown.
          cache.set(file, undefined);
        }
      }
      return cache.get(file);
    },
  });
}

function shown(cwd: string, file: string): string {
  const name = relative(cwd, file);
  return name === "" || name.startsWith("..") ? file : name;
}

/** The table, one line per row, no colors. */
export function coverageTable(coverage: OutcomeCoverage, cwd: string): string[] {
  if (coverage.workflows.length === 0) return ["outcome coverage: no test reached a workflow call"];
  const lines: string[] = [];
  for (const workflow of coverage.workflows) {
    lines.push(`outcome coverage · ${shown(cwd, workflow.file)}`);
    const rows = workflow.agents.map((agent) => [
      `  ${agent.key}`,
      agent.openedAt ? `line ${agent.openedAt.line}` : "",
      agent.given.length > 0 ? agent.given.map((outcome) => outcomeKindWords(outcome)).join(", ") : "none",
      agent.notGiven.length > 0 ? agent.notGiven.map((outcome) => outcomeKindWords(outcome)).join(", ") : "none",
    ]);
    if (rows.length > 0) lines.push(...aligned([["  agent", "opened", "given", "not given"], ...rows]));
    const reached = workflow.calls.filter((call) => call.reached.length > 0);
    if (reached.length > 0) {
      lines.push(...aligned(reached.map((call) => [`  line ${call.site.line}`, call.callee ?? call.kind, callSummary(call)])));
    }
    lines.push(
      workflow.unreached.length === 0
        ? "  every call site was reached"
        : `  no test reached: ${workflow.unreached.map((call) => `line ${call.site.line} ${call.callee ?? call.kind}`).join(", ")}`,
    );
  }
  return lines;
}

function aligned(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

/** The JSON document: paths relative to `cwd`, sites as `{ file, line, column }`. */
export function coverageJson(coverage: OutcomeCoverage, cwd: string): unknown {
  const site = (at: SourceSite) => ({ file: shown(cwd, at.file), line: at.line, column: at.column });
  return {
    outcomeKinds: OUTCOME_KINDS,
    workflows: coverage.workflows.map((workflow) => ({
      file: shown(cwd, workflow.file),
      agents: workflow.agents.map((agent) => ({
        key: agent.key,
        ...(agent.openedAt ? { openedAt: site(agent.openedAt) } : {}),
        given: agent.given,
        notGiven: agent.notGiven,
        tests: agent.reached.length,
      })),
      calls: workflow.calls.map((call) => ({
        ...site(call.site),
        kind: call.kind,
        ...(call.callee ? { callee: call.callee } : {}),
        tests: call.reached.map((reach) => ({
          file: shown(cwd, reach.test.file),
          test: reach.test.path.join(" › "),
          turns: reach.turns.map((turn) => ({ agent: turn.agent, n: turn.n, ...(turn.nudge ? { nudge: true } : {}), outcome: turn.outcome })),
        })),
        outcomes: Object.fromEntries(call.outcomes.map(({ outcome, turns }) => [outcome, turns])),
      })),
      unreached: workflow.unreached.map((call) => ({ ...site(call.site), kind: call.kind, ...(call.callee ? { callee: call.callee } : {}) })),
    })),
  };
}

export type CoverageFormat = "table" | "json";

/** Writes the coverage of `reports` to `out.stdout`: the table after a blank line, or the JSON document. */
export function printCoverage(reports: readonly FileReport[], format: CoverageFormat, out: { stdout: NodeJS.WritableStream; cwd: string }): void {
  const coverage = coverageOfReports(reports);
  if (format === "json") out.stdout.write(`${JSON.stringify(coverageJson(coverage, out.cwd), null, 2)}\n`);
  else out.stdout.write(`\n${coverageTable(coverage, out.cwd).join("\n")}\n`);
}
