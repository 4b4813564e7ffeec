// `turnlens/transcript` and `turnlens/timeline`: each test's last report, kept from every run (open
// documents or run from disk), rendered when a client asks: the transcript (core's renderTranscript,
// then each run's Mermaid) and the timeline (timelineView.ts). The client shows the transcript as a
// read-only document and as the test's output; it never renders traces itself.
import { pathToFileURL } from "node:url";
import type { TestReport } from "../../core/execution/report.ts";
import type { RunTrace } from "../../core/testing/trace.ts";
import { renderTranscript } from "../../core/testing/transcript.ts";
import { siteLocation } from "../analysis/ranges.ts";
import { timelineResult, mermaidBlock } from "../views/timelineView.ts";
import {
  TestId,
  TimelineRequest,
  TranscriptRequest,
  type TestTranscript,
  type TranscriptParams,
  type TranscriptProblem,
  type TimelineParams,
  type TranscriptResult,
  type WorkflowRun,
} from "../protocol.ts";
import type { RunInfo } from "../scheduler.ts";
import type { Server } from "../server.ts";
import { fileOf } from "../state.ts";

/** Documents whose reports are kept; the least recently run is dropped past this. */
const KEPT_DOCUMENTS = 100;

export function register(server: Server): void {
  const { connection, scheduler } = server;
  /** Document uri → test id → that test's last report, in the order they came in. */
  const reports = new Map<string, Map<string, TestReport>>();

  const forDocument = (uri: string): Map<string, TestReport> => {
    let tests = reports.get(uri);
    if (tests) reports.delete(uri);
    else tests = new Map();
    // Re-inserting keeps the map in least-recently-run order.
    reports.set(uri, tests);
    while (reports.size > KEPT_DOCUMENTS) reports.delete(reports.keys().next().value!);
    return tests;
  };

  scheduler.onRunEvent.event(
    server.guardNotification("keep test reports", ({ run, event }: { run: RunInfo; event: { type: string; report?: TestReport } }) => {
      if (event.type !== "test" || !event.report) return;
      const tests = forDocument(run.uri);
      const id = TestId.of(run.uri, event.report.path);
      tests.delete(id);
      tests.set(id, event.report);
    }),
  );
  scheduler.onDidEndRun.event(
    server.guardNotification("drop removed tests' reports", ({ run, result }: { run: RunInfo; result?: { report: { tests: TestReport[] } } }) => {
      // A whole-file run that finished says which tests the file has now.
      if (run.request.paths || !result) return;
      const tests = reports.get(run.uri);
      if (!tests) return;
      const present = new Set(result.report.tests.map((test) => TestId.of(run.uri, test.path)));
      for (const id of tests.keys()) if (!present.has(id)) tests.delete(id);
    }),
  );

  connection.onRequest(
    TranscriptRequest.type,
    server.guardRequest(TranscriptRequest.method, (params: TranscriptParams): TranscriptResult | null => {
      const { uri, path } = TestId.parse(params.test);
      const tests = reports.get(uri);
      if (!tests) return null;
      const wanted = path.length === 0 ? [...tests.entries()] : [...tests.entries()].filter(([id]) => id === params.test);
      if (wanted.length === 0) return null;
      const transcripts = wanted.map(([id, report]) => testTranscript(uri, id, report));
      return { tests: transcripts, text: transcripts.map((test, index) => testText(test, wanted[index]![1])).join("\n") };
    }),
  );

  connection.onRequest(
    TimelineRequest.type,
    server.guardRequest(TimelineRequest.method, (params: TimelineParams) => {
      const report = reports.get(TestId.parse(params.test).uri)?.get(params.test);
      return report ? timelineResult(params.test, report) : null;
    }),
  );
}

function testTranscript(uri: string, id: string, report: TestReport): TestTranscript {
  return { test: id, status: report.status, durationMs: report.durationMs, runs: report.runs.map((trace) => workflowRun(uri, trace)) };
}

function workflowRun(uri: string, trace: RunTrace): WorkflowRun {
  const run: WorkflowRun = {
    workflow: trace.workflow,
    ending: trace.ending?.kind ?? "not run",
    turns: trace.turns?.length ?? 0,
    durationMs: trace.durationMs,
    problems: (trace.problems ?? []).map((problem): TranscriptProblem => {
      const made: TranscriptProblem = { code: problem.code, message: problem.message };
      if (problem.code === "schema-mismatch") {
        made.expected = schemaText(problem.expectedSchema);
        made.actual = schemaText(problem.actualSchema);
      }
      return made;
    }),
    transcript: renderTranscript(trace, { sites: true }),
  };
  if (trace.site) {
    run.location = siteLocation(trace.site.file === fileOf(uri) ? uri : pathToFileURL(trace.site.file).href, trace.site);
  }
  return run;
}

/** A schema as the diff shows it: pretty JSON, or `text` for a text turn. */
function schemaText(schema: unknown): string {
  if (schema === undefined || schema === "text") return "text";
  return JSON.stringify(schema, null, 2) ?? String(schema);
}

function testText(test: TestTranscript, report: TestReport): string {
  const head = `test ${report.path.join(" › ")} · ${test.status} · ${Math.round(test.durationMs)} ms`;
  // Each run's transcript, then its timeline as Mermaid (docs/timeline.md), for an editor or a page that renders it.
  const body = test.runs.length > 0 ? test.runs.map((run, index) => `${run.transcript}${mermaidBlock(report.runs[index]!)}`).join("\n") : "(no testWorkflow run)\n";
  return `${head}\n${body}`;
}
