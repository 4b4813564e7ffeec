// How what a script met reads in an inlay hint: `reader · turn 1 answered`, `writer · turn 1 ✗ cancelled`,
// `writer compaction #1 ✓ "Plan: …"`, `planner woken by reviewer ✓ replied`, `sent during investigator#1`,
// `coordinator: message from investigator → {"id":"…"}`, `triage-1 → team: payments (0.95) +2`.

import type { CompactionTrace, DecisionTrace, MessageTrace, ParticipantEventTrace } from "../../core/testing/trace.ts";
import { metOf, type EventTrace, type Met, type MetKind, type MetOf } from "../scriptViews.ts";
import { cut } from "./markdownText.ts";

/** One call of `agent.run` as a hint counts it: a nudge belongs to the turn it followed. */
interface MetCall {
  agent: string;
  n: number;
  outcome: string;
  nudged: boolean;
  test: string;
  passed: boolean;
  scripted: boolean;
}

function callsOf(turns: Array<MetOf<"turn">>): MetCall[] {
  const calls: MetCall[] = [];
  for (const { turn, test, passed, scripted } of turns) {
    const last = calls.at(-1);
    if (turn.nudge && last && last.agent === turn.agent && last.n === turn.n && last.test === test) {
      last.outcome = turn.outcome;
      last.nudged = true;
      last.scripted = scripted;
    } else calls.push({ agent: turn.agent, n: turn.n, outcome: turn.outcome, nudged: turn.nudge, test, passed, scripted });
  }
  return calls;
}

/** A turn's outcome in words (the core's kinds are identifiers, not prose). */
const outcomeWords: Record<string, string> = {
  answered: "answered",
  unanswered: "no answer",
  blocked: "blocked",
  failed: "failed",
  "timed-out": "timed out",
  cancelled: "cancelled",
  waiting: "still waiting",
  "awaiting-reply": "awaiting a reply",
};

/**
 * What one call ended as: `answered`, `no answer (as scripted)` when a `noAnswer.…()` entry met it,
 * `✗ cancelled` only when it did not answer, no entry scripted that, and its test failed: ✗ means failure.
 */
function callWords(call: MetCall): string {
  const words = `${outcomeWords[call.outcome] ?? call.outcome}${call.nudged ? " after a nudge" : ""}`;
  if (call.outcome === "answered") return words;
  if (call.scripted) return `${words} (as scripted)`;
  return call.passed ? words : `✗ ${words}`;
}

/** `turn 1`, or `turns 1–3` for several numbers. */
function turnNumbers(all: number[]): string {
  const low = Math.min(...all);
  const high = Math.max(...all);
  return high > low ? `turns ${low}–${high}` : `turn ${low}`;
}

/**
 * How an entry's turns read in a hint: `reader · turn 1 answered`, `writer · turn 1 ✗ cancelled`,
 * `lead · turns 1–2 in 2 tests: answered, then no answer (as scripted)`. Agents by name (a stable
 * order whatever order the runs finished in), at most three; what happened in the order it happened,
 * each outcome once.
 */
export function turnHint(turns: Array<MetOf<"turn">>): string {
  const calls = callsOf(turns);
  const agents = [...new Set(calls.map((call) => call.agent))].sort();
  const who = agents.length <= 3 ? agents.join(", ") : `${agents.slice(0, 3).join(", ")}, …`;
  const tests = new Set(calls.map((call) => call.test)).size;
  // Several `testWorkflow` runs in one test each ask the same turns: `in 3 runs`.
  const asked = new Map<string, number>();
  for (const call of calls) asked.set(`${call.agent} ${call.n}`, (asked.get(`${call.agent} ${call.n}`) ?? 0) + 1);
  const runs = Math.max(...asked.values());
  const where = tests > 1 ? ` in ${tests} tests` : runs > 1 ? ` in ${runs} runs` : "";
  const words = [...new Set(calls.map(callWords))];
  const what = words.length <= 3 ? words.join(", then ") : `${words.slice(0, 3).join(", then ")}, …`;
  const separator = where !== "" || words.length > 1 ? ": " : " ";
  return `${who} · ${turnNumbers(calls.map((call) => call.n))}${where}${separator}${what}`;
}

/** At most three names, then `…`. */
function names(all: string[]): string {
  const distinct = [...new Set(all)];
  return distinct.length <= 3 ? distinct.join(", ") : `${distinct.slice(0, 3).join(", ")}, …`;
}

/** `#1`, or `#1–3` for a range of numbers. */
function numbers(all: number[]): string {
  const low = Math.min(...all);
  const high = Math.max(...all);
  return high > low ? `#${low}–${high}` : `#${low}`;
}

