// The pure mapping from what the server found to LSP's types (rust-analyzer's to_proto): a
// Turnlens diagnostic with what its fixes need, the severity a setting names, a static problem, a markdown
// hover, an inlay hint. No lookups and no wording: runView.ts and the features decide those.
import { DiagnosticSeverity, MarkupKind, type Diagnostic, type Hover, type InlayHint, type Position, type Range } from "vscode-languageserver";
import type { StaticProblem, StaticTestFile } from "../analysis/model.ts";
import type { FixNeed, Unreached } from "./fixes.ts";
import type { Settings } from "../settings.ts";

export const SOURCE = "turnlens";

/** What a Turnlens diagnostic carries besides LSP's fields. */
export interface DiagnosticData {
  /** What its quick fixes need; features/codeActions.ts makes their edits when they are asked. */
  fixes: FixNeed[];
  /** The runner id of the test the diagnostic came from, for run diagnostics. */
  test?: string;
  /** On each diagnostic of an entry never reached: every such entry of the file, which one fix removes. */
  removeAll?: Unreached[];
}

export type TurnlensDiagnostic = Omit<Diagnostic, "data"> & { data: DiagnosticData };

const SEVERITY: Record<Settings["entryNeverReachedSeverity"], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** The LSP severity a severity setting names. */
export function severityOf(setting: Settings["entryNeverReachedSeverity"]): DiagnosticSeverity {
  return SEVERITY[setting];
}

export function diagnostic(
  range: Range,
  code: string,
  message: string,
  fixes: FixNeed[] = [],
  severity: DiagnosticSeverity = DiagnosticSeverity.Error,
): TurnlensDiagnostic {
  return { range, severity, source: SOURCE, code, message, data: { fixes } };
}

/** The diagnostics the static pass alone gives: before any run, and while runs are off. */
export function staticDiagnostics(model: StaticTestFile): TurnlensDiagnostic[] {
  return model.problems.map((problem: StaticProblem) => {
    // Only an unknown option is placed on the name a rename replaces (a script problem is on its value).
    const fixes: FixNeed[] =
      problem.code === "unknown-option" && problem.option && problem.suggestion
        ? [{ kind: "rename", nameRange: problem.range, written: problem.option, suggestion: problem.suggestion }]
        : [];
    // Code too deep to analyse is not a mistake: the user is told, not warned.
    const severity = problem.code === "too-deep" ? DiagnosticSeverity.Information : DiagnosticSeverity.Error;
    return diagnostic(problem.range, problem.code, problem.message, fixes, severity);
  });
}

export function markdownHover(markdown: string, range: Range): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: markdown }, range };
}

/** A hint after the text at `position` (a line's end). */
export function inlayHint(position: Position, label: string): InlayHint {
  return { position, label, paddingLeft: true };
}
