// The `agent` reporter, for a coding agent running the tests: failures only, each as
// `file:line:col code`, one line of why and the quick fix Turnlens offers (core/testing/problemFixes.ts),
// then the count line. Chosen by itself when std-env detects an agent (reporterGroup.ts).
import { readFileSync } from "node:fs";
import type { ErrorReport, FileReport, RunSummary, Site, TestReport } from "../../execution/report.ts";
import type { ProblemTrace, RunTrace } from "../../testing/trace.ts";
import { preferredFixTitle, type NamedSchema } from "../../testing/problemFixes.ts";
import { canonicalJson } from "../../workflow/json.ts";
import { countLine, rel, site, testName, type FileExtras, type Out, type Reporter } from "./reporter.ts";
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

/** A failure that is no testWorkflow problem: an `expect`, a timeout, an error thrown (its class: `TypeError`). */
function plainCode(error: ErrorReport): string {
  if (error.type === "AssertionError") return "assertion-failed";
  if (/ timed out after \d/.test(error.message)) return "timeout";
  return error.type && error.type !== "Error" ? oneLineText(error.type) : "error";
}

function plainWhy(error: ErrorReport): string {
  const first = oneLine(error.message);
  const short = (value: string | undefined) => value !== undefined && !value.includes("\n") && value.length <= 80;
  return error.type === "AssertionError" && short(error.expected) && short(error.actual)
    ? oneLine(`${first}: expected ${error.expected}, received ${error.actual}`)
    : first;
}

/** Where the fix goes: the line a script threw on, the entry the problem is about, else the failure's own place. */
function problemSite(problem: ProblemTrace, fallback: Site | undefined): Site | undefined {
  if (problem.code === "unknown-option" && problem.option && fallback) return optionSite(fallback, problem.option) ?? fallback;
  return problem.thrownAt ?? problem.site ?? problem.sites?.[0] ?? fallback;
}

/** How far below the `testWorkflow(` call an unknown option's name is looked for. */
const OPTION_SEARCH_LINES = 60;

/**
 * Where an unknown option's name is written (`agnets:` below the `testWorkflow(` call), found in
 * the text as the rename would edit it; the call's own place when the text does not show it.
 */
function optionSite(call: Site, option: string): Site | undefined {
  let text: string;
  try {
    text = readFileSync(call.file, "utf8");
  } catch {
    return undefined;
  }
  const name = option.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const key = new RegExp(`(^|[^\\w$])(["']?)${name}\\2\\s*:`);
  const lines = text.split("\n");
  for (let index = call.line - 1; index < Math.min(lines.length, call.line - 1 + OPTION_SEARCH_LINES); index++) {
    const from = index === call.line - 1 ? call.column - 1 : 0;
    const match = key.exec(lines[index]!.slice(from));
    if (match) return { file: call.file, line: index + 1, column: from + match.index + match[1]!.length + 1 };
  }
  return undefined;
}

/** The schema of the turn a problem is about, from the run that had it (traces come with this reporter). */
function turnSchema(runs: readonly RunTrace[], problem: ProblemTrace): unknown {
  for (const run of runs) {
    const turn = run.turns.find((t) => t.agent === problem.agent && t.n === problem.turn && t.nudge === (problem.nudge ?? false));
    if (turn) return turn.schema;
  }
  return undefined;
}

export class AgentReporter implements Reporter {
  private readonly items: Array<{ file: string; item: AgentItem }> = [];

  constructor(private readonly out: Out) {}

  start(): void {}
  fileStart(): void {}
  testEnd(): void {}

  fileEnd(report: FileReport, extras: FileExtras = {}): void {
    const names = new Map((extras.schemas ?? []).map((named) => [named.schema, named]));
    const nameOf = (schema: unknown): NamedSchema | undefined => names.get(canonicalJson(schema));
    const where = (s: Site | undefined) => site(this.out, s) ?? rel(this.out, report.file);
    if (report.error) {
      this.items.push({
        file: report.file,
        item: { at: where(report.error.location), code: "load-error", why: oneLine(report.error.message) },
      });
    }
    for (const test of report.tests.filter((t) => t.status === "failed")) this.addTest(report.file, test, where, nameOf);
  }

  private addTest(file: string, test: TestReport, where: (s: Site | undefined) => string, nameOf: (schema: unknown) => NamedSchema | undefined): void {
    const error = test.error ?? { message: "failed" };
    const name = testName(test);
    const fallback = error.location ?? test.location;
    const problems = error.problems ?? [];
    if (problems.length === 0) {
      this.items.push({ file, item: { at: where(fallback), code: plainCode(error), test: name, why: plainWhy(error) } });
      return;
    }
    for (const problem of problems) {
      const fix = preferredFixTitle(problem, { turnSchema: turnSchema(test.runs, problem), nameOf });
      const item: AgentItem = { at: where(problemSite(problem, fallback)), code: problem.code, test: name, why: oneLine(problem.message) };
      if (fix) item.fix = oneLineText(fix.charAt(0).toLowerCase() + fix.slice(1));
      this.items.push({ file, item });
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
