// Line coverage after a `--coverage` run: each test file's Istanbul data (V8's counts mapped back in
// the worker, core/execution/v8Coverage.ts) merged into one map, the tests themselves left out, and
// written through istanbul-reports in the formats Vitest's v8 provider writes (docs/runner.md, Coverage).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import type { CoverageMap } from "istanbul-lib-coverage";
import type LibReport from "istanbul-lib-report";
import type Reports from "istanbul-reports";
import type { ReportType } from "istanbul-reports";
import { processTempFolder } from "../tempFolder/tempFiles.ts";

/**
 * istanbul-lib-report and istanbul-reports (some 20 CommonJS modules with theirs) load when a run
 * writes coverage, not at every command's start. `require`, not `import()`: the CLI runs from a V8
 * code cache, where Node 20 has no `import()` (core/execution/importModule.ts).
 */
const requireHere = createRequire(import.meta.url);
const istanbulReports = () => ({
  libReport: requireHere("istanbul-lib-report") as typeof LibReport,
  reports: requireHere("istanbul-reports") as typeof Reports,
});

/**
 * The report formats `--coverage.reporter` takes: istanbul-reports' own names, as Vitest's
 * `coverage.reporter` takes them, each with what it writes. A `Record` over istanbul-reports' type,
 * so a format it adds or drops fails the typecheck here.
 */
export const COVERAGE_REPORTERS: Record<ReportType, string> = {
  text: "the table of files, printed",
  "text-summary": "the four totals, printed",
  html: "a browsable site, index.html",
  "html-spa": "the same as one page app, index.html",
  json: "coverage-final.json, Istanbul's data",
  "json-summary": "coverage-summary.json, the totals per file",
  lcov: "lcov.info and the html site in lcov-report/",
  lcovonly: "lcov.info",
  "text-lcov": "lcov's text, printed",
  clover: "clover.xml",
  cobertura: "cobertura-coverage.xml",
  teamcity: "TeamCity's service messages, printed",
  none: "nothing",
};
export const COVERAGE_REPORTER_NAMES = Object.keys(COVERAGE_REPORTERS) as ReportType[];

/** Vitest's default `coverage.reporter`, with lcov's file, which CI services read, in place of clover's. */
export const DEFAULT_COVERAGE_REPORTERS: readonly ReportType[] = ["text", "html", "json", "lcovonly"];
/** Vitest's default `coverage.reportsDirectory`, relative to the current folder. */
export const DEFAULT_REPORTS_DIRECTORY = "coverage";

/** Formats printed rather than written to a file: captured and written to the run's stream. */
const PRINTED: ReadonlySet<ReportType> = new Set(["text", "text-summary", "text-lcov", "teamcity"]);

export interface LineCoverageOptions {
  reporters: readonly ReportType[];
  /** Where the files go, absolute. */
  reportsDirectory: string;
}

/**
 * Writes the reports: files under `reportsDirectory`, and what a printed format prints to `print`
 * (the text table after the run). Returns where the files went, or undefined when none did.
 */
export function writeLineCoverage(map: CoverageMap, options: LineCoverageOptions, cwd: string, print: (text: string) => void): string | undefined {
  if (options.reporters.some((name) => name !== "none" && !PRINTED.has(name))) mkdirSync(options.reportsDirectory, { recursive: true });
  const { libReport, reports } = istanbulReports();
  const context = libReport.createContext({ dir: options.reportsDirectory, coverageMap: map, defaultSummarizer: "nested", sourceFinder: readSource });
  let wroteFiles = false;
  for (const name of options.reporters) {
    if (name === "none") continue;
    if (!PRINTED.has(name)) {
      reports.create(name, { projectRoot: cwd } as never).execute(context);
      wroteFiles = true;
      continue;
    }
    // Istanbul prints to process.stdout; the run chooses its stream (stderr beside a document),
    // so the text is written to a private file and printed from there.
    const folder = mkdtempSync(join(processTempFolder(), "coverage-print-"));
    try {
      const printContext = libReport.createContext({ dir: folder, coverageMap: map, defaultSummarizer: "nested", sourceFinder: readSource });
      reports.create(name, { file: "printed.txt", projectRoot: cwd } as never).execute(printContext);
      print(readFileSync(join(folder, "printed.txt"), "utf8"));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return wroteFiles ? options.reportsDirectory : undefined;
}

/** A source as the html report shows it: from the disk, or a line saying it is gone. */
function readSource(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return `// ${path} could not be read after the run`;
  }
}

/** The folder as the run names it: relative to the current folder when inside it. */
export function shownFolder(folder: string, cwd: string): string {
  const inside = relative(cwd, folder);
  return inside && !inside.startsWith("..") ? `${inside}/` : resolve(folder);
}
