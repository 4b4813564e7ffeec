// Hover on an answer(...)/noAnswer.*() entry: every turn it met in the last run; on a compactions
// or messages entry, an events element, a participants or decisions key: what it met
// (operationHovers.ts); on a test(...): how its runs ended, their turns and durations.
import { MarkupKind, type Hover, type HoverParams, type Position, type Range } from "vscode-languageserver";
import type { TestReport } from "../../core/runner/report.ts";
import type { TurnTrace } from "../../core/testing/trace.ts";
import type { Server } from "../server.ts";
import type { MetTurn } from "../toProtocol.ts";
import { code, cut, quoteLines } from "./markdownText.ts";
import { operationsMarkdown } from "./operationHovers.ts";

function contains(range: Range, position: Position): boolean {
  const after = (a: Position, b: Position) => a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(position, range.start) && after(range.end, position);
}

function size(range: Range): number {
  return (range.end.line - range.start.line) * 10_000 + range.end.character - range.start.character;
}

/** One turn, as markdown: agent, number, nudge, label, stage, outcome; the prompt; the answer. */
export function turnMarkdown(turn: TurnTrace): string {
  const head = [`**${turn.agent}** turn ${turn.n}`];
  if (turn.nudge) head.push("nudge");
  if (turn.label) head.push(`label ${code(turn.label)}`);
  if (turn.stage) head.push(`stage ${code(turn.stage)}`);
  head.push(turn.outcome === "answered" ? "✓ answered" : `✗ ${turn.outcome}`);
  const lines = [head.join(" · "), ...quoteLines(turn.prompt)];
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
      // The innermost script under the position: an entry's turns, or what another script met.
      const hovered = [
        ...results.view.entries.map((view) => ({ range: view.entry.range, markdown: () => entryMarkdown(view.turns) })),
        ...results.view.operations.map((view) => ({ range: view.range, markdown: () => operationsMarkdown(view.met) })),
      ].filter((candidate) => contains(candidate.range, params.position));
      hovered.sort((left, right) => size(left.range) - size(right.range));
      const found = hovered[0];
      if (found) return { contents: { kind: MarkupKind.Markdown, value: found.markdown() }, range: found.range };
      const test = results.view.tests.find((view) => view.test && view.test.range.start.line === params.position.line && contains(view.test.range, params.position));
      if (test?.test) return { contents: { kind: MarkupKind.Markdown, value: testMarkdown(test.report) }, range: test.test.calleeRange };
      return null;
    }),
  );
}
