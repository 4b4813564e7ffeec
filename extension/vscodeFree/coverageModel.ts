// Run with Coverage's view of the server's `turnlens/outcomeCoverage` answer, without VS Code: per
// workflow file, one statement per call site (executed: the turns asked there), each with one branch
// per outcome it can end with (executed: the turns that ended so). testController.ts applies it.
import type { OutcomeCoverageResult } from "../../server/protocol.ts";

type Range = OutcomeCoverageResult["workflows"][number]["calls"][number]["range"];

export interface BranchModel {
  /** The outcome word: VS Code says "the timed-out branch was not taken". */
  label: string;
  executed: number;
}

export interface StatementModel {
  range: Range;
  /** Turns (or decisions) asked at the call; 0 when no test reached it. */
  executed: number;
  branches: BranchModel[];
}

export interface FileCoverageModel {
  uri: string;
  statements: StatementModel[];
  /** Calls reached out of the calls found. */
  statementCounts: { covered: number; total: number };
  /** Outcomes some test gave out of the outcomes the calls can end with. */
  branchCounts: { covered: number; total: number };
}

export function coverageModel(result: OutcomeCoverageResult): FileCoverageModel[] {
  return result.workflows.map((workflow) => {
    const statements = workflow.calls.map(
      (call): StatementModel => ({
        range: call.range,
        executed: call.turns,
        branches: call.outcomes.map(({ outcome, turns }) => ({ label: outcome, executed: turns })),
      }),
    );
    const branches = statements.flatMap((statement) => statement.branches);
    return {
      uri: workflow.uri,
      statements,
      statementCounts: { covered: statements.filter((statement) => statement.executed > 0).length, total: statements.length },
      branchCounts: { covered: branches.filter((branch) => branch.executed > 0).length, total: branches.length },
    };
  });
}
