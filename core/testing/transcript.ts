// The run transcript: a RunTrace as people read it, per agent, each turn's prompt, the answer or
// the outcome and the script entry that met it, then its compactions; then messages, participant
// calls, scripted events, decisions, the test's mistakes and the ending.
// Plain text; `syntaxes/turnlens-transcript.tmLanguage.json` highlights it (language `turnlens-transcript`).

import { endedAs, markedWords, turnEnd } from "./outcomeWords.ts";
import type { CompactionTrace, MatchTrace, MessageTrace, ParticipantEventTrace, RunTrace, SourceSite, TurnTrace } from "./trace.ts";

export interface TranscriptOptions {
  /** Lines of a prompt shown before it is cut; 3 by default. */
  promptLines?: number;
  /** Characters of an answer's JSON shown before it is cut; 200 by default. */
  answerWidth?: number;
  /** Whether the header shows the run's real duration; true by default (off for stable text). */
  duration?: boolean;
  /** Whether each `←` line names where its entry was written, as `file:line:column`; false by default. */
  sites?: boolean;
  /**
   * Whether the run's test passed: what went wrong unscripted is `✗` only in a failing test
   * (outcomeWords.ts). False by default: unless told the test passed, what went wrong is ✗.
   */
  passed?: boolean;
}

/*
 * The format, one construct per line (the grammar matches each line on its own):
 *
 *   run <workflow> · <ending> · <n> turns[ · <n> decisions][ · <n> messages][ · <n> events][ · <n> problems][ · <ms> ms]
 *   ── <agent>                                  an agent's turns, agents in first-seen order
 *   #<n>[ nudge][ woken by <from>][ [<label>]][ (stage <name>)]  <first line of the prompt>
 *       │ <next prompt line>                    up to `promptLines` lines in all, then
 *       │ … <k> more lines
 *       ✓ answered  <answer as one line of JSON>
 *       <mark> <outcome>  <reason>              the outcome in the words of outcomeWords.ts: `✓ no answer,
 *                                               as scripted`, `✗ refused` (and why), `○ still waiting`;
 *                                               ✗ only for what went wrong unscripted in a failing test
 *       ← <key>[<index>][  <file:line:column>]  the script entry that met the turn
 *   compaction #<n>  <first line of the focus>  after its agent's turns, each of its compactions
 *       │ <next focus line>                     cut as a prompt is
 *       ✓ answered  "<summary>"                 or another outcome, as a turn's
 *       ← <key>[<index>][  <file:line:column>]  the `compactions` entry that met it
 *   message <from> → <to>[ asks]  <first line of the text>    every message, in the order sent
 *       │ <next text line>                      cut as a prompt is
 *       ✓ replied|delivered                     or ✗ failed|undelivered  <reason>, ○ still pending
 *       ← <key>[<index>][  <file:line:column>]  the `messages` entry that met the wake it caused
 *   participant <key> route <agent> <direction>  <purpose>         each call of a participants script
 *   participant <key> message from <agent>  <first line of the text>
 *       → <what the script returned, as one line of JSON>          when it returned something
 *   event <name> <during|after> <agent>#<n>  ✓ sent <eventId>|✗ never sent|✗ refused   each `events` entry
 *   decision <key> ✓ answered|✗ rejected|✗ not answered  ← <key>
 *   problem <code>: <message>
 *   ending <mark> <kind>[ (stage <name>)][  <reason>]   only when the run did not complete:
 *                                               ✗ failed, timed-out, cancelled; ○ stopped, parked
 *
 * A nudge whose prompt is the one before it shows `(same prompt)` rather than repeating it. A wake
 * (a message woke an idle agent) is a turn: it keeps the agent's last turn number, its prompt is the
 * message, and `woken by <from>` names the sender.
 */

const FAILED_ENDINGS = new Set(["failed", "timed-out", "cancelled"]);

