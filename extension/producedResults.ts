// What the test controller handed VS Code that VS Code's API gives no extension back: a failed test's
// messages with their call stacks (`TestMessage.stackTrace`, dropped by the testObserver proposal's
// snapshots) and each `FileCoverage` with its statements. The last of each, for the e2e suite.
import type * as vscode from "vscode";
import type { FileCoverageModel } from "./vscodeFree/coverageModel.ts";

export interface ProducedMessage {
  message: string;
  location?: { uri: string; line: number };
  stackTrace: Array<{ label: string; uri?: string; line?: number; column?: number }>;
}

export interface ProducedCoverage {
  uri: string;
  statements: { covered: number; total: number };
  /** The code's branch arms and the workflow calls' outcomes, taken out of all (not in VS Code's percentage). */
  branches: { covered: number; total: number };
  /** Each statement's line (0-based), how many times it ran, and its branches (outcome words and code branch kinds). */
  details: Array<{ line: number; executed: number; branches: Array<{ label: string; executed: number }> }>;
  /** Each function's name and how many times it ran. */
  functions: Array<{ name: string; executed: number }>;
}

export interface Produced {
  /** By test id, the messages of its last failure. */
  failures: Record<string, ProducedMessage[]>;
  /** By file uri, the last coverage given for it. */
  coverage: Record<string, ProducedCoverage>;
}

/** At most this many failures are kept (the oldest go first): a record, not a history. */
const KEPT = 200;

export class ProducedResults {
  private readonly failures = new Map<string, ProducedMessage[]>();
  private readonly coverage = new Map<string, ProducedCoverage>();

  failed(test: string, messages: readonly vscode.TestMessage[]): void {
    this.failures.delete(test);
    this.failures.set(
      test,
      messages.map((message) => ({
        message: typeof message.message === "string" ? message.message : message.message.value,
        ...(message.location ? { location: { uri: message.location.uri.toString(), line: message.location.range.start.line } } : {}),
        stackTrace: (message.stackTrace ?? []).map((frame) => ({
          label: frame.label,
          ...(frame.uri ? { uri: frame.uri.toString() } : {}),
          ...(frame.position ? { line: frame.position.line, column: frame.position.character } : {}),
        })),
      })),
    );
    if (this.failures.size > KEPT) this.failures.delete(this.failures.keys().next().value as string);
  }

  covered(file: vscode.FileCoverage, model: FileCoverageModel): void {
    this.coverage.set(file.uri.toString(), {
      uri: file.uri.toString(),
      statements: { covered: file.statementCoverage.covered, total: file.statementCoverage.total },
      branches: model.branchCounts,
      details: model.statements.map((statement) => ({
        line: statement.range.start.line,
        executed: statement.executed,
        branches: statement.branches.map(({ label, executed }) => ({ label, executed })),
      })),
      functions: model.declarations.map(({ name, executed }) => ({ name, executed })),
    });
  }

  snapshot(): Produced {
    return { failures: Object.fromEntries(this.failures), coverage: Object.fromEntries(this.coverage) };
  }
}
