// The `tap` reporter: TAP version 14, one subtest per file (`# Subtest: file`, its tests indented
// four spaces), a YAML block under each failure, the plan last; written as each file ends.
import type { ErrorReport, FileReport, TestReport } from "../../execution/report.ts";
import { failuresOf, rel, site, testFileTexts, type Out, type Reporter } from "./reporter.ts";
import { oneLineText } from "./terminalText.ts";

/**
 * A test point's description: `#` starts a directive in TAP, so it is escaped; the line is kept
 * single and its controls shown as escapes (terminalText.ts), which a TAP reader keeps as written.
 */
function description(text: string): string {
  return oneLineText(text.replace(/\\/g, "\\\\").replace(/#/g, "\\#"));
}

/**
 * A YAML diagnostic block (TAP 14 §YAML), its values as JSON strings, which YAML reads as they
 * are; the controls JSON leaves raw (C1, bidi, U+2028) become `\uXXXX`, an escape YAML reads back.
 */
function yamlBlock(indent: string, fields: Record<string, string | undefined>): string[] {
  const lines = [`${indent}  ---`];
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) lines.push(`${indent}  ${key}: ${oneLineText(JSON.stringify(value))}`);
  lines.push(`${indent}  ...`);
  return lines;
}

export class TapReporter implements Reporter {
  private count = 0;
  private readonly texts = testFileTexts();
  constructor(private readonly out: Out) {}

  start(): void {
    this.out.stdout.write("TAP version 14\n");
  }
  fileStart(): void {}
  testEnd(): void {}

  /**
   * A failure's YAML block: `at` and `code` are its first failure's, as every reporter and the
   * editor give them; `also`, the others' of a test with more than one problem.
   */
  private failure(indent: string, error: ErrorReport, report: FileReport, test: TestReport | undefined): string[] {
    const failures = failuresOf(report, test, this.texts).map((failure) => ({ at: site(this.out, failure.site) ?? rel(this.out, report.file), code: failure.code }));
    const [first, ...others] = failures;
    const also = others.length > 0 ? others.map((other) => `${other.at} ${other.code}`).join("; ") : undefined;
    return yamlBlock(indent, {
      message: error.message,
      severity: "fail",
      type: error.type,
      at: first?.at,
      code: first?.code,
      also,
      expected: error.expected,
      actual: error.actual,
    });
  }

  fileEnd(report: FileReport): void {
    const n = ++this.count;
    const name = description(rel(this.out, report.file));
    const lines: string[] = [];
    if (report.error) {
      lines.push(`not ok ${n} - ${name}`);
      lines.push(...this.failure("", report.error, report, undefined));
    } else {
      lines.push(`# Subtest: ${name}`, `    1..${report.tests.length}`);
      report.tests.forEach((test, index) => {
        const point = `${index + 1} - ${description(test.path.join(" › "))}`;
        if (test.status === "passed") lines.push(`    ok ${point} # time=${Math.round(test.durationMs)}ms`);
        else if (test.status === "skipped") lines.push(`    ok ${point} # SKIP`);
        else if (test.status === "todo") lines.push(`    not ok ${point} # TODO`);
        else {
          lines.push(`    not ok ${point} # time=${Math.round(test.durationMs)}ms`);
          const error = test.error ?? { message: "failed" };
          lines.push(...this.failure("    ", error, report, test));
        }
      });
      const failed = report.tests.some((test) => test.status === "failed");
      // A file whose every test was skipped (by -t, .skip or .todo) is itself skipped, as Vitest's TAP marks it.
      const skipped = report.tests.length > 0 && report.tests.every((test) => test.status === "skipped" || test.status === "todo");
      lines.push(`${failed ? "not ok" : "ok"} ${n} - ${name} # ${skipped ? "SKIP" : `time=${Math.round(report.durationMs)}ms`}`);
    }
    this.out.stdout.write(`${lines.join("\n")}\n`);
  }

  finish(_summary: unknown, _durationMs: number, note?: string): void {
    if (note) this.out.stdout.write(`# ${note}\n`);
    this.out.stdout.write(`1..${this.count}\n`);
  }
}
