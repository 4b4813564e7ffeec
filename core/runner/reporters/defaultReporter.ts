// The `default` reporter (alias `pretty`): a progress line on a terminal, a line per file, then
// each failure in full and the count line. `dot` and `verbose` extend it.
import type { ErrorReport, FileReport, RunSummary, TestReport } from "../../execution/report.ts";
import { userStack } from "../../execution/stack.ts";
import { canonicalJson } from "../../workflow/json.ts";
import { countLine, failuresOf, paint, rel, site, testFileTexts, testName, type ConsoleReporter, type Out, type Paint } from "./reporter.ts";
import { snapshotSummaryLines } from "./snapshotSummary.ts";
import { blockLines, oneLineText } from "./terminalText.ts";

export class DefaultReporter implements ConsoleReporter {
  protected readonly c: Paint;
  protected readonly tty: boolean;
  private total = 0;
  private doneFiles = 0;
  private passed = 0;
  private failed = 0;
  private running = new Set<string>();
  private progressShown = false;
  private readonly failures: Array<{ report: FileReport; test?: TestReport; error: ErrorReport }> = [];
  private readonly texts = testFileTexts();

  constructor(protected readonly out: Out) {
    this.c = paint(out.color);
    this.tty = Boolean(out.stdout.isTTY);
  }

  protected clearProgress(): void {
    if (this.tty && this.progressShown) {
      this.out.stdout.write("\r\u001b[K");
      this.progressShown = false;
    }
  }

  protected progress(): void {
    if (!this.tty) return;
    const current = [...this.running].map((f) => rel(this.out, f)).join(", ");
    let line = `${this.doneFiles}/${this.total} files · ${this.c.green(`${this.passed} passed`)} · ${this.failed > 0 ? this.c.red(`${this.failed} failed`) : "0 failed"}${current ? this.c.dim(` · ${current}`) : ""}`;
    const width = this.out.stdout.columns ?? 100;
    // keep it on one line (colors make the measure approximate, so leave slack)
    if (line.length > width + 30) line = `${line.slice(0, width + 20)}…`;
    this.out.stdout.write(`\r\u001b[K${line}`);
    this.progressShown = true;
  }

  /** Writes whole lines, the progress line cleared first and drawn again after. */
  protected writeLines(text: string): void {
    this.clearProgress();
    this.out.stdout.write(text);
    this.progress();
  }

  start(fileCount: number): void {
    this.total = fileCount;
    this.progress();
  }

  fileStart(file: string): void {
    this.running.add(file);
    this.progress();
  }

  testEnd(_file: string, test: TestReport): void {
    if (test.status === "passed") this.passed++;
    else if (test.status === "failed") this.failed++;
    this.progress();
  }

  /** The line a file ends with: `✓ file (n tests)`, `↓ file (n skipped)`, `✗ file (k of n failed)` or `✗ file (could not run)`. */
  protected fileLine(report: FileReport): string {
    const name = rel(this.out, report.file);
    const failed = report.tests.filter((t) => t.status === "failed").length;
    const passed = report.tests.filter((t) => t.status === "passed").length;
    const skipped = report.tests.filter((t) => t.status === "skipped" || t.status === "todo").length;
    // Stopped by Ctrl-C or --bail: these are the tests that ended before.
    const stopped = report.stopped ? "; stopped before its end" : report.cached ? "; from the cache" : "";
    if (report.error) return `${this.c.red("✗")} ${name} ${this.c.dim("(could not run)")}`;
    if (failed > 0) return `${this.c.red("✗")} ${name} ${this.c.dim(`(${failed} of ${failed + passed} failed${stopped})`)}`;
    // Every test skipped (by -t, .skip or .todo): the file ran none, and is marked skipped, as Vitest's `↓` does.
    if (passed === 0 && skipped > 0) return `${this.c.yellow("↓")} ${name} ${this.c.dim(`(${skipped} skipped${stopped})`)}`;
    const ran = passed === 1 ? "1 test" : `${passed} tests`;
    return `${this.c.green("✓")} ${name} ${this.c.dim(`(${ran}${skipped > 0 ? `, ${skipped} skipped` : ""}${stopped})`)}`;
  }

  /** What is printed when a file ends. */
  protected fileText(report: FileReport): string {
    return `${this.fileLine(report)}\n${this.warningLines(report)}`;
  }

