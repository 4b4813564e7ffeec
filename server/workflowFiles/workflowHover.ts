// The hover at a workflow's call site, in words: how many tests reached it and how its turns
// ended, each test as a link to the `answer(...)` that met its first turn there (`file:///…#L12,5`,
// the form VS Code's hovers open at a line), and the test files of the workflow not run yet,
// each with a command link to the server's run-file command.
import { outcomeKindWords } from "../../core/testing/outcomeWords.ts";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { callSummary, type CallCoverage, type Reach } from "../../core/coverage/outcomeCoverage.ts";
import { Commands } from "../protocol.ts";

/** Text as markdown shows it literally (a test name may hold `*`, `_`, brackets). */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]()<>|]/g, (char) => `\\${char}`);
}

function linkTo(file: string, line: number, column: number): string {
  return `${pathToFileURL(file).href}#L${line},${column}`;
}

function turnsText(reach: Reach): string {
  return reach.turns
    .map((turn) => {
      const words = outcomeKindWords(turn.outcome, turn.n === 0);
      return turn.n === 0 ? `${turn.agent} ${words}` : `${turn.agent} #${turn.n}${turn.nudge ? " (nudge)" : ""} ${words}`;
    })
    .join(", ");
}

/** The run-file command as a markdown link. */
export function runFileLink(file: string): string {
  const args = encodeURIComponent(JSON.stringify([pathToFileURL(file).href]));
  return `[${escapeMarkdown(basename(file))}](command:${Commands.runFile}?${args})`;
}

/** `untested`: the agents opened at the call and the outcomes no test gives each. */
export function callMarkdown(call: CallCoverage, notRun: readonly string[], untested: ReadonlyArray<{ agent: string; outcomes: string[] }> = []): string {
  const head = `**Turnlens** · \`${call.callee ?? call.kind}\` · ${callSummary(call)}`;
  const lines = call.reached.map((reach) => {
    const entry = reach.turns.find((turn) => turn.entry)?.entry ?? reach.test.location;
    const name = escapeMarkdown(reach.test.path.join(" › "));
    const link = entry ? `[${name}](${linkTo(entry.file, entry.line, entry.column)})` : name;
    return `- ${link} (${escapeMarkdown(basename(reach.test.file))}): ${escapeMarkdown(turnsText(reach))}`;
  });
  const parts = [head];
  if (lines.length > 0) parts.push(lines.join("\n"));
  for (const { agent, outcomes } of untested) {
    parts.push(
      `No test gives ${escapeMarkdown(JSON.stringify(agent))}: ${escapeMarkdown(outcomes.map((outcome) => outcomeKindWords(outcome)).join(", "))}; a quick fix adds a test for each.`,
    );
  }
  if (notRun.length > 0) {
    const files = notRun.map(runFileLink).join(", ");
    parts.push(`${notRun.length === 1 ? "A test file of this workflow has" : `${notRun.length} test files of this workflow have`} not run yet: run ${files}`);
  }
  return parts.join("\n\n");
}
