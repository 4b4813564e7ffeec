// The `github-actions` reporter: an `::error file=…,line=…,col=…,title=…::message` workflow command
// per failure, escaped as GitHub's runner reads them, so each shows on the line in the pull request.
// Added by itself when GITHUB_ACTIONS=true and no reporter is configured (reporterGroup.ts).
import { isAbsolute, relative } from "node:path";
import type { Failure } from "../../execution/failureLocation.ts";
import type { FileReport } from "../../execution/report.ts";
import { failuresOf, testFileTexts, type Out, type Reporter } from "./reporter.ts";
import { blockLines, oneLineText } from "./terminalText.ts";

/** A command's message: `%`, CR and LF escaped. */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A command's property value: the message's escapes, and `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export class GithubActionsReporter implements Reporter {
  private readonly texts = testFileTexts();
  constructor(private readonly out: Out) {}
  start(): void {}
  fileStart(): void {}
  testEnd(): void {}

  /** The path GitHub places an annotation by: relative to the checkout (GITHUB_WORKSPACE), else to the current folder. */
  private path(file: string): string {
    const base = this.out.env?.GITHUB_WORKSPACE || this.out.cwd;
    const r = relative(base, file);
    return r === "" || r.startsWith("..") || isAbsolute(r) ? file : r;
  }

  /** One annotation per failure, on the option, entry or line at fault, titled with the test and the failure's code. */
  private annotation(title: string, failure: Failure, file: string): string {
    const where = failure.site;
    // The log shows what GitHub does not read as the command: controls escaped as the terminal reporters do.
    const properties = [`file=${escapeProperty(oneLineText(this.path(where?.file ?? file)))}`];
    if (where) properties.push(`line=${where.line}`, `col=${where.column}`);
    properties.push(`title=${escapeProperty(oneLineText(`${title} (${failure.code})`))}`);
    return `::error ${properties.join(",")}::${escapeData(blockLines(failure.message).join("\n"))}\n`;
  }

  fileEnd(report: FileReport): void {
    for (const failure of failuresOf(report, undefined, this.texts))
      this.out.stdout.write(this.annotation(`${this.path(report.file)} could not run`, failure, report.file));
    for (const test of report.tests) {
      if (test.status !== "failed") continue;
      for (const failure of failuresOf(report, test, this.texts)) this.out.stdout.write(this.annotation(test.path.join(" › "), failure, report.file));
    }
  }

  finish(): void {}
}
