// The runs the workflow-file views are built from: the last report of every test file the server
// ran, open or closed (a closed one when the Test Explorer or `turnlens.runFile` ran it), and the
// outcome coverage of them all, recomputed once per change. Each workflow's call sites are read
// from its open buffer, else from disk.
import { readFileSync } from "node:fs";
import { Emitter } from "vscode-languageserver";
import { outcomeCoverage, type OutcomeCoverage } from "../../core/coverage/outcomeCoverage.ts";
import type { FileReport } from "../../core/execution/report.ts";
import { workflowCallSites, type WorkflowCallSite } from "../../core/coverage/workflowCallSites.ts";
import type { RunOutcome, Scheduler } from "../scheduler.ts";
import type { JobResult } from "../../core/execution/pool.ts";
import { fileOf, type RunInfo, type ServerState } from "../state.ts";
import { isTestFile } from "../../core/project/discover.ts";

export class WorkflowRuns {
  /** The views built on the runs should refresh (a run ended, a workflow buffer changed). */
  readonly onDidChange = new Emitter<void>();
  /** Each test file's last report, by absolute path. */
  private readonly reports = new Map<string, FileReport>();
  private cached?: OutcomeCoverage;

  constructor(
    private readonly state: ServerState,
    scheduler: Scheduler,
  ) {
    scheduler.onDidEndRun.event(({ run, outcome, result }: { run: RunInfo; outcome: RunOutcome; result?: JobResult }) => {
      // A fresh run of an open file, or a run of a closed file from disk; never one of a version
      // the buffer has moved on from.
      if (!result || (outcome !== "fresh" && run.version !== undefined)) return;
      this.remember(result.report, run.request.paths !== undefined);
    });
    // A workflow buffer's edit moves its call sites; a test file's edit changes nothing here.
    state.documents.onDidChangeContent(({ document }) => {
      const file = fileOf(document.uri);
      if (file && !isTestFile(file)) this.changed();
    });
  }

  /** Keeps a file's report; a run of some tests replaces only those tests. */
  remember(report: FileReport, partial: boolean): void {
    const earlier = this.reports.get(report.file);
    if (partial && earlier) {
      const ran = new Set(report.tests.map((test) => test.id));
      report = { ...report, tests: [...earlier.tests.filter((test) => !ran.has(test.id)), ...report.tests] };
    }
    this.reports.set(report.file, report);
    this.changed();
  }

  private changed(): void {
    this.cached = undefined;
    this.onDidChange.fire();
  }

  /** The test files that have a run, absolute. */
  ranFiles(): Set<string> {
    return new Set(this.reports.keys());
  }

  coverage(): OutcomeCoverage {
    this.cached ??= outcomeCoverage({ reports: [...this.reports.values()], callSitesOf: (file) => this.callSitesOf(file) });
    return this.cached;
  }

  /** The calls written in a workflow file: its open buffer's text, else the file on disk. */
  callSitesOf(file: string): WorkflowCallSite[] | undefined {
    const text = this.textOf(file);
    return text === undefined ? undefined : workflowCallSites(text);
  }

  textOf(file: string): string | undefined {
    const open = this.state.documents.all().find((document) => fileOf(document.uri) === file);
    if (open) return open.getText();
    try {
      return readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
  }
}
