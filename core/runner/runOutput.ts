// What a `turnlens test` run writes besides its reporters: where it writes (colors or not), the
// note before the count line (interrupted, bailed, no test ran), and after the run the coverage
// table and the timelines.
import { relative, resolve } from "node:path";
import { printCoverage } from "../coverage/coverageReport.ts";
import { DEFAULT_COVERAGE_REPORTERS, DEFAULT_REPORTS_DIRECTORY, shownFolder, writeLineCoverage } from "../coverage/lineCoverage.ts";
import { mergeLineCoverage } from "../coverage/lineCoverageMap.ts";
import type { LineCoverageData } from "../execution/v8Coverage.ts";
import type { FileReport, RunSummary } from "../execution/report.ts";
import type { Out } from "./reporters/reporter.ts";
import type { RunStop } from "./runFiles.ts";
import type { CliOptions } from "./testOptions.ts";
import { TimelineFolderError, writeTimelines } from "./timelineFiles.ts";

function useColor(stream: { isTTY?: boolean }): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY) && process.env.TERM !== "dumb";
}

/** The terminal's streams, colored when a person reads them (NO_COLOR, FORCE_COLOR, a TTY). */
export function outputs(): Out & { stdout: NodeJS.WriteStream } {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), color: useColor(process.stdout), env: process.env };
}

/** Up to three paths, then how many more. */
export function listed(paths: string[]): string {
  return paths.length <= 3 ? paths.join(", ") : `${paths.slice(0, 3).join(", ")} and ${paths.length - 3} more`;
}

/** The line before the count line: why the run stopped, or why no test ran; none for a run that ran tests to its end. */
export function endNote(files: readonly string[], reports: readonly FileReport[], summary: RunSummary, stop: RunStop, options: CliOptions): string | undefined {
  const finished = reports.filter((report) => !report.stopped).length;
  const ofFiles = `${finished} of ${files.length} file${files.length === 1 ? "" : "s"} finished`;
  const cwd = process.cwd();
  const unfinished = stop.unfinished.length > 0 ? `, stopped while ${listed(stop.unfinished.map((file) => relative(cwd, file) || file))} ran` : "";
  if (stop.interrupted) return `interrupted (Ctrl-C): ${ofFiles}${unfinished}`;
  if (stop.bailed) return `bailed out after ${stop.failures} failure${stop.failures === 1 ? "" : "s"} (--bail ${options.bail}): ${ofFiles}${unfinished}`;
  if (summary.passed + summary.failed !== 0) return undefined;
  const allow = options.passWithNoTests ? " (--passWithNoTests: exit 0)" : "; --passWithNoTests exits 0 then";
  if (files.length === 0)
    return `no test ran: no test files found${options.changed !== undefined ? " changed" : ""}${options.shard ? ` in shard ${options.shard.index}/${options.shard.count}` : ""}${allow}`;
  if (options.pattern) return `no test ran: no test name matched ${options.pattern}${allow}`;
  return `no test ran${allow}`;
}

/**
 * After the reporters: `--coverage`'s table or document (the line coverage when `lines` is given),
 * and `--timeline`'s pages. Returns false when the timelines could not be written (the run then fails).
 */
export function writeAfterRun(
  reports: FileReport[],
  stop: RunStop,
  options: CliOptions,
  out: ReturnType<typeof outputs>,
  stdoutIsDocument: boolean,
  lines: { coverage: ReadonlyArray<LineCoverageData | undefined>; testFiles: ReadonlySet<string> } | undefined,
): boolean {
  if (options.coverage && !stop.interrupted) {
    // The tables beside a json or junit document would break it: they go to stderr then, and the
    // line table does beside `--coverage=json`'s own document.
    const tableOut = (options.coverage === "table" && stdoutIsDocument) || options.coverage === "json" ? process.stderr : out.stdout;
    // No line coverage was measured (a merge of shards run without --coverage): none is printed.
    if (lines) printLineCoverage(lines, options, out.cwd, tableOut);
    printCoverage(reports, options.coverage, options.coverage === "table" && stdoutIsDocument ? { ...out, stdout: process.stderr } : out);
  }
  if (!options.timeline) return true;
  try {
    const written = writeTimelines(reports, options.timeline, out.cwd);
    const shown = relative(out.cwd, written.index);
    process.stderr.write(`timelines: ${written.pages} tests in ${shown.startsWith("..") || !shown ? written.index : shown}\n`);
    return true;
  } catch (error) {
    // The folder was checked before the run; one changed since gets the same words, and fails the run.
    if (!(error instanceof TimelineFolderError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return false;
  }
}

/**
 * `--coverage`'s line coverage: the text table printed (`% Stmts | % Branch | % Funcs | % Lines |
 * Uncovered Line #s`, as Vitest prints it) and the files written, then where they went.
 */
function printLineCoverage(
  lines: { coverage: ReadonlyArray<LineCoverageData | undefined>; testFiles: ReadonlySet<string> },
  options: CliOptions,
  cwd: string,
  stream: NodeJS.WritableStream,
): void {
  const map = mergeLineCoverage(lines.coverage, lines.testFiles);
  if (map.files().length === 0) {
    stream.write("\nline coverage: the tests ran none of the project's own code (only tests, node_modules and Turnlens's modules)\n");
    return;
  }
  const folder = resolve(cwd, options.coverageDirectory ?? DEFAULT_REPORTS_DIRECTORY);
  stream.write("\n");
  const wrote = writeLineCoverage(map, { reporters: options.coverageReporters ?? DEFAULT_COVERAGE_REPORTERS, reportsDirectory: folder }, cwd, (text) =>
    stream.write(text),
  );
  if (wrote) stream.write(`line coverage written to ${shownFolder(wrote, cwd)}\n`);
}