  /** A file's warnings (no failure: the builtins it changed), a line each under its line. */
  protected warningLines(report: FileReport): string {
    return (report.warnings ?? []).map((warning) => `  ${this.c.yellow("!")} ${warning}\n`).join("");
  }

  fileEnd(report: FileReport): void {
    this.running.delete(report.file);
    this.doneFiles++;
    if (report.error) {
      this.failed++;
      this.failures.push({ report, error: report.error });
    }
    for (const test of report.tests.filter((t) => t.status === "failed")) this.failures.push({ report, test, error: test.error ?? { message: "failed" } });
    this.writeLines(this.fileText(report));
  }

  printOutput(chunk: string, stream: "stdout" | "stderr"): void {
    this.clearProgress();
    (stream === "stdout" ? this.out.stdout : this.out.stderr).write(chunk);
    this.progress();
  }

  private formatMessage(error: ErrorReport): string {
    const lines = blockLines(error.message).map((line) => {
      if (/^- /.test(line) || /^Expected/.test(line)) return this.c.green(line);
      if (/^\+ /.test(line) || /^Received/.test(line)) return this.c.red(line);
      return line;
    });
    return lines.map((l) => (l ? `    ${l}` : "")).join("\n");
  }

  /** Printed first in `finish`: the dot reporter ends its row of dots. */
  protected beforeFailures(): void {}

  finish(summary: RunSummary, durationMs: number, note?: string): void {
    this.clearProgress();
    this.beforeFailures();
    const w = (text: string) => this.out.stdout.write(`${text}\n`);
    if (this.failures.length > 0) {
      w("");
      const order = new Map(summary.files.map((f, i) => [f.file, i]));
      const failures = this.failures
        .map((f, i) => ({ f, i }))
        .sort((a, b) => (order.get(a.f.report.file) ?? 0) - (order.get(b.f.report.file) ?? 0) || a.i - b.i)
        .map(({ f }) => f);
      for (const f of failures) {
        const file = f.report.file;
        const title = f.test ? testName(f.test) : `${rel(this.out, file)} could not run`;
        w(`${this.c.red(this.c.bold("FAIL"))} ${this.c.bold(title)}`);
        // One line per failure: where it is and its code, as every reporter and the editor give them.
        for (const failure of failuresOf(f.report, f.test, this.texts))
          w(`  ${this.c.dim("at")} ${site(this.out, failure.site) ?? rel(this.out, file)} ${this.c.dim(failure.code)}`);
        w(this.formatMessage(f.error));
        for (const line of schemaDetail(f.error)) w(`    ${this.c.dim(oneLineText(line))}`);
        if (f.error.codeFrame)
          w(
            blockLines(f.error.codeFrame)
              .map((l) => `    ${this.c.dim(l)}`)
              .join("\n"),
          );
        const isAssertion = f.error.expected !== undefined || f.error.actual !== undefined || /expect\(/.test(f.error.message);
        if (!isAssertion && f.error.stack) {
          const loc = f.error.location;
          const frames = userStack(f.error.stack)
            .filter((fr) => !(loc && fr.includes(`${loc.file}:${loc.line}:${loc.column}`)))
            .slice(0, 6);
          if (frames.length > 0) w(frames.map((fr) => `      ${this.c.dim(oneLineText(fr))}`).join("\n"));
        }
        w("");
      }
    }
    const files = summary.files.length;
    w(this.c.dim(`${files} file${files === 1 ? "" : "s"} in ${(durationMs / 1000).toFixed(2)}s`));
    for (const line of snapshotSummaryLines(summary.files, this.c, (file) => rel(this.out, file))) w(line);
    if (note) w(this.c.yellow(note));
    const line = countLine(summary);
    w(summary.failed > 0 ? this.c.red(line) : note ? line : this.c.green(line));
  }
}

/** The full schemas of each schema mismatch, which its message names and compares only where they first differ. */
function schemaDetail(error: ErrorReport): string[] {
  const schema = (value: unknown) => (value === undefined || value === "text" ? "text" : canonicalJson(value));
  return (error.problems ?? [])
    .filter((problem) => problem.code === "schema-mismatch")
    .flatMap((problem) => [
      `the turn's schema${problem.expectedName ? ` (${problem.expectedName})` : ""}: ${schema(problem.expectedSchema)}`,
      `the script's schema${problem.actualName ? ` (${problem.actualName})` : ""}: ${schema(problem.actualSchema)}`,
    ]);
}
