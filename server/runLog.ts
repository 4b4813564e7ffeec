// The output channel's line for each run of a file (window/logMessage through the logger): its
// tests, their results and the time. A pure line maker, and its hook on the scheduler's run ends.
import { relative } from "node:path";
import type { FileReport } from "../core/execution/report.ts";
import type { JobResult } from "../core/execution/pool.ts";
import type { RunOutcome } from "./scheduler.ts";
import type { Server } from "./server.ts";
import { fileOf, type Logger, type RunInfo } from "./state.ts";
import type { LogLine } from "./workerLog.ts";
import { markStart, marked, startLine } from "./startTimeline.ts";

/** `2 tests: 1 passed, 1 failed`, counted by test; skipped and todo tests are `skipped`. */
export function testCountsText(report: FileReport): string {
  const passed = report.tests.filter((test) => test.status === "passed").length;
  const failed = report.tests.filter((test) => test.status === "failed").length;
  const skipped = report.tests.length - passed - failed;
  const parts = [`${passed} passed`, ...(failed > 0 ? [`${failed} failed`] : []), ...(skipped > 0 ? [`${skipped} skipped`] : [])];
  return `${report.tests.length} test${report.tests.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

/**
 * Which workers ran a file: `on worker 4121`, or `on workers 4121 then 4130` when the first died
 * and the second resumed its remaining tests. The pid is what the worker's own `started`/`died`
 * lines name, so a run can be matched to the death that ended it.
 */
export function workersText(workers: readonly number[] | undefined): string {
  if (!workers || workers.length === 0) return "";
  return workers.length === 1 ? ` on worker ${workers[0]}` : ` on workers ${workers.join(" then ")}`;
}

/**
 * The line for a run that ended: `ran examples/a.test.ts (version 3) on worker 4121: 2 tests: 2 passed in 41 ms`.
 * A file that did not load is a warning naming why; a cancelled run (a newer edit came) and one
 * whose document moved on are debug lines, as they show nothing.
 */
export function runEndLine(run: {
  file: string;
  version: number | undefined;
  outcome: RunOutcome;
  durationMs: number;
  report?: FileReport | undefined;
  workers?: readonly number[] | undefined;
}): LogLine {
  const what = `${run.file} (${run.version === undefined ? "on disk" : `version ${run.version}`})${workersText(run.workers)}`;
  const time = `${Math.round(run.durationMs)} ms`;
  if (run.outcome === "cancelled" || !run.report) return { level: "debug", text: `run of ${what} cancelled after ${time}` };
  const dropped = run.outcome === "stale" ? "; its results were dropped: the document changed meanwhile" : "";
  if (run.report.error) {
    const why = run.report.error.message.split("\n")[0] ?? "";
    return { level: run.outcome === "stale" ? "debug" : "warn", text: `ran ${what}: the file did not load (${why}) in ${time}${dropped}` };
  }
  return { level: run.outcome === "stale" ? "debug" : "info", text: `ran ${what}: ${testCountsText(run.report)} in ${time}${dropped}` };
}

/** Writes a line at its level. */
export function write(log: Logger, line: LogLine): void {
  log[line.level](line.text);
}

/** A file's path as the log shows it: relative to the workspace root when inside it. */
export function shownPath(file: string, root: string | undefined): string {
  if (!root) return file;
  const inside = relative(root, file);
  return inside && !inside.startsWith("..") && !inside.startsWith("/") ? inside : file;
}

/** Each run's end, as a line of the server's log, its file shown relative to the workspace root. */
export function logRuns(server: Server): void {
  let root: string | undefined;
  server.onInitialize((params) => void (root = params.rootUri ? fileOf(params.rootUri) : undefined));
  server.scheduler.onDidEndRun.event(
    server.guardNotification("log a run", ({ run, outcome, result }: { run: RunInfo; outcome: RunOutcome; result?: JobResult }) => {
      const file = shownPath(fileOf(run.uri) ?? run.uri, root);
      write(
        server.log,
        runEndLine({ file, version: run.version, outcome, durationMs: server.env.now() - run.started, report: result?.report, workers: result?.workers }),
      );
    }),
  );
}

/**
 * The start's line (startTimeline.ts), once, at the first results of an open test document: from
 * the process's start to them, each step's time, so a slow first result in an editor can be placed.
 */
export function logStart(server: Server): void {
  server.state.onDidOpen.event(() => markStart("test document opened"));
  server.scheduler.onDidStartRun.event((run) => {
    if (run.version !== undefined) markStart("its run started");
  });
  server.scheduler.onDidEndRun.event(
    server.guardNotification("log the start", ({ run, outcome }: { run: RunInfo; outcome: RunOutcome }) => {
      if (outcome !== "fresh" || run.version === undefined || marked("its results")) return;
      markStart("its results");
      server.log.info(startLine());
    }),
  );
}
