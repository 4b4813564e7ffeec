// The `json` reporter: one document at the end, `{ files: FileReport[], passed, failed, skipped }`
// plus the counts Vitest's json reporter gives (`numTotalTests`, `success`, …), on stdout or a file.
import type { Failure } from "../../execution/failureLocation.ts";
import type { FileReport, RunSummary } from "../../execution/report.ts";
import { failuresOf, testFileTexts, type Out, type Reporter } from "./reporter.ts";

/** A failure in the document: its code and where it is, as every reporter and the editor give them. */
function failureEntry(failure: Failure): { code: string; location?: Failure["site"]; message: string } {
  return { code: failure.code, ...(failure.site ? { location: failure.site } : {}), message: failure.message };
}

export class JsonReporter implements Reporter {
  private readonly startTime = Date.now();
  private readonly texts = testFileTexts();
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
      files: files.map((file) => this.withFailures(file)),
      passed,
      failed,
      skipped,
    };
    this.out.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }

  /** A file's report with `failures` on each failed test, and on the file when it could not run. */
  private withFailures(file: FileReport): FileReport {
    const failed = (test: FileReport["tests"][number]) => failuresOf(file, test, this.texts).map(failureEntry);
    const tests = file.tests.map((test) => (test.status === "failed" ? { ...test, failures: failed(test) } : test));
    return { ...file, ...(file.error ? { failures: failuresOf(file, undefined, this.texts).map(failureEntry) } : {}), tests };
  }
}
