// The `json` reporter: one document at the end, `{ files: FileReport[], passed, failed, skipped }`
// plus the counts Vitest's json reporter gives (`numTotalTests`, `success`, …), on stdout or a file.
import type { RunSummary } from "../../execution/report.ts";
import type { Out, Reporter } from "./reporter.ts";

export class JsonReporter implements Reporter {
  private readonly startTime = Date.now();
  constructor(private readonly out: Out) {}
  start(): void {}
  fileStart(): void {}
  testEnd(): void {}
  fileEnd(): void {}
  finish(summary: RunSummary): void {
    const { files, passed, failed, skipped } = summary;
    const tests = files.flatMap((file) => file.tests);
    const failedFiles = files.filter((file) => file.error || file.tests.some((test) => test.status === "failed")).length;
    const pendingFiles = files.filter(
      (file) => !file.error && file.tests.length > 0 && file.tests.every((test) => test.status === "skipped" || test.status === "todo"),
    ).length;
    const document = {
      numTotalTestSuites: files.length,
      numPassedTestSuites: files.length - failedFiles - pendingFiles,
      numFailedTestSuites: failedFiles,
      numPendingTestSuites: pendingFiles,
      numTotalTests: tests.length,
      numPassedTests: passed,
      numFailedTests: tests.filter((test) => test.status === "failed").length,
      numPendingTests: tests.filter((test) => test.status === "skipped").length,
      numTodoTests: tests.filter((test) => test.status === "todo").length,
      startTime: this.startTime,
      success: failed === 0 && passed > 0,
      files,
      passed,
      failed,
      skipped,
    };
    this.out.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }
}
