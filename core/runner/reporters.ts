// How `turnlens test` shows results: pretty (default), json and junit.
import { relative } from "node:path";
import type { ErrorReport, FileReport, RunSummary, Site, TestReport } from "./report.ts";
import { userStack } from "./stack.ts";
import { canonicalJson } from "../workflow/json.ts";

export type ReporterName = "pretty" | "json" | "junit";

export interface Reporter {
  start(fileCount: number): void;
  fileStart(file: string): void;
  testEnd(file: string, test: TestReport): void;
  fileEnd(report: FileReport): void;
  /** What tests wrote to stdout/stderr. */
  output(chunk: string, stream: "stdout" | "stderr"): void;
  /** Prints the end of the run; `note` (such as `no test ran`) goes just before the count line. */
  finish(summary: RunSummary, durationMs: number, note?: string): void;
}

export interface Out {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  cwd: string;
  color: boolean;
}

function rel(out: Out, file: string): string {
  const r = relative(out.cwd, file);
  return r === "" || r.startsWith("..") ? file : r;
}

function site(out: Out, s: Site | undefined): string | undefined {
  return s ? `${rel(out, s.file)}:${s.line}:${s.column}` : undefined;
}

export function countLine(summary: RunSummary): string {
  return `${summary.passed} passed, ${summary.failed} failed${summary.skipped > 0 ? `, ${summary.skipped} skipped` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// pretty

function paint(enabled: boolean) {
  const wrap = (open: number, close: number) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

export class PrettyReporter implements Reporter {
  private readonly c: ReturnType<typeof paint>;
  private readonly tty: boolean;
  private total = 0;
  private doneFiles = 0;
  private passed = 0;
  private failed = 0;
  private running = new Set<string>();
  private progressShown = false;
  private readonly failures: Array<{ file: string; test?: TestReport; error: ErrorReport }> = [];

  constructor(private readonly out: Out) {
    this.c = paint(out.color);
    this.tty = Boolean(out.stdout.isTTY);
  }

  private clearProgress(): void {
    if (this.tty && this.progressShown) {
      this.out.stdout.write("\r\u001b[K");
      this.progressShown = false;
    }
  }

  private progress(): void {
    if (!this.tty) return;
    const current = [...this.running].map((f) => rel(this.out, f)).join(", ");
    let line = `${this.doneFiles}/${this.total} files · ${this.c.green(`${this.passed} passed`)} · ${this.failed > 0 ? this.c.red(`${this.failed} failed`) : "0 failed"}${current ? this.c.dim(` · ${current}`) : ""}`;
    const width = this.out.stdout.columns ?? 100;
    // keep it on one line (colors make the measure approximate, so leave slack)
    if (line.length > width + 30) line = `${line.slice(0, width + 20)}…`;
    this.out.stdout.write(`\r\u001b[K${line}`);
    this.progressShown = true;
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

  fileEnd(report: FileReport): void {
    this.running.delete(report.file);
    this.doneFiles++;
    const name = rel(this.out, report.file);
    const failed = report.tests.filter((t) => t.status === "failed");
    const passed = report.tests.filter((t) => t.status === "passed").length;
    const skipped = report.tests.filter((t) => t.status === "skipped" || t.status === "todo").length;
    // Stopped by Ctrl-C or --bail: these are the tests that ended before.
    const stopped = report.stopped ? "; stopped before its end" : "";
    let line: string;
    if (report.error) {
      this.failed++;
      line = `${this.c.red("✗")} ${name} ${this.c.dim("(could not run)")}`;
      this.failures.push({ file: report.file, error: report.error });
    } else if (failed.length > 0) {
      line = `${this.c.red("✗")} ${name} ${this.c.dim(`(${failed.length} of ${failed.length + passed} failed${stopped})`)}`;
    } else {
      const ran = passed === 1 ? "1 test" : `${passed} tests`;
      line = `${this.c.green("✓")} ${name} ${this.c.dim(`(${ran}${skipped > 0 ? `, ${skipped} skipped` : ""}${stopped})`)}`;
    }
    for (const test of failed) this.failures.push({ file: report.file, test, error: test.error ?? { message: "failed" } });
    this.clearProgress();
    this.out.stdout.write(`${line}\n`);
    this.progress();
  }

  output(chunk: string, stream: "stdout" | "stderr"): void {
    this.clearProgress();
    (stream === "stdout" ? this.out.stdout : this.out.stderr).write(chunk);
    this.progress();
  }

  private formatMessage(error: ErrorReport): string {
    const lines = error.message.split("\n").map((line) => {
      if (/^- /.test(line) || /^Expected/.test(line)) return this.c.green(line);
      if (/^\+ /.test(line) || /^Received/.test(line)) return this.c.red(line);
      return line;
    });
    return lines.map((l) => (l ? `    ${l}` : "")).join("\n");
  }

  finish(summary: RunSummary, durationMs: number, note?: string): void {
    this.clearProgress();
    const w = (text: string) => this.out.stdout.write(`${text}\n`);
    if (this.failures.length > 0) {
      w("");
      const order = new Map(summary.files.map((f, i) => [f.file, i]));
      const failures = this.failures
        .map((f, i) => ({ f, i }))
        .sort((a, b) => (order.get(a.f.file) ?? 0) - (order.get(b.f.file) ?? 0) || a.i - b.i)
        .map(({ f }) => f);
      for (const f of failures) {
        const title = f.test ? f.test.path.join(" › ") : `${rel(this.out, f.file)} could not run`;
        w(`${this.c.red(this.c.bold("FAIL"))} ${this.c.bold(title)}`);
        const at = site(this.out, f.error.location) ?? site(this.out, f.test?.location) ?? rel(this.out, f.file);
        w(`  ${this.c.dim("at")} ${at}`);
        w(this.formatMessage(f.error));
        for (const line of schemaDetail(f.error)) w(`    ${this.c.dim(line)}`);
        if (f.error.codeFrame)
          w(
            f.error.codeFrame
              .split("\n")
              .map((l) => `    ${this.c.dim(l)}`)
              .join("\n"),
          );
        const isAssertion = f.error.expected !== undefined || f.error.actual !== undefined || /expect\(/.test(f.error.message);
        if (!isAssertion && f.error.stack) {
          const loc = f.error.location;
          const frames = userStack(f.error.stack)
            .filter((fr) => !(loc && fr.includes(`${loc.file}:${loc.line}:${loc.column}`)))
            .slice(0, 6);
          if (frames.length > 0) w(frames.map((fr) => `      ${this.c.dim(fr)}`).join("\n"));
        }
        w("");
      }
    }
    const files = summary.files.length;
    w(this.c.dim(`${files} file${files === 1 ? "" : "s"} in ${(durationMs / 1000).toFixed(2)}s`));
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

// ---------------------------------------------------------------------------------------------
// json

/** A reporter that writes one document at the end; tests' own output goes to stderr meanwhile. */
abstract class DocumentReporter implements Reporter {
  constructor(protected readonly out: Out) {}
  start(): void {}
  fileStart(): void {}
  testEnd(): void {}
  fileEnd(): void {}
  output(chunk: string): void {
    this.out.stderr.write(chunk);
  }
  abstract finish(summary: RunSummary, durationMs: number, note?: string): void;
}

export class JsonReporter extends DocumentReporter {
  finish(summary: RunSummary, _durationMs: number, note?: string): void {
    const { files, passed, failed, skipped } = summary;
    this.out.stdout.write(`${JSON.stringify({ files, passed, failed, skipped }, null, 2)}\n`);
    if (note) this.out.stderr.write(`${note}\n`);
    this.out.stderr.write(`${countLine(summary)}\n`);
  }
}

// ---------------------------------------------------------------------------------------------
// junit

function xml(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 refuses
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

export class JunitReporter extends DocumentReporter {
  finish(summary: RunSummary, durationMs: number, note?: string): void {
    const lines: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
    const errorsTotal = summary.files.filter((f) => f.error).length;
    const testsTotal = summary.files.reduce((n, f) => n + f.tests.length + (f.error ? 1 : 0), 0);
    lines.push(
      `<testsuites name="turnlens" tests="${testsTotal}" failures="${summary.failed - errorsTotal}" errors="${errorsTotal}" skipped="${summary.skipped}" time="${seconds(durationMs)}">`,
    );
    for (const file of summary.files) {
      const name = xml(rel(this.out, file.file));
      const failures = file.tests.filter((t) => t.status === "failed").length;
      const skipped = file.tests.filter((t) => t.status === "skipped" || t.status === "todo").length;
      lines.push(
        `  <testsuite name="${name}" file="${name}" tests="${file.tests.length + (file.error ? 1 : 0)}" failures="${failures}" errors="${file.error ? 1 : 0}" skipped="${skipped}" time="${seconds(file.durationMs)}">`,
      );
      if (file.error) {
        const at = site(this.out, file.error.location) ?? rel(this.out, file.file);
        lines.push(`    <testcase name="(load)" classname="${name}" file="${name}" time="0">`);
        lines.push(
          `      <error message="${xml(file.error.message.split("\n")[0] ?? "")}" type="LoadError">${xml(`${at}\n${file.error.message}${file.error.codeFrame ? `\n${file.error.codeFrame}` : ""}`)}</error>`,
        );
        lines.push("    </testcase>");
      }
      for (const test of file.tests) {
        const line = test.error?.location?.line ?? test.location?.line;
        const attrs = `name="${xml(test.path.join(" › "))}" classname="${name}" file="${name}"${line ? ` line="${line}"` : ""} time="${seconds(test.durationMs)}"`;
        if (test.status === "passed") {
          lines.push(`    <testcase ${attrs}/>`);
          continue;
        }
        lines.push(`    <testcase ${attrs}>`);
        if (test.status === "failed") {
          const error = test.error ?? { message: "failed" };
          const at = site(this.out, error.location) ?? site(this.out, test.location) ?? rel(this.out, file.file);
          const body = `${at}\n${error.message}${error.stack ? `\n${userStack(error.stack).join("\n")}` : ""}`;
          lines.push(`      <failure message="${xml(error.message.split("\n")[0] ?? "")}" type="AssertionError">${xml(body)}</failure>`);
        } else {
          lines.push(`      <skipped${test.status === "todo" ? ' message="todo"' : ""}/>`);
        }
        lines.push("    </testcase>");
      }
      lines.push("  </testsuite>");
    }
    lines.push("</testsuites>");
    this.out.stdout.write(`${lines.join("\n")}\n`);
    if (note) this.out.stderr.write(`${note}\n`);
    this.out.stderr.write(`${countLine(summary)}\n`);
  }
}

export function makeReporter(name: ReporterName, out: Out): Reporter {
  if (name === "json") return new JsonReporter(out);
  if (name === "junit") return new JunitReporter(out);
  return new PrettyReporter(out);
}
