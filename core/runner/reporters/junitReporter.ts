// The `junit` reporter: JUnit XML in the shape the Jenkins JUnit schema accepts (test/runner/junit/),
// with Vitest's junit options: suiteName, classnameTemplate, addFileAttribute, includeConsoleOutput.
import { hostname } from "node:os";
import { basename } from "node:path";
import type { FileReport, RunSummary, TestReport } from "../../execution/report.ts";
import { userStack } from "../../execution/stack.ts";
import { failuresOf, rel, site, testFileTexts, type Out, type Reporter } from "./reporter.ts";

export interface JunitOptions {
  /** The `<testsuites name>`; "turnlens" by default. */
  suiteName?: string;
  /** Each testcase's classname: `{filename}` and `{filepath}` are replaced, or a function of both. The file's path by default. */
  classnameTemplate?: string | ((names: { filename: string; filepath: string }) => string);
  /** `file` and `line` on each testcase (outside the Jenkins schema, read by GitLab and CircleCI). Off by default, as in Vitest. */
  addFileAttribute?: boolean;
  /** Each test's console output as its `<system-out>`/`<system-err>`. On by default. */
  includeConsoleOutput?: boolean;
}

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

interface Captured {
  stdout: string;
  stderr: string;
}

export class JunitReporter implements Reporter {
  private readonly started = new Map<string, string>();
  /** Output of a file not yet claimed by a test: the next test to end claims it. */
  private readonly pending = new Map<string, Captured>();
  private readonly byTest = new Map<string, Map<string, Captured>>();
  /** Output after a file's last test (afterAll hooks): the testsuite's own. */
  private readonly leftover = new Map<string, Captured>();
  private readonly texts = testFileTexts();

  constructor(
    private readonly out: Out,
    private readonly options: JunitOptions = {},
  ) {}

  start(): void {}
  fileStart(file: string, startedAt?: number): void {
    this.started.set(file, new Date(startedAt ?? Date.now()).toISOString());
  }
  output(chunk: string, stream: "stdout" | "stderr", file: string): void {
    const captured = this.pending.get(file) ?? { stdout: "", stderr: "" };
    captured[stream] += chunk;
    this.pending.set(file, captured);
  }
  testEnd(file: string, test: TestReport): void {
    const captured = this.pending.get(file);
    if (!captured) return;
    this.pending.delete(file);
    const tests = this.byTest.get(file) ?? new Map<string, Captured>();
    tests.set(test.id, captured);
    this.byTest.set(file, tests);
  }
  fileEnd(report: FileReport): void {
    const captured = this.pending.get(report.file);
    if (captured) this.leftover.set(report.file, captured);
    this.pending.delete(report.file);
  }

  private classname(file: string): string {
    const filepath = rel(this.out, file);
    const template = this.options.classnameTemplate;
    const names = { filename: basename(file), filepath };
    if (typeof template === "function") return String(template(names));
    if (typeof template === "string") return template.replace(/\{filename\}/g, names.filename).replace(/\{filepath\}/g, names.filepath);
    return filepath;
  }

  private consoleLines(captured: Captured | undefined, indent: string): string[] {
    if (!captured || this.options.includeConsoleOutput === false) return [];
    const lines: string[] = [];
    if (captured.stdout) lines.push(`${indent}<system-out>${xml(captured.stdout)}</system-out>`);
    if (captured.stderr) lines.push(`${indent}<system-err>${xml(captured.stderr)}</system-err>`);
    return lines;
  }

  finish(summary: RunSummary, durationMs: number): void {
    const host = xml(hostname());
    const lines: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
    const errorsTotal = summary.files.filter((f) => f.error).length;
    const testsTotal = summary.files.reduce((n, f) => n + f.tests.length + (f.error ? 1 : 0), 0);
    lines.push(
      `<testsuites name="${xml(this.options.suiteName ?? "turnlens")}" tests="${testsTotal}" failures="${summary.failed - errorsTotal}" errors="${errorsTotal}" time="${seconds(durationMs)}">`,
    );
    for (const file of summary.files) {
      const name = xml(rel(this.out, file.file));
      const classname = xml(this.classname(file.file));
      const failures = file.tests.filter((t) => t.status === "failed").length;
      const skipped = file.tests.filter((t) => t.status === "skipped" || t.status === "todo").length;
      const timestamp = this.started.get(file.file) ?? new Date().toISOString();
      lines.push(
        `  <testsuite name="${name}" timestamp="${timestamp}" hostname="${host}" tests="${file.tests.length + (file.error ? 1 : 0)}" failures="${failures}" errors="${file.error ? 1 : 0}" skipped="${skipped}" time="${seconds(file.durationMs)}">`,
      );
      const fileAttributes = (line: number | undefined) => (this.options.addFileAttribute ? ` file="${name}"${line ? ` line="${line}"` : ""}` : "");
      // Each failure's first line: where it is and its code, as every reporter and the editor give them.
      const atLines = (test: TestReport | undefined) =>
        failuresOf(file, test, this.texts).map((failure) => `${site(this.out, failure.site) ?? rel(this.out, file.file)} ${failure.code}`);
      if (file.error) {
        const at = atLines(undefined).join("\n");
        lines.push(`    <testcase name="(load)" classname="${classname}"${fileAttributes(file.error.location?.line)} time="0">`);
        lines.push(
          `      <error message="${xml(file.error.message.split("\n")[0] ?? "")}" type="${xml(file.error.type ?? "LoadError")}">${xml(`${at}\n${file.error.message}${file.error.codeFrame ? `\n${file.error.codeFrame}` : ""}`)}</error>`,
        );
        lines.push("    </testcase>");
      }
      const captured = this.byTest.get(file.file);
      for (const test of file.tests) {
        const line = test.status === "failed" ? (failuresOf(file, test, this.texts)[0]?.site?.line ?? test.location?.line) : test.location?.line;
        const attrs = `name="${xml(test.path.join(" › "))}" classname="${classname}"${fileAttributes(line)} time="${seconds(test.durationMs)}"`;
        const output = this.consoleLines(captured?.get(test.id), "      ");
        if (test.status === "passed" && output.length === 0) {
          lines.push(`    <testcase ${attrs}/>`);
          continue;
        }
        lines.push(`    <testcase ${attrs}>`);
        if (test.status === "failed") {
          const error = test.error ?? { message: "failed" };
          const at = atLines(test).join("\n");
          const body = `${at}\n${error.message}${error.stack ? `\n${userStack(error.stack).join("\n")}` : ""}`;
          lines.push(`      <failure message="${xml(error.message.split("\n")[0] ?? "")}" type="${xml(error.type ?? "Error")}">${xml(body)}</failure>`);
        } else if (test.status !== "passed") {
          // The Jenkins schema's <skipped> takes text, no attributes: a todo says so in it.
          lines.push(test.status === "todo" ? "      <skipped>todo</skipped>" : "      <skipped/>");
        }
        lines.push(...output);
        lines.push("    </testcase>");
      }
      lines.push(...this.consoleLines(this.leftover.get(file.file), "    "));
      lines.push("  </testsuite>");
    }
    lines.push("</testsuites>");
    this.out.stdout.write(`${lines.join("\n")}\n`);
  }
}
