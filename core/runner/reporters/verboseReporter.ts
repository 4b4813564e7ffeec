// The `verbose` reporter: the default's output with each test's line under its file's
// (`✓ describe › test 12ms`), as Vitest's verbose prints them.
import type { FileReport, TestReport } from "../../execution/report.ts";
import { DefaultReporter } from "./defaultReporter.ts";
import { testName } from "./reporter.ts";

export class VerboseReporter extends DefaultReporter {
  protected override fileText(report: FileReport): string {
    return [this.fileLine(report), ...report.tests.map((test) => `  ${this.testLine(test)}`)].map((line) => `${line}\n`).join("") + this.warningLines(report);
  }

  private testLine(test: TestReport): string {
    const name = testName(test);
    const took = this.c.dim(`${Math.round(test.durationMs)}ms`);
    if (test.status === "passed") return `${this.c.green("✓")} ${name} ${took}`;
    if (test.status === "failed") return `${this.c.red("×")} ${name} ${took}`;
    return `${this.c.yellow("↓")} ${name}${test.status === "todo" ? this.c.dim(" [todo]") : this.c.dim(" [skipped]")}`;
  }
}
