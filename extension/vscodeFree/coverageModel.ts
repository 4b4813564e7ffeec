// Run with Coverage's view of the server's answers, without VS Code: per file, the line coverage
// (`turnlens/lineCoverage`: its statements, with the code's branches, and its functions), and at
// each workflow call its outcomes as branches (`turnlens/outcomeCoverage`: the call's statement
// gets one branch per outcome it can end with, executed by the turns that ended so). The file's
// percentage is its line coverage; a workflow file no coverage run measured falls back to its
// calls as statements. testController.ts applies it.
import type { LineCoverageResult, OutcomeCoverageResult } from "../../server/protocol.ts";

type Range = OutcomeCoverageResult["workflows"][number]["calls"][number]["range"];

export interface BranchModel {
  /** The outcome word (VS Code says "the timed-out branch was not taken"), or the code branch's kind. */
  label: string;
  executed: number;
  /** Where the arm is, for a code branch; an outcome branch is at its call. */
  range?: Range;
}

export interface StatementModel {
  range: Range;
  /** Times it ran; for a call site, the turns (or decisions) asked there. */
  executed: number;
  branches: BranchModel[];
}

export interface DeclarationModel {
  name: string;
  range: Range;
  executed: number;
}

export interface FileCoverageModel {
  uri: string;
  statements: StatementModel[];
  declarations: DeclarationModel[];
  /** The file's percentage: lines run out of lines with a statement (calls reached, for a file only outcomes cover). */
  statementCounts: { covered: number; total: number };
  /** Code branch arms and outcomes taken, out of all: the detail, outside the percentage. */
  branchCounts: { covered: number; total: number };
}

const before = (left: Range["start"], right: Range["start"]) => left.line < right.line || (left.line === right.line && left.character <= right.character);
const contains = (outer: Range, inner: Range) => before(outer.start, inner.start) && before(inner.end, outer.end);
const size = (range: Range) => (range.end.line - range.start.line) * 1e6 + (range.end.character - range.start.character);

/** The smallest statement holding `range`, else the first on its line. */
function statementAt(statements: readonly StatementModel[], range: Range): StatementModel | undefined {
  const holding = statements.filter((statement) => contains(statement.range, range)).sort((left, right) => size(left.range) - size(right.range));
  return holding[0] ?? statements.find((statement) => statement.range.start.line === range.start.line);
}

export function coverageModel(outcomes: OutcomeCoverageResult, lines: LineCoverageResult = { files: [] }): FileCoverageModel[] {
  const files = new Map<string, FileCoverageModel>();
  for (const file of lines.files) {
    const statements = file.statements.map((statement): StatementModel => ({ range: statement.range, executed: statement.executed, branches: [] }));
    for (const branch of file.branches) {
      const at = statementAt(statements, branch.range);
      for (const arm of branch.arms) at?.branches.push({ label: branch.kind, executed: arm.executed, range: arm.range });
    }
    files.set(file.uri, {
      uri: file.uri,
      statements,
      declarations: file.functions.map((fn) => ({ name: fn.name, range: fn.range, executed: fn.executed })),
      statementCounts: file.lines,
      branchCounts: { covered: 0, total: 0 },
    });
  }
  for (const workflow of outcomes.workflows) {
    const measured = files.get(workflow.uri);
    const statements = measured?.statements ?? [];
    for (const call of workflow.calls) {
      const branches = call.outcomes.map(({ words, turns }): BranchModel => ({ label: words, executed: turns }));
      // The call's statement takes its outcomes; a call no statement holds (or a file not measured) is one of its own.
      const at = measured ? statementAt(statements, call.range) : undefined;
      if (at) at.branches.push(...branches.map((branch) => ({ ...branch, range: call.range })));
      else statements.push({ range: call.range, executed: call.turns, branches });
    }
    if (!measured) {
      files.set(workflow.uri, {
        uri: workflow.uri,
        statements,
        declarations: [],
        statementCounts: { covered: statements.filter((statement) => statement.executed > 0).length, total: statements.length },
        branchCounts: { covered: 0, total: 0 },
      });
    }
  }
  for (const file of files.values()) {
    const branches = file.statements.flatMap((statement) => statement.branches);
    file.branchCounts = { covered: branches.filter((branch) => branch.executed > 0).length, total: branches.length };
  }
  return [...files.values()];
}
