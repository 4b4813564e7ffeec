// The hover of a script that met something besides turns: each compaction with its focus and
// summary, each wake with the message that caused it and how it ended, each run's sending of an
// event, each call of a participant's script and what it returned, each decision's answers.

import type { CompactionTrace, DecisionTrace, MessageTrace, ParticipantEventTrace } from "../../core/testing/trace.ts";
import type { EventTrace, MetOperation } from "../operationViews.ts";
import { code, cut, plural, quoteLines } from "./markdownText.ts";
import { endMark } from "./operationHints.ts";

export function compactionMarkdown(compaction: CompactionTrace): string {
  const lines = [`**${compaction.agent}** compaction ${compaction.n} · ${compaction.outcome === "answered" ? "✓ answered" : `✗ ${compaction.outcome}`}`, ...quoteLines(compaction.focus)];
  if (compaction.answer !== undefined) lines.push("", `Summary: ${code(cut(compaction.answer, 300))}`);
  if (compaction.reason) lines.push("", `Reason: ${cut(compaction.reason, 300)}`);
  return lines.join("\n");
}

export function wakeMarkdown(message: MessageTrace): string {
  const lines = [`**${message.to}** woken by **${message.from}** · ${endMark(message.end)}`, ...quoteLines(message.text)];
  if (message.awaitReply) lines.push("", "It awaited a reply.");
  if (message.reason) lines.push("", `Reason: ${cut(message.reason, 300)}`);
  return lines.join("\n");
}

export function eventMarkdown(event: EventTrace, refused: boolean): string {
  const turn = `${event.when} ${event.agent}#${event.n}`;
  const head = [`**${event.name}**`, event.sent ? `✓ sent ${turn}` : refused ? `✗ refused (${turn})` : `✗ never sent (${turn})`, `id ${code(event.eventId)}`];
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

export function decisionMarkdown(decision: DecisionTrace): string {
  const by = decision.match?.pattern ? ` · by ${code(decision.match.pattern)}` : "";
  if (!decision.answered) {
    return `**${decision.key}**${by} · ✗ ${decision.error !== undefined ? `Error: ${cut(decision.error, 300)}` : "not answered"}`;
  }
  const answers = Object.entries(decision.answers ?? {}).map(([id, reading]) => `- ${id}: ${reading.answer} (${+reading.probability.toFixed(2)})`);
  return [`**${decision.key}**${by} · ✓ answered`, ...answers].join("\n");
}

const NOUN: Record<MetOperation["kind"], string> = {
  compaction: "compaction",
  wake: "wake",
  event: "run",
  participant: "call",
  decision: "decision",
};

function operationMarkdown(met: MetOperation): string {
  switch (met.kind) {
    case "compaction":
      return compactionMarkdown(met.compaction);
    case "wake":
      return wakeMarkdown(met.message);
    case "event":
      return eventMarkdown(met.event, met.refused);
    case "participant":
      return participantMarkdown(met.call);
    case "decision":
      return decisionMarkdown(met.decision);
  }
}

/** Everything one script met, a block each, naming the test when several tests met it. */
export function operationsMarkdown(met: MetOperation[]): string {
  const kind = met[0]!.kind;
  const tests = new Set(met.map((one) => one.test));
  const header = kind === "event" ? `Turnlens · scripted event, in ${plural(met.length, NOUN[kind])}` : `Turnlens · ${plural(met.length, NOUN[kind])}`;
  const blocks = met.map((one) => (tests.size > 1 ? `${operationMarkdown(one)}\n\n*in test ${code(one.test)}*` : operationMarkdown(one)));
  return [header, ...blocks].join("\n\n---\n\n");
}
