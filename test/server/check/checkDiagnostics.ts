// checkDiagnostics: the diagnostics published after a fixture's run are exactly the ones written as
// `error[code]: message`, `warning[code, unnecessary]: message`, `info[…]` or `help[…]` annotations,
// each related information in the same file as `related[code]: message` where it points.
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from "vscode-languageserver-protocol";
import type { Annotation } from "./annotations.ts";
import { compareAnnotations, type CheckScope } from "./compareAnnotations.ts";
import type { OpenedFixture } from "./openFixture.ts";

const SEVERITIES: Record<number, string> = {
  [DiagnosticSeverity.Error]: "error",
  [DiagnosticSeverity.Warning]: "warning",
  [DiagnosticSeverity.Information]: "info",
  [DiagnosticSeverity.Hint]: "help",
};
const TAGS: Record<number, string> = { [DiagnosticTag.Unnecessary]: "unnecessary", [DiagnosticTag.Deprecated]: "deprecated" };
const DIAGNOSTIC_TAG = /^(error|warning|info|help|related)\[/;

/** A diagnostic as annotations, itself then its related information in `uri`: every field shows, so none can differ unseen. */
export function diagnosticAnnotations(diagnostic: Diagnostic, uri: string): Annotation[] {
  const { range, severity, code, source, message, tags, relatedInformation, ...others } = diagnostic;
  const here = (relatedInformation ?? []).filter((related) => related.location.uri === uri);
  const elsewhere = (relatedInformation ?? []).filter((related) => related.location.uri !== uri);
  const rest = elsewhere.length > 0 ? { ...others, relatedInformation: elsewhere } : others;
  const details = [
    String(code ?? ""),
    ...(tags ?? []).map((tag) => TAGS[tag] ?? `tag ${tag}`),
    ...(source === "turnlens" ? [] : [`source ${JSON.stringify(source ?? null)}`]),
    ...(Object.keys(rest).length > 0 ? [JSON.stringify(rest)] : []),
  ];
  const text = typeof message === "string" ? message : message.value;
  return [
    { range, tag: `${SEVERITIES[severity ?? 0] ?? `severity ${String(severity)}`}[${details.join(", ")}]`, text },
    ...here.map((related) => ({ range: related.location.range, tag: `related[${String(code ?? "")}]`, text: related.message })),
  ];
}

/** The fixture's diagnostics (in the scope) are the annotated ones, each line's in the order written. */
export function checkDiagnostics(opened: OpenedFixture, scope: CheckScope = {}): void {
  compareAnnotations(
    opened.fixture,
    {
      check: "checkDiagnostics",
      isMine: (annotation) => DIAGNOSTIC_TAG.test(annotation.tag),
      actual: opened.diagnostics.flatMap((diagnostic) => diagnosticAnnotations(diagnostic, opened.uri)),
    },
    scope,
  );
}
