// Hover on an answer(...)/noAnswer.*() entry: every turn it met in the last run; on a test(...):
// how its runs ended, their turns and durations.
import { MarkupKind, type Hover, type HoverParams, type Position, type Range } from "vscode-languageserver";
import type { TestReport } from "../../core/runner/report.ts";
import type { TurnTrace } from "../../core/testing/trace.ts";
import type { Server } from "../server.ts";
import type { MetTurn } from "../toProtocol.ts";

function contains(range: Range, position: Position): boolean {
  const after = (a: Position, b: Position) => a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(position, range.start) && after(range.end, position);
}

function size(range: Range): number {
  return (range.end.line - range.start.line) * 10_000 + range.end.character - range.start.character;
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function code(text: string): string {
  const ticks = text.includes("`") ? "``" : "`";
  return `${ticks}${text}${ticks}`;
}

/** One turn, as markdown: agent, number, nudge, label, stage, outcome; the prompt; the answer. */
export function turnMarkdown(turn: TurnTrace): string {
  const head = [`**${turn.agent}** turn ${turn.n}`];
  if (turn.nudge) head.push("nudge");
  if (turn.label) head.push(`label ${code(turn.label)}`);
  if (turn.stage) head.push(`stage ${code(turn.stage)}`);
  head.push(turn.outcome === "answered" ? "✓ answered" : `✗ ${turn.outcome}`);
  const lines = [head.join(" · ")];
  const prompt = turn.prompt.split("\n").filter((line) => line.trim() !== "").slice(0, 3);
  for (const line of prompt) lines.push(`> ${cut(line, 120)}`);
  if (turn.prompt.split("\n").filter((line) => line.trim() !== "").length > 3) lines.push("> …");
  if (turn.answer !== undefined) lines.push("", `Answer: ${code(cut(typeof turn.answer === "string" ? turn.answer : JSON.stringify(turn.answer), 300))}`);
  if (turn.reason) lines.push("", `Reason: ${cut(turn.reason, 300)}`);
  return lines.join("\n");
}

export function entryMarkdown(turns: MetTurn[]): string {
  const tests = new Set(turns.map((met) => met.test));
  const header = `Turnlens · met ${turns.length} turn${turns.length === 1 ? "" : "s"}`;
  const blocks = turns.map((met) => (tests.size > 1 ? `${turnMarkdown(met.turn)}\n\n*in test ${code(met.test)}*` : turnMarkdown(met.turn)));
  return [header, ...blocks].join("\n\n---\n\n");
}

export function testMarkdown(report: TestReport): string {
  const status = report.status === "passed" ? "✓ passed" : report.status === "failed" ? "✗ failed" : `○ ${report.status}`;
  const turns = report.runs.reduce((sum, run) => sum + run.turns.length, 0);
  const lines = [`Turnlens · **${status}** · ${turns} turn${turns === 1 ? "" : "s"} · ${Math.round(report.durationMs)} ms`];
  for (const run of report.runs) {
    const ending = run.ending ? `${run.ending.kind}${run.ending.reason ? `: ${cut(run.ending.reason, 200)}` : ""}` : "did not start";
    lines.push(`- ${code(run.workflow)} ${ending} · ${run.turns.length} turn${run.turns.length === 1 ? "" : "s"} · ${Math.round(run.durationMs)} ms`);
  }
  if (report.runs.length === 0) lines.push("- no testWorkflow run");
  return lines.join("\n");
}

export function register(server: Server): void {
  const { connection, state } = server;
  server.onInitialize((_params, result) => {
    result.capabilities.hoverProvider = true;
  });
  connection.onHover(
    server.guardRequest("hover", (params: HoverParams): Hover | null => {
      const results = state.currentResults(params.textDocument.uri);
      if (!results) return null;
      const entries = results.view.entries.filter((view) => contains(view.entry.range, params.position));
      entries.sort((left, right) => size(left.entry.range) - size(right.entry.range));
      const entry = entries[0];
      if (entry) return { contents: { kind: MarkupKind.Markdown, value: entryMarkdown(entry.turns) }, range: entry.entry.range };
      const test = results.view.tests.find((view) => view.test && view.test.range.start.line === params.position.line && contains(view.test.range, params.position));
      if (test?.test) return { contents: { kind: MarkupKind.Markdown, value: testMarkdown(test.report) }, range: test.test.calleeRange };
      return null;
    }),
  );
}
