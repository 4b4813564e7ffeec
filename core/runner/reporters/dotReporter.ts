// The `dot` reporter: one character per test as it ends (`·` passed, `x` failed, `-` skipped or
// todo, `x` for a file that could not run), then the default's failures and count line.
import type { FileReport, TestReport } from "../../execution/report.ts";
import { DefaultReporter } from "./defaultReporter.ts";

export class DotReporter extends DefaultReporter {
  private dots = 0;

  private dot(text: string): void {
    this.clearProgress();
    this.out.stdout.write(text);
    this.dots++;
  }

  override testEnd(file: string, test: TestReport): void {
    super.testEnd(file, test);
    this.dot(test.status === "passed" ? this.c.green("·") : test.status === "failed" ? this.c.red("x") : this.c.yellow("-"));
  }

  protected override fileText(_report: FileReport): string {
    return "";
  }

  override fileEnd(report: FileReport): void {
    super.fileEnd(report);
    if (report.error) this.dot(this.c.red("x"));
  }

  // Dots share a line with no progress line: only the row of dots shows while running.
  protected override progress(): void {}

  protected override beforeFailures(): void {
    if (this.dots > 0) this.out.stdout.write("\n");
  }
}
