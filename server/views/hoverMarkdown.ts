// The markdown of a hover: each turn an entry met with its prompt and answer, each compaction with
// its focus and summary, each wake with its message, each sending of an event, each participant
// call and what it returned, each decision's answers; and how a test's runs ended.

import type { TestReport } from "../../core/execution/report.ts";
import type { NeverReachedView } from "./runView.ts";
import type { CompactionTrace, DecisionTrace, MessageTrace, ParticipantEventTrace, TurnTrace } from "../../core/testing/trace.ts";
import { metOf, type EventTrace, type MetKind, type MetOf, type ScriptView } from "./scriptViews.ts";
import { code, cut, plural, quoteLines } from "./markdownText.ts";
import { endMark, scriptHint, turnHint } from "./hintLabels.ts";
import { endedAs, markedWords, turnEnd, type EndContext } from "../../core/testing/outcomeWords.ts";

/** One turn, as markdown: agent, number, nudge, label, stage, outcome; the prompt; the answer. */
export function turnMarkdown(turn: TurnTrace, context: EndContext = {}): string {
  const head = [`**${turn.agent}** turn ${turn.n}`];
  if (turn.nudge) head.push("nudge");
  if (turn.label) head.push(`label ${code(turn.label)}`);
  if (turn.stage) head.push(`stage ${code(turn.stage)}`);
  head.push(markedWords(endedAs("turn", turnEnd(turn), context)));
  const lines = [head.join(" · "), ...quoteLines(turn.prompt)];
  if (turn.answer !== undefined) lines.push("", `Answer: ${code(cut(typeof turn.answer === "string" ? turn.answer : JSON.stringify(turn.answer), 300))}`);
  if (turn.refused) lines.push("", `Refused: ${cut(turn.refused, 300)}`);
  else if (turn.reason) lines.push("", `Reason: ${cut(turn.reason, 300)}`);
  return lines.join("\n");
}

