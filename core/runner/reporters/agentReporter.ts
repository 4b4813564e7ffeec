// The `agent` reporter, for a coding agent running the tests: failures only, each as
// `file:line:col code`, one line of why and the quick fix Turnlens offers (core/testing/problemFixes.ts),
// then the count line. Chosen by itself when std-env detects an agent (reporterGroup.ts).
import type { ErrorReport, FileReport, RunSummary, Site, TestReport } from "../../execution/report.ts";
import type { ProblemTrace, RunTrace } from "../../testing/trace.ts";
import { preferredFixTitle, type NamedSchema } from "../../testing/problemFixes.ts";
import { canonicalJson } from "../../workflow/json.ts";
import type { Question } from "../../workflow/types.ts";
import { countLine, failuresOf, rel, site, testFileTexts, testName, type FileExtras, type Out, type Reporter } from "./reporter.ts";
import { oneLineText } from "./terminalText.ts";

/** One thing to act on: where, its code, why, and the fix when Turnlens has one. */
export interface AgentItem {
  at: string;
  code: string;
  /** The failed test's full name; none for a file that could not run. */
  test?: string;
  why: string;
  fix?: string;
}

const WHY_WIDTH = 300;

/** The first line of a message, cut to one screen line or so, its controls escaped: the why, never a transcript. */
function oneLine(text: string): string {
  const first = text.split("\n").find((line) => line.trim() !== "") ?? "";
  const trimmed = oneLineText(first.trim());
  return trimmed.length > WHY_WIDTH ? `${trimmed.slice(0, WHY_WIDTH - 1)}…` : trimmed;
}

/** A failure's why: a problem's message, or the error's (an `expect`'s with both values when they are short, a throw's with its class). */
function plainWhy(error: ErrorReport): string {
  const first = oneLine(error.message);
  const short = (value: string | undefined) => value !== undefined && !value.includes("\n") && value.length <= 80;
  if (error.type === "AssertionError" && short(error.expected) && short(error.actual)) return oneLine(`${first}: expected ${error.expected}, received ${error.actual}`);
  const named = error.type && !["Error", "AssertionError", "TestWorkflowError"].includes(error.type) && !first.startsWith(error.type);
  return named ? oneLine(`${error.type}: ${first}`) : first;
}

/** The schema of the turn a problem is about, from the run that had it (traces come with this reporter). */
function turnSchema(runs: readonly RunTrace[], problem: ProblemTrace): unknown {
  for (const run of runs) {
    const turn = run.turns.find((t) => t.agent === problem.agent && t.n === problem.turn && t.nudge === (problem.nudge ?? false));
    if (turn) return turn.schema;
  }
  return undefined;
}

/** The questions of the decision a problem is about, as the run that had it asked them. */
function decisionQuestions(runs: readonly RunTrace[], problem: ProblemTrace): { decisionQuestions?: Readonly<Record<string, Question>> } {
  if (problem.decision === undefined) return {};
  for (const run of runs) {
    const questions = run.decisions.find((decision) => decision.key === problem.decision)?.questions;
    if (questions) return { decisionQuestions: questions };
  }
  return {};
}

export class AgentReporter implements Reporter {
  private readonly items: Array<{ file: string; item: AgentItem }> = [];
  private readonly texts = testFileTexts();

  constructor(private readonly out: Out) {}

  start(): void {}
  fileStart(): void {}
  testEnd(): void {}

  fileEnd(report: FileReport, extras: FileExtras = {}): void {
    const names = new Map((extras.schemas ?? []).map((named) => [named.schema, named]));
    const nameOf = (schema: unknown): NamedSchema | undefined => names.get(canonicalJson(schema));
    const where = (s: Site | undefined) => site(this.out, s) ?? rel(this.out, report.file);
    for (const failure of failuresOf(report, undefined, this.texts)) {
      this.items.push({ file: report.file, item: { at: where(failure.site), code: failure.code, why: oneLine(failure.message) } });
    }
    for (const test of report.tests.filter((t) => t.status === "failed")) this.addTest(report, test, where, nameOf);
  }

  /** Each failure of the test where every reporter and the editor place it (core/execution/failureLocation.ts), with its fix. */
  private addTest(report: FileReport, test: TestReport, where: (s: Site | undefined) => string, nameOf: (schema: unknown) => NamedSchema | undefined): void {
    const name = testName(test);
    for (const failure of failuresOf(report, test, this.texts)) {
      const { problem } = failure;
      const item: AgentItem = {
        at: where(failure.site),
        code: failure.code,
        test: name,
        why: problem ? oneLine(problem.message) : plainWhy(test.error ?? { message: "failed" }),
      };
      const fix = problem ? preferredFixTitle(problem, { turnSchema: turnSchema(test.runs, problem), nameOf, ...decisionQuestions(test.runs, problem) }) : undefined;
      if (fix) item.fix = oneLineText(fix.charAt(0).toLowerCase() + fix.slice(1));
      this.items.push({ file: report.file, item });
    }
  }

  finish(summary: RunSummary, _durationMs: number, note?: string): void {
    const order = new Map(summary.files.map((f, i) => [f.file, i]));
    const items = this.items
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => (order.get(a.entry.file) ?? 0) - (order.get(b.entry.file) ?? 0) || a.index - b.index)
      .map(({ entry }) => entry.item);
    const lines: string[] = [];
    for (const item of items) {
      lines.push(`FAIL ${item.at} ${item.code}`);
      if (item.test) lines.push(`  test: ${item.test}`);
      lines.push(`  why: ${item.why}`);
      if (item.fix) lines.push(`  fix: ${item.fix}`);
    }
    if (note) lines.push(note);
    lines.push(countLine(summary));
    this.out.stdout.write(`${lines.join("\n")}\n`);
  }
}
