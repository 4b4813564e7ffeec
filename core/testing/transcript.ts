// The run transcript: a RunTrace as people read it, per agent, each turn's prompt, the answer or
// the outcome and the script entry that met it, then decisions, the test's mistakes and the ending.
// Plain text; `syntaxes/turnlens-transcript.tmLanguage.json` highlights it (language `turnlens-transcript`).

import type { MatchTrace, RunTrace, SourceSite, TurnTrace } from "./trace.ts";

export interface TranscriptOptions {
  /** Lines of a prompt shown before it is cut; 3 by default. */
  promptLines?: number;
  /** Characters of an answer's JSON shown before it is cut; 200 by default. */
  answerWidth?: number;
  /** Whether the header shows the run's real duration; true by default (off for stable text). */
  duration?: boolean;
  /** Whether each `←` line names where its entry was written, as `file:line:column`; false by default. */
  sites?: boolean;
}

/*
 * The format, one construct per line (the grammar matches each line on its own):
 *
 *   run <workflow> · <ending> · <n> turns[ · <n> decisions][ · <n> problems][ · <ms> ms]
 *   ── <agent>                                  an agent's turns, agents in first-seen order
 *   #<n>[ nudge][ [<label>]][ (stage <name>)]  <first line of the prompt>
 *       │ <next prompt line>                    up to `promptLines` lines in all, then
 *       │ … <k> more lines
 *       ✓ answered  <answer as one line of JSON>
 *       ✗ <outcome>  <reason>                   unanswered, blocked, failed, timed-out, cancelled
 *       ○ <outcome>  <reason>                   waiting, awaiting-reply and any other
 *       ← <key>[<index>][  <file:line:column>]  the script entry that met the turn
 *   decision <key> ✓ answered|✗ no answers  ← <key>
 *   problem <code>: <message>
 *   ending <mark> <kind>[ (stage <name>)][  <reason>]   only when the run did not complete
 *
 * A nudge whose prompt is the one before it shows `(same prompt)` rather than repeating it.
 */

const FAILED_OUTCOMES = new Set(["unanswered", "blocked", "failed", "timed-out", "cancelled"]);
const FAILED_ENDINGS = new Set(["failed", "timed-out", "cancelled"]);

/** Renders a run's trace as a transcript, one line per construct, ending in a newline. */
export function renderTranscript(trace: RunTrace, options: TranscriptOptions = {}): string {
  const promptLines = Math.max(1, options.promptLines ?? 3);
  const answerWidth = Math.max(8, options.answerWidth ?? 200);
  const lines: string[] = [header(trace, options.duration ?? true)];

  for (const [agent, turns] of byAgent(trace.turns ?? [])) {
    lines.push(`── ${agent}`);
    let previousPrompt: string | undefined;
    for (const turn of turns) {
      const samePrompt = turn.nudge && turn.prompt === previousPrompt;
      lines.push(...turnLines(turn, samePrompt, promptLines, answerWidth, options.sites ?? false));
      previousPrompt = turn.prompt;
    }
  }

  for (const decision of trace.decisions ?? []) {
    const mark = decision.answered ? "✓ answered" : "✗ no answers";
    lines.push(`decision ${oneLine(decision.key)} ${mark}${decision.match ? `  ${matchText(decision.match, false)}` : ""}`);
  }

  for (const problem of trace.problems ?? []) {
    const [first = "", ...rest] = problem.message.split("\n");
    lines.push(`problem ${problem.code}: ${first}`);
    for (const line of rest) lines.push(`    │ ${line}`);
  }

  const ending = trace.ending;
  if (ending && ending.kind !== "completed") {
    const stage = ending.stage ? ` (stage ${oneLine(ending.stage)})` : "";
    const reason = ending.reason ? `  ${oneLine(ending.reason)}` : "";
    lines.push(`ending ${FAILED_ENDINGS.has(ending.kind) ? "✗" : "○"} ${ending.kind}${stage}${reason}`);
  }
  return lines.join("\n") + "\n";
}

function header(trace: RunTrace, duration: boolean): string {
  const parts = [`run ${oneLine(trace.workflow)}`, trace.ending?.kind ?? "not run", count(trace.turns?.length ?? 0, "turn")];
  if (trace.decisions?.length) parts.push(count(trace.decisions.length, "decision"));
  if (trace.problems?.length) parts.push(count(trace.problems.length, "problem"));
  if (duration) parts.push(`${Math.round(trace.durationMs)} ms`);
  return parts.join(" · ");
}

function byAgent(turns: TurnTrace[]): Map<string, TurnTrace[]> {
  const groups = new Map<string, TurnTrace[]>();
  for (const turn of turns) {
    const group = groups.get(turn.agent);
    if (group) group.push(turn);
    else groups.set(turn.agent, [turn]);
  }
  return groups;
}

function turnLines(turn: TurnTrace, samePrompt: boolean, promptLines: number, answerWidth: number, sites: boolean): string[] {
  let head = `#${turn.n}`;
  if (turn.nudge) head += " nudge";
  if (turn.label !== undefined) head += ` [${oneLine(turn.label)}]`;
  if (turn.stage !== undefined) head += ` (stage ${oneLine(turn.stage)})`;

  const lines: string[] = [];
  if (samePrompt) {
    lines.push(`${head}  (same prompt)`);
  } else {
    const prompt = turn.prompt.replace(/\r\n?/g, "\n").replace(/\n+$/, "").split("\n");
    lines.push(`${head}  ${prompt[0] ?? ""}`);
    const shown = prompt.slice(1, promptLines);
    for (const line of shown) lines.push(`    │ ${line}`);
    const hidden = prompt.length - 1 - shown.length;
    if (hidden > 0) lines.push(`    │ … ${count(hidden, "more line")}`);
  }

  if (turn.outcome === "answered") {
    lines.push(`    ✓ answered${turn.answer === undefined ? "" : `  ${answerText(turn.answer, answerWidth)}`}`);
  } else {
    const mark = FAILED_OUTCOMES.has(turn.outcome) ? "✗" : "○";
    lines.push(`    ${mark} ${turn.outcome}${turn.reason ? `  ${oneLine(turn.reason)}` : ""}`);
  }
  if (turn.match) lines.push(`    ${matchText(turn.match, sites)}`);
  return lines;
}

/** `← key`, `← key[index]`, and the entry's site when asked for and known. */
function matchText(match: MatchTrace, sites: boolean): string {
  const index = match.index === null ? "" : `[${match.index}]`;
  const site = sites && match.site ? `  ${siteText(match.site)}` : "";
  return `← ${oneLine(match.key)}${index}${site}`;
}

function siteText(site: SourceSite): string {
  const file = site.file.split(/[\\/]/).pop() ?? site.file;
  return `${file}:${site.line}:${site.column}`;
}

/** An answer as one line of JSON (a text answer is a JSON string), cut to `width` characters. */
function answerText(answer: unknown, width: number): string {
  let text: string;
  try {
    text = JSON.stringify(answer) ?? String(answer);
  } catch {
    text = String(answer);
  }
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ⏎ ");
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