/** Every turn an entry met, naming the test when several tests met it. */
export function turnsMarkdown(turns: Array<MetOf<"turn">>): string {
  const tests = new Set(turns.map((met) => met.test));
  // The first line answers "what happened here?" in the hint's words; the blocks are the detail.
  const header = `Turnlens · **${turnHint(turns, Number.POSITIVE_INFINITY)}**`;
  const blocks = turns.map((met) => {
    const block = turnMarkdown(met.turn, { scripted: met.scripted, passed: met.passed });
    return tests.size > 1 ? `${block}\n\n*in test ${code(met.test)}*` : block;
  });
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

export function compactionMarkdown(compaction: CompactionTrace, passed?: boolean): string {
  const ended = endedAs("turn", turnEnd(compaction), { scripted: compaction.scripted === true, ...(passed === undefined ? {} : { passed }) });
  const lines = [`**${compaction.agent}** compaction ${compaction.n} · ${markedWords(ended)}`, ...quoteLines(compaction.focus)];
  if (compaction.answer !== undefined) lines.push("", `Summary: ${code(cut(compaction.answer, 300))}`);
  if (compaction.reason) lines.push("", `Reason: ${cut(compaction.reason, 300)}`);
  return lines.join("\n");
}

export function wakeMarkdown(message: MessageTrace, passed?: boolean): string {
  const lines = [`**${message.to}** woken by **${message.from}** · ${endMark(message.end, passed)}`, ...quoteLines(message.text)];
  if (message.awaitReply) lines.push("", "It awaited a reply.");
  if (message.reason) lines.push("", `Reason: ${cut(message.reason, 300)}`);
  return lines.join("\n");
}

export function eventMarkdown(event: EventTrace, refused: boolean, passed?: boolean): string {
  const turn = `${event.when} ${event.agent}#${event.n}`;
  const ended = markedWords(endedAs("event", event.sent ? "sent" : refused ? "refused" : "never-sent", passed === undefined ? {} : { passed }));
  const head = [`**${event.name}**`, event.sent ? `${ended} ${turn}` : `${ended} (${turn})`, `id ${code(event.eventId)}`];
  if (event.at) head.push(`at ${event.at}`);
  return head.join(" · ");
}

export function participantMarkdown(call: ParticipantEventTrace): string {
  if (call.kind === "route") {
    const lines = [`**${call.participant}** · route with **${call.agent}**${call.direction ? ` (${call.direction})` : ""}`, ...quoteLines(call.purpose ?? "")];
    if (call.returned !== undefined) lines.push("", `Returned: ${code(cut(JSON.stringify(call.returned), 300))}`);
    return lines.join("\n");
  }
  const lines = [`**${call.participant}** · message from **${call.from}**${call.id ? ` · id ${code(call.id)}` : ""}`, ...quoteLines(call.text ?? "")];
  lines.push("", call.returned !== undefined ? `Returned: ${code(cut(JSON.stringify(call.returned), 300))}` : "Returned nothing.");
  return lines.join("\n");
}

export function decisionMarkdown(decision: DecisionTrace, passed?: boolean): string {
  const by = decision.match?.pattern ? ` · by ${code(decision.match.pattern)}` : "";
  const end = decision.answered ? "answered" : decision.error !== undefined ? "rejected" : "not-answered";
  const ended = markedWords(endedAs("decision", end, passed === undefined ? {} : { passed }));
  if (!decision.answered) return `**${decision.key}**${by} · ${ended}${decision.error !== undefined ? `: ${cut(decision.error, 300)}` : ""}`;
  const answers = Object.entries(decision.answers ?? {}).map(([id, reading]) => `- ${id}: ${reading.answer} (${+reading.probability.toFixed(2)})`);
  return [`**${decision.key}**${by} · ${ended}`, ...answers].join("\n");
}

type OperationKind = Exclude<MetKind, "turn">;
type MetOperation = MetOf<OperationKind>;

function operationMarkdown(met: MetOperation): string {
  switch (met.kind) {
    case "compaction":
      return compactionMarkdown(met.compaction, met.passed);
    case "wake":
      return wakeMarkdown(met.message, met.passed);
    case "event":
      return eventMarkdown(met.event, met.refused, met.passed);
    case "participant":
      return participantMarkdown(met.call);
    case "decision":
      return decisionMarkdown(met.decision, met.passed);
    default:
      return met satisfies never;
  }
}

/** Everything but turns one script met, a block each, naming the test when several tests met it. */
function operationsMarkdown(kind: OperationKind, met: MetOperation[]): string {
  const tests = new Set(met.map((one) => one.test));
  const header = `Turnlens · **${scriptHint(kind, met, Number.POSITIVE_INFINITY)}**`;
  const blocks = met.map((one) => (tests.size > 1 ? `${operationMarkdown(one)}\n\n*in test ${code(one.test)}*` : operationMarkdown(one)));
  return [header, ...blocks].join("\n\n---\n\n");
}

/** The hover of one script: what it met, of the view's kind. */
export function scriptMarkdown(view: ScriptView): string {
  if (view.kind === "turn") return turnsMarkdown(metOf(view.met, "turn"));
  const kind = view.kind;
  return operationsMarkdown(
    kind,
    view.met.filter((one): one is MetOperation => one.kind === kind),
  );
}

/** What a list's unit is called, by its option: turns for `agents`, wakes for `messages`. */
const UNIT: Record<string, string> = { agents: "turn", messages: "message", compactions: "compaction" };

/**
 * The hover of an entry never reached: one line that answers why (how many turns the agent was
 * asked, how many entries its list has), then what the list did meet: `Turn 1 met entry 1 (line 9).`
 */
export function neverReachedMarkdown(never: NeverReachedView, scripts: readonly ScriptView[]): string {
  const { problem } = never;
  const agent = problem.agent ?? problem.key ?? "the agent";
  const option = problem.option ?? "agents";
  const unit = UNIT[option] ?? option.replace(/s$/, "");
  const asked = typeof problem.index === "number" ? problem.index : 0;
  const how = option === "messages" ? `was woken by ${plural(asked, unit)}` : `was asked ${plural(asked, unit)}`;
  const lines = [`**Never reached**: ${agent} ${how}, and its script has ${never.entries} ${never.entries === 1 ? "entry" : "entries"}.`];
  if (option === "agents") {
    const met = scripts
      .flatMap((view) => metOf(view.met, "turn").map((one) => ({ one, line: view.line })))
      .filter(({ one }) => one.test === never.test && one.turn.agent === agent && !one.turn.nudge)
      .sort((left, right) => left.one.turn.n - right.one.turn.n)
      .map(({ one, line }) => `turn ${one.turn.n} met entry ${(one.turn.match?.index ?? 0) + 1} (line ${line + 1})`);
    if (met.length > 0) lines.push("", `${met.join(", ").replace(/^t/, "T")}.`);
  }
  lines.push("", `*in test ${code(never.test)}*`);
  return lines.join("\n");
}