/** Renders a run's trace as a transcript, one line per construct, ending in a newline. */
export function renderTranscript(trace: RunTrace, options: TranscriptOptions = {}): string {
  const promptLines = Math.max(1, options.promptLines ?? 3);
  const answerWidth = Math.max(8, options.answerWidth ?? 200);
  const lines: string[] = [header(trace, options.duration ?? true)];

  const sites = options.sites ?? false;
  const passed = options.passed ?? false;
  const compactions = byAgent(trace.compactions ?? []);
  for (const [agent, turns] of byAgent(trace.turns ?? [])) {
    lines.push(`── ${agent}`);
    let previousPrompt: string | undefined;
    for (const turn of turns) {
      const samePrompt = turn.nudge && turn.prompt === previousPrompt;
      lines.push(...turnLines(turn, samePrompt, promptLines, answerWidth, sites, passed));
      previousPrompt = turn.prompt;
    }
    for (const compaction of compactions.get(agent) ?? []) lines.push(...compactionLines(compaction, promptLines, answerWidth, sites, passed));
    compactions.delete(agent);
  }
  // A compaction follows a turn of its agent, so this is only for a trace cut short.
  for (const [agent, rest] of compactions) {
    lines.push(`── ${agent}`);
    for (const compaction of rest) lines.push(...compactionLines(compaction, promptLines, answerWidth, sites, passed));
  }

  for (const message of trace.messages ?? []) lines.push(...messageLines(message, promptLines, sites, passed));
  for (const call of trace.participants ?? []) lines.push(...participantLines(call, answerWidth));
  for (const event of trace.events ?? []) {
    const refused = (trace.problems ?? []).some((problem) => problem.code === "event-refused" && problem.option === "events" && problem.index === event.index - 1);
    const ended = markedWords(endedAs("event", event.sent ? "sent" : refused ? "refused" : "never-sent", { passed }));
    const mark = event.sent ? `${ended} ${oneLine(event.eventId)}` : ended;
    lines.push(`event ${oneLine(event.name)} ${event.when} ${event.agent}#${event.n}  ${mark}`);
  }

  for (const decision of trace.decisions ?? []) {
    const mark = markedWords(endedAs("decision", decision.answered ? "answered" : decision.error !== undefined ? "rejected" : "not-answered", { passed }));
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
  return `${lines.join("\n")}\n`;
}

function header(trace: RunTrace, duration: boolean): string {
  const parts = [`run ${oneLine(trace.workflow)}`, trace.ending?.kind ?? "not run", count(trace.turns?.length ?? 0, "turn")];
  if (trace.decisions?.length) parts.push(count(trace.decisions.length, "decision"));
  if (trace.messages?.length) parts.push(count(trace.messages.length, "message"));
  if (trace.events?.length) parts.push(count(trace.events.length, "event"));
  if (trace.problems?.length) parts.push(count(trace.problems.length, "problem"));
  if (duration) parts.push(`${Math.round(trace.durationMs)} ms`);
  return parts.join(" · ");
}

function byAgent<T extends { agent: string }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.agent);
    if (group) group.push(item);
    else groups.set(item.agent, [item]);
  }
  return groups;
}

function turnLines(turn: TurnTrace, samePrompt: boolean, promptLines: number, answerWidth: number, sites: boolean, passed: boolean): string[] {
  let head = `#${turn.n}`;
  if (turn.nudge) head += " nudge";
  if (turn.cause) head += ` woken by ${oneLine(turn.cause.from)}`;
  if (turn.label !== undefined) head += ` [${oneLine(turn.label)}]`;
  if (turn.stage !== undefined) head += ` (stage ${oneLine(turn.stage)})`;

  const lines = samePrompt ? [`${head}  (same prompt)`] : textLines(head, turn.prompt, promptLines);
  lines.push(outcomeLine(turn, answerWidth, passed));
  if (turn.match) lines.push(`    ${matchText(turn.match, sites)}`);
  return lines;
}

/** `<head>  <first line>`, then up to `promptLines` lines in all behind a gutter, then how many were cut. */
function textLines(head: string, text: string, promptLines: number): string[] {
  const all = text.replace(/\r\n?/g, "\n").replace(/\n+$/, "").split("\n");
  const lines = [`${head}  ${all[0] ?? ""}`];
  const shown = all.slice(1, promptLines);
  for (const line of shown) lines.push(`    │ ${line}`);
  const hidden = all.length - 1 - shown.length;
  if (hidden > 0) lines.push(`    │ … ${count(hidden, "more line")}`);
  return lines;
}

/** A turn's or a compaction's outcome in the table's words: the answer when answered, else why (the refusal, or the reason). */
function outcomeLine(ended: { outcome: string; answer?: unknown; reason?: string; refused?: string; scripted?: true }, answerWidth: number, passed: boolean): string {
  const words = markedWords(endedAs("turn", turnEnd(ended), { scripted: ended.scripted === true, passed }));
  if (ended.outcome === "answered") return `    ${words}${ended.answer === undefined ? "" : `  ${answerText(ended.answer, answerWidth)}`}`;
  const why = ended.refused ?? ended.reason;
  return `    ${words}${why ? `  ${oneLine(why)}` : ""}`;
}

function compactionLines(compaction: CompactionTrace, promptLines: number, answerWidth: number, sites: boolean, passed: boolean): string[] {
  const lines = textLines(`compaction #${compaction.n}`, compaction.focus, promptLines);
  lines.push(outcomeLine(compaction, answerWidth, passed));
  if (compaction.match) lines.push(`    ${matchText(compaction.match, sites)}`);
  return lines;
}

function messageLines(message: MessageTrace, promptLines: number, sites: boolean, passed: boolean): string[] {
  const head = `message ${oneLine(message.from)} → ${oneLine(message.to)}${message.awaitReply ? " asks" : ""}`;
  const lines = textLines(head, message.text, promptLines);
  lines.push(`    ${markedWords(endedAs("message", message.end, { passed }))}${message.reason ? `  ${oneLine(message.reason)}` : ""}`);
  if (message.match) lines.push(`    ${matchText(message.match, sites)}`);
  return lines;
}

function participantLines(call: ParticipantEventTrace, answerWidth: number): string[] {
  const head = `participant ${oneLine(call.participant)}`;
  const line =
    call.kind === "route"
      ? `${head} route ${oneLine(call.agent ?? "?")} ${call.direction ?? "both"}${call.purpose ? `  ${oneLine(call.purpose)}` : ""}`
      : `${head} message from ${oneLine(call.from ?? "?")}  ${firstLineOf(call.text ?? "")}`;
  const lines = [line];
  if (call.returned !== undefined) lines.push(`    → ${answerText(call.returned, answerWidth)}`);
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

function firstLineOf(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim().split("\n")[0] ?? "";
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ⏎ ");
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
