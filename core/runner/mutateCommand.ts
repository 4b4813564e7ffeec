// `turnlens test --mutate[=json]` (docs/mutate.md): the tests run once as usual (their calls
// numbered), then each passed test's mutants (mutate.ts) in the same warm workers; prints a table
// and a score per file, or one JSON document, and exits 1 only below `--mutate-threshold`.
import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { takeEarlyWorker } from "./earlyWorker.ts";
import { listMutants, runMutants, scoreOf, uncheckedSentence, type Mutant, type MutationResults } from "../mutate/mutate.ts";
import { WorkerPool } from "../execution/pool.ts";
import { ONE_RUN_RECYCLE } from "../execution/limits.ts";
import { summarize, type FileReport } from "../execution/report.ts";
import type { Out } from "./reporters/reporter.ts";
import { chooseReporters, ReporterGroup, type ReporterSetting } from "./reporters/reporterGroup.ts";
import { forkWorker } from "../execution/workerProcess.ts";
import { formatDuration } from "../workflow/durations.ts";
import type { BlobShard } from "./blobReport.ts";
import type { CliOptions } from "./testOptions.ts";

export { DEFAULT_MUTATE_BUDGET_MS } from "../mutate/mutate.ts";

export interface MutateOptions {
  format: "table" | "json";
  budgetMs: number;
  /** Percent: below it the command exits 1. */
  threshold?: number;
  timeoutMs: number;
  /** The run's reporters, as `turnlens test` chooses them (reporters/reporterGroup.ts). */
  reporters: ReporterSetting[];
  outputFile?: string | Record<string, string>;
  silent: boolean;
  pattern?: RegExp;
  /** `--shard`: the blob report is named for it, and carries the split (`split`) for merge-reports. */
  shard?: CliOptions["shard"];
  split?: BlobShard;
}