/** `✓` when everything went well, `✗ why` when nothing did, else `2 ✓ 1 ✗ why` (the last failure's why). */
function marks(results: Array<{ ok: boolean; failure: string }>): string {
  const failed = results.filter((result) => !result.ok);
  if (failed.length === 0) return "✓";
  const last = `✗ ${failed.at(-1)!.failure}`.trimEnd();
  return failed.length === results.length ? last : `${results.length - failed.length} ✓ ${failed.length} ${last}`;
}

export function compactionHint(compactions: CompactionTrace[]): string {
  const first = compactions[0]!;
  if (compactions.length === 1) {
    const summary = first.outcome === "answered" && first.answer ? ` "${cut(first.answer, 24)}"` : "";
    return `${first.agent} compaction #${first.n} ${first.outcome === "answered" ? "✓" : `✗ ${first.outcome}`}${summary}`;
  }
  const agents = compactions.map((compaction) => compaction.agent);
  const who = new Set(agents).size === 1 ? `${first.agent} compactions ${numbers(compactions.map((compaction) => compaction.n))}` : `${names(agents)} compactions`;
  return `${who} ×${compactions.length} ${marks(compactions.map((compaction) => ({ ok: compaction.outcome === "answered", failure: compaction.outcome })))}`;
}

/** A message's end as a mark: a reply or a delivery went well; `pending` is neither. */
export function endMark(end: string): string {
  if (end === "replied" || end === "delivered") return `✓ ${end}`;
  return end === "pending" ? "… pending" : `✗ ${end}`;
}

export function wakeHint(messages: MessageTrace[]): string {
  const first = messages[0]!;
  if (messages.length === 1) return `${first.to} woken by ${first.from} ${endMark(first.end)}`;
  const ends = new Set(messages.map((message) => message.end));
  const mark =
    ends.size === 1 ? endMark(first.end) : marks(messages.map((message) => ({ ok: message.end === "replied" || message.end === "delivered", failure: message.end })));
  return `${names(messages.map((message) => message.to))} woken ×${messages.length} by ${names(messages.map((message) => message.from))} ${mark}`;
}

/** One element of `events` over the runs that had it: `sent during investigator#1`, `never sent`, `refused`. */
export function eventHint(events: Array<{ event: EventTrace; refused: boolean }>): string {
  const first = events[0]!.event;
  const turn = `${first.when} ${first.agent}#${first.n}`;
  const sent = events.filter(({ event }) => event.sent).length;
  if (sent === events.length) return `sent ${turn}`;
  if (sent > 0) return `sent in ${sent} of ${events.length} runs, ${turn}`;
  return events.every(({ refused }) => refused) ? "refused" : "never sent";
}

function participantCall(call: ParticipantEventTrace): string {
  const what = call.kind === "route" ? `route with ${call.agent}` : `message from ${call.from}`;
  return call.returned === undefined ? what : `${what} → ${cut(JSON.stringify(call.returned), 30)}`;
}

export function participantHint(calls: ParticipantEventTrace[]): string {
  const who = names(calls.map((call) => call.participant));
  if (calls.length === 1) return `${who}: ${participantCall(calls[0]!)}`;
  const shown = calls.slice(0, 2).map(participantCall).join(", ");
  return `${who} ×${calls.length}: ${shown}${calls.length > 2 ? ", …" : ""}`;
}

function decisionFailure(decision: DecisionTrace): string {
  return decision.error !== undefined ? cut(decision.error, 40) : "not answered";
}

export function decisionHint(decisions: DecisionTrace[]): string {
  const first = decisions[0]!;
  if (decisions.length === 1) {
    const answers = Object.entries(first.answers ?? {});
    if (!first.answered || answers.length === 0) return `${first.key} ✗ ${decisionFailure(first)}`;
    const [id, reading] = answers[0]!;
    const more = answers.length > 1 ? ` +${answers.length - 1}` : "";
    return `${first.key} → ${id}: ${reading.answer} (${+reading.probability.toFixed(2)})${more}`;
  }
  const results = decisions.map((decision) => ({ ok: decision.answered, failure: decisionFailure(decision) }));
  return `${names(decisions.map((decision) => decision.key))} ×${decisions.length} ${marks(results)}`;
}

/** The hint of everything of one kind met on a line. */
export function scriptHint(kind: MetKind, met: readonly Met[]): string {
  switch (kind) {
    case "turn":
      return turnHint(metOf(met, "turn"));
    case "compaction":
      return compactionHint(metOf(met, "compaction").map((one) => one.compaction));
    case "wake":
      return wakeHint(metOf(met, "wake").map((one) => one.message));
    case "event":
      return eventHint(metOf(met, "event"));
    case "participant":
      return participantHint(metOf(met, "participant").map((one) => one.call));
    case "decision":
      return decisionHint(metOf(met, "decision").map((one) => one.decision));
  }
}
