// What `turnlens/transcript` answers for a test's last reports: core's renderTranscript of each
// run, its problems and where it was called. Text only: the sequence diagram is the timeline's
// (`turnlens/timeline`), since the editors' text views would show Mermaid as raw source.
import { pathToFileURL } from "node:url";
import type { TestReport } from "../../core/execution/report.ts";
import type { RunTrace } from "../../core/testing/trace.ts";
import { renderTranscript } from "../../core/testing/transcript.ts";
import { siteLocation } from "../analysis/ranges.ts";
import type { TestTranscript, TranscriptProblem, TranscriptResult, WorkflowRun } from "../protocol.ts";

/** The transcripts of the tests in `wanted` (test id → its last report) of the document `uri`, whose path is `file`; null for none. */
export function transcriptResult(uri: string, file: string | undefined, wanted: Array<[string, TestReport]>): TranscriptResult | null {
  if (wanted.length === 0) return null;
  const transcripts = wanted.map(([id, report]) => testTranscript(uri, file, id, report));
  return { tests: transcripts, text: transcripts.map((test, index) => testText(test, wanted[index]![1])).join("\n") };
}

function testTranscript(uri: string, file: string | undefined, id: string, report: TestReport): TestTranscript {
  return { test: id, status: report.status, durationMs: report.durationMs, runs: report.runs.map((trace) => workflowRun(uri, file, trace, report.status !== "failed")) };
}

function workflowRun(uri: string, file: string | undefined, trace: RunTrace, passed: boolean): WorkflowRun {
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
    transcript: renderTranscript(trace, { sites: true, passed }),
  };
  if (trace.site) {
    run.location = siteLocation(trace.site.file === file ? uri : pathToFileURL(trace.site.file).href, trace.site);
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
  const body = test.runs.length > 0 ? test.runs.map((run) => run.transcript).join("\n") : "(no testWorkflow run)\n";
  return `${head}\n${body}`;
}