function shown(cwd: string, file: string): string {
  const name = relative(cwd, file);
  return name === "" || name.startsWith("..") ? file : name;
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 100) / 10}s`;
}

function percent(noticed: number, run: number): string {
  return run === 0 ? "-" : `${Math.floor((noticed / run) * 100)}%`;
}

const RESULT_WORDS = { noticed: "noticed", "not-noticed": "NOT noticed", "not-run": "not run" } as const;

/** Runs the files, then their mutants; resolves to the exit code. */
export async function mutateCommand(files: string[], options: MutateOptions, out: Out, signal?: AbortSignal): Promise<number> {
  const started = performance.now();
  // The json document owns stdout: the test reporter writes to stderr then.
  const reporter = new ReporterGroup(chooseReporters(options.reporters, options.outputFile, process.env, options.shard), out, {
    silent: options.silent,
    stdoutTaken: options.format === "json",
  });
  const cores = Math.max(1, availableParallelism());
  const pool = new WorkerPool({ size: () => cores, bundleAhead: true, recycle: ONE_RUN_RECYCLE, factory: () => takeEarlyWorker() ?? forkWorker() });
  const onAbort = () => pool.stop();
  signal?.addEventListener("abort", onAbort);
  reporter.start(files.length);
  const session = randomUUID();
  const pattern = options.pattern ? { pattern: { source: options.pattern.source, flags: options.pattern.flags } } : {};
  const reports = await Promise.all(
    files.map(async (file): Promise<FileReport> => {
      const result = await pool.run({ file, timeoutMs: options.timeoutMs, mutation: { session }, ...pattern }, undefined, {
        onStart: () => reporter.fileStart(file),
        onEvent: (event) => {
          if (event.type === "test") reporter.testEnd(file, event.report);
        },
        onOutput: (text, stream) => reporter.output(text, stream, file),
      });
      const report = result?.report ?? { file, tests: [], durationMs: 0 };
      if (result) reporter.fileEnd(report, { schemas: result.schemas });
      return report;
    }),
  );
  const summary = summarize(reports);
  const note = summary.passed + summary.failed === 0 ? "no test ran" : undefined;

  const mutants = reports.flatMap(listMutants);
  const durations = new Map(reports.flatMap((report) => report.tests.map((test) => [`${report.file}\n${test.id}`, test.durationMs] as const)));
  const mutantsStarted = performance.now();
  await runMutants(pool, mutants, {
    concurrency: cores,
    session,
    budgetMs: options.budgetMs,
    timeoutMs: options.timeoutMs,
    baselineMs: (mutant) => durations.get(`${mutant.file}\n${mutant.testId}`),
    ...(signal ? { signal } : {}),
  });
  const mutation: MutationResults = { budgetMs: options.budgetMs, durationMs: Math.round(performance.now() - mutantsStarted), mutants };
  signal?.removeEventListener("abort", onAbort);
  await pool.close();
  // The run ends once its mutants have: a blob report carries them, for merge-reports's one table.
  reporter.runEnded({ ...(options.split ? { shard: options.split } : {}), unfinished: [], interrupted: signal?.aborted ?? false, bailed: false, mutation });
  reporter.finish(summary, performance.now() - started, note);
  printMutation(mutation, reports, options.format, out, reporter.stdoutIsDocument);
  if (signal?.aborted) return 130;
  if (summary.failed > 0 || summary.passed + summary.failed === 0) return 1;
  return belowThreshold(mutation.mutants, options.threshold, out) ? 1 : 0;
}

/** `--mutate`'s table and score (`table`), or its one JSON document on stdout (`json`), for a run or a merge of shards. */
export function printMutation(mutation: MutationResults, reports: readonly FileReport[], format: "table" | "json", out: Out, stdoutIsDocument: boolean): void {
  const { mutants, budgetMs, durationMs } = mutation;
  const byFile = new Map<string, Mutant[]>();
  for (const mutant of mutants) byFile.set(mutant.file, [...(byFile.get(mutant.file) ?? []), mutant]);
  const total = scoreOf(mutants);
  const testName = (mutant: Mutant) =>
    reports
      .find((report) => report.file === mutant.file)
      ?.tests.find((test) => test.id === mutant.testId)
      ?.path.join(" ") ?? mutant.testId;
  if (format === "json") {
    const document = {
      budgetMs,
      durationMs,
      score: total,
      files: [...byFile].map(([file, list]) => ({
        file: shown(out.cwd, file),
        score: scoreOf(list),
        mutants: list.map((mutant) => ({
          test: testName(mutant),
          testId: mutant.testId,
          call: mutant.call,
          agent: mutant.agent,
          key: mutant.key,
          index: mutant.index,
          ...(mutant.site ? { site: { ...mutant.site, file: shown(out.cwd, mutant.site.file) } } : {}),
          change: mutant.change,
          mutation: mutant.summary,
          result: mutant.result,
          ...(mutant.why !== undefined ? { why: mutant.why } : {}),
          ...(mutant.result === "not-noticed" ? { message: uncheckedSentence(mutant) } : {}),
        })),
      })),
    };
    out.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  // Beside a json or junit document on stdout the table would break it: it goes to stderr then.
  const table = stdoutIsDocument ? out.stderr : out.stdout;
  table.write(`${mutantTables(byFile, out.cwd, budgetMs, testName).join("\n")}\n`);
  const rate = durationMs > 0 ? Math.round((total.run / durationMs) * 1000 * 10) / 10 : 0;
  table.write(
    `\nmutation score ${total.noticed}/${total.run} noticed (${percent(total.noticed, total.run)})${total.notRun > 0 ? `, ${total.notRun} not run (budget)` : ""} · ${total.run} mutants in ${seconds(durationMs)} (${rate}/s)\n`,
  );
}

/** Whether the score is below `--mutate-threshold` (said on stderr when it is). */
export function belowThreshold(mutants: readonly Mutant[], threshold: number | undefined, out: Out): boolean {
  const total = scoreOf(mutants);
  if (threshold === undefined || total.run === 0 || (total.noticed / total.run) * 100 >= threshold) return false;
  out.stderr.write(`mutation score ${percent(total.noticed, total.run)} is below --mutate-threshold ${threshold}%\n`);
  return true;
}

/** The table of each file: a row per mutant (entry, agent, mutation, result), its score, then the sentences of the answers no assertion noticed. */
export function mutantTables(byFile: Map<string, Mutant[]>, cwd: string, budgetMs: number, testName: (mutant: Mutant) => string): string[] {
  if (byFile.size === 0) return ["\nmutate: no passed test met a scripted agents entry; nothing to mutate"];
  const lines: string[] = [];
  for (const [file, list] of byFile) {
    const score = scoreOf(list);
    lines.push("", `mutants · ${shown(cwd, file)} · budget ${formatDuration(budgetMs)} a file`);
    let test: string | undefined;
    const rows: string[][] = [];
    const flush = () => {
      if (rows.length > 0) lines.push(...aligned([["    entry", "agent", "mutation", "result"], ...rows]));
      rows.length = 0;
    };
    for (const mutant of list) {
      const name = testName(mutant);
      if (name !== test) {
        flush();
        lines.push(`  ${name}`);
        test = name;
      }
      const written = mutant.site ? `${shown(cwd, mutant.site.file)}:${mutant.site.line}:${mutant.site.column}` : `agents["${mutant.key}"]`;
      const where = mutant.calls > 1 ? `${written} (call ${mutant.call})` : written;
      const result = mutant.result === "not-run" ? `not run (${mutant.why ?? "budget"})` : RESULT_WORDS[mutant.result ?? "not-run"];
      rows.push([`    ${where}`, mutant.agent, mutant.summary, result]);
    }
    flush();
    lines.push(`  score ${score.noticed}/${score.run} noticed (${percent(score.noticed, score.run)})${score.notRun > 0 ? `, ${score.notRun} not run (budget)` : ""}`);
    for (const mutant of list.filter((candidate) => candidate.result === "not-noticed")) {
      const where = mutant.site ? `${shown(cwd, mutant.site.file)}:${mutant.site.line}:${mutant.site.column}` : shown(cwd, file);
      lines.push(`  ${where} "${testName(mutant)}": ${uncheckedSentence(mutant)}`);
    }
  }
  return lines;
}

function aligned(rows: string[][]): string[] {
  const widths = rows[0]!.map((_cell, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
}
