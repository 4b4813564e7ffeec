// What every `turnlens test` reporter implements, where it writes, and the paths, sites and count
// line they all print the same way.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { type Failure, fileFailure, testFailures, textReader, type TextOf } from "../../execution/failureLocation.ts";
import type { FileReport, RunSummary, Site, TestReport } from "../../execution/report.ts";
import type { SchemaName } from "../../execution/schemaNames.ts";
import type { LineCoverageData } from "../../execution/v8Coverage.ts";
import type { BlobShard } from "../blobReport.ts";
import type { MutationResults } from "../../mutate/mutate.ts";
import { oneLineText } from "./terminalText.ts";

/** Where a reporter writes: the terminal's streams, or a file's text kept until the run ends. */
export interface Sink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Out {
  stdout: Sink;
  stderr: Sink;
  cwd: string;
  color: boolean;
  /** The process's environment, for what a reporter reads of it (GITHUB_WORKSPACE, the host name). */
  env?: NodeJS.ProcessEnv;
}

/** What the worker found beside a file's report: the names of the schemas a quick fix would write. */
export interface FileExtras {
  schemas?: readonly SchemaName[];
}

export interface Reporter {
  start(fileCount: number): void;
  /** `startedAt` (ms since the epoch): when the file started, where that was earlier than now (a merged blob's). */
  fileStart(file: string, startedAt?: number): void;
  testEnd(file: string, test: TestReport): void;
  fileEnd(report: FileReport, extras?: FileExtras): void;
  /**
   * What a file's tests wrote to stdout/stderr, in order (a test's before its `testEnd`). The
   * group prints it once (reporterGroup.ts); a reporter that keeps it (junit) implements this.
   */
  output?(chunk: string, stream: "stdout" | "stderr", file: string): void;
  /** What the run knew at its end beyond its reports, told before `finish`; a reporter that keeps everything (blob) implements this. */
  runEnded?(end: RunEnd): void;
  /** Prints the end of the run; `note` (such as `no test ran`) goes just before the count line. */
  finish(summary: RunSummary, durationMs: number, note?: string): void;
}

/** What a run knew at its end besides its files' reports. */
export interface RunEnd {
  /** The shard it ran, and the split it was one of. */
  shard?: BlobShard;
  /** Files that started and ended no test before the run stopped. */
  unfinished: readonly string[];
  interrupted: boolean;
  bailed: boolean;
  /** With `--coverage`: each file's line coverage. */
  coverage?: ReadonlyArray<LineCoverageData | undefined>;
  /** With `--mutate`: each mutant and its result (a blob carries them for merge-reports). */
  mutation?: MutationResults;
}

/** A reporter that prints the tests' output itself as it comes (the terminal reporters: a progress line to clear first). */
export interface ConsoleReporter extends Reporter {
  printOutput(chunk: string, stream: "stdout" | "stderr"): void;
}

export function isConsoleReporter(reporter: Reporter): reporter is ConsoleReporter {
  return typeof (reporter as Partial<ConsoleReporter>).printOutput === "function";
}

/** `file` relative to the current folder, or as it is when outside it; on one line, its controls escaped (terminalText.ts). */
export function rel(out: Out, file: string): string {
  const r = relative(out.cwd, file);
  return oneLineText(r === "" || r.startsWith("..") ? file : r);
}

/** A test's full name (`describe › test`), on one line, its controls escaped (terminalText.ts). */
export function testName(test: TestReport): string {
  return oneLineText(test.path.join(" › "));
}

/** `file:line:column`, the file relative to the current folder. */
export function site(out: Out, s: Site | undefined): string | undefined {
  return s ? `${rel(out, s.file)}:${s.line}:${s.column}` : undefined;
}

/** Reads the test files a run's failures are located in, each once (core/execution/failureLocation.ts). */
export function testFileTexts(): TextOf {
  return textReader((file) => readFileSync(file, "utf8"));
}

/**
 * A failed test's failures, or a file's that could not run: each with its code and the one place
 * every reporter and the editor give it (core/execution/failureLocation.ts).
 */
export function failuresOf(report: FileReport, test: TestReport | undefined, texts: TextOf): Failure[] {
  if (!test) {
    const failure = fileFailure(report);
    return failure ? [failure] : [];
  }
  return testFailures(report.file, test, texts);
}

export function countLine(summary: RunSummary): string {
  return `${summary.passed} passed, ${summary.failed} failed${summary.skipped > 0 ? `, ${summary.skipped} skipped` : ""}`;
}

export function paint(enabled: boolean) {
  const wrap = (open: number, close: number) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

export type Paint = ReturnType<typeof paint>;
