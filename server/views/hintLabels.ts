// How what a script met reads in an inlay hint, in words a newcomer reads without the docs, `✗` only
// for what went wrong in a failing test: `reader · turn 1 answered`, `writer · turn 1 ✗ cancelled`,
// `writer · compaction 1 answered "Plan: …"`, `planner · woken by reviewer: replied`,
// `sent during investigator's turn 1`, `coordinator: message from investigator → {"id":"…"}`,
// `triage-1 · answered team: payments (0.95) and 2 more`; counts as `in 2 tests`, `2 times`.

import type { DecisionTrace, ParticipantEventTrace } from "../../core/testing/trace.ts";
import { metOf, type EventTrace, type Met, type MetKind, type MetOf } from "./scriptViews.ts";
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

/** `compaction 1`, or `compactions 1–3` for several numbers. */
function numbered(unit: string, all: number[]): string {
  const low = Math.min(...all);
  const high = Math.max(...all);
  return high > low ? `${unit}s ${low}–${high}` : `${unit} ${low}`;
}

/**
 * One result in words, `✗ ` before it only when it went wrong in a test that failed: a timed-out
 * compaction or a rejected decision a passing test expected (`rejects.toThrow`) is no failure.
 */
function marked(words: string, ok: boolean, passed: boolean): string {
  return ok || passed ? words : `✗ ${words}`;
}

/** What happened, in the order it happened, each once, at most three: `replied, then ✗ failed`. */
function sequence(words: string[]): string {
  const distinct = [...new Set(words)];
  return distinct.length <= 3 ? distinct.join(", then ") : `${distinct.slice(0, 3).join(", then ")}, …`;
}

/** How many tests met it, as words: ` in 2 tests`, or `` for one. */
function inTests(met: ReadonlyArray<{ test: string }>): string {
  const tests = new Set(met.map((one) => one.test)).size;
  return tests > 1 ? ` in ${tests} tests` : "";
}

/** `what`, then `: ` before the results when a count or several results come between, else a space. */
function joined(what: string, where: string, results: string[], counted = false): string {
  const separator = counted || where !== "" || new Set(results).size > 1 ? ": " : " ";
  return `${what}${where}${separator}${sequence(results)}`;
}

/**
 * `writer · compaction 1 answered "Plan: …"` (its summary when one answered),
 * `writer · compaction 1 ✗ timed out`, `writer · compactions 1–2 in 2 tests: answered`.
 */
export function compactionHint(met: Array<MetOf<"compaction">>): string {
  const compactions = met.map((one) => one.compaction);
  const who = names(compactions.map((compaction) => compaction.agent).sort());
  const what = `${who} · ${numbered(
    "compaction",
    compactions.map((compaction) => compaction.n),
  )}`;
  const results = met.map(({ compaction, passed }) => marked(outcomeWords[compaction.outcome] ?? compaction.outcome, compaction.outcome === "answered", passed));
  const first = compactions[0]!;
  if (met.length === 1) return first.outcome === "answered" && first.answer ? `${what} answered "${cut(first.answer, 24)}"` : `${what} ${results[0]}`;
  // Several `testWorkflow` runs in one test compact the same numbers again: `in 2 runs`.
  const asked = new Map<string, number>();
  for (const { agent, n } of compactions) asked.set(`${agent} ${n}`, (asked.get(`${agent} ${n}`) ?? 0) + 1);
  const runs = Math.max(...asked.values());
  const where = inTests(met) || (runs > 1 ? ` in ${runs} runs` : "");
  return joined(what, where, results);
}

/** A message's end in words: a reply or a delivery went well; `pending` went neither way. */
const endWords: Record<string, string> = { replied: "replied", delivered: "delivered", pending: "still pending", failed: "failed", undelivered: "undelivered" };

function endWentWell(end: string): boolean {
  return end === "replied" || end === "delivered" || end === "pending";
}

/** The mark the hover's detail puts before a message's end. */
export function endMark(end: string): string {
  if (end === "replied" || end === "delivered") return `✓ ${end}`;
  return end === "pending" ? "still pending" : `✗ ${end}`;
}

/** `planner · woken by reviewer: replied`; `planner · woken 2 times by reviewer, lead: replied, then ✗ failed`. */
export function wakeHint(met: Array<MetOf<"wake">>): string {
  const messages = met.map((one) => one.message);
  const results = met.map(({ message, passed }) => marked(endWords[message.end] ?? message.end, endWentWell(message.end), passed));
  const woken = `${names(messages.map((message) => message.to).sort())} · woken`;
  const by = ` by ${names(messages.map((message) => message.from).sort())}`;
  if (met.length === 1) return `${woken}${by}: ${results[0]}`;
  const where = inTests(met);
  return joined(where !== "" ? `${woken}${by}` : `${woken} ${met.length} times${by}`, where, results, true);
}

/** `during investigator's turn 1`: the turn a scripted event was due in. */
function eventTurn(event: EventTrace): string {
  return `${event.when} ${event.agent}'s turn ${event.n}`;
}

/**
 * One element of `events` over the runs that had it: `sent during investigator's turn 1`,
 * `sent in 1 of 2 runs, during investigator's turn 1`, `✗ never sent (due during investigator's turn 5)`, `✗ refused`.
 */
export function eventHint(met: Array<MetOf<"event">>): string {
  const first = met[0]!.event;
  const passed = met.every((one) => one.passed);
  const sent = met.filter(({ event }) => event.sent).length;
  if (sent === met.length) return `sent ${eventTurn(first)}${inTests(met)}`;
  if (sent > 0) return `sent in ${sent} of ${met.length} runs, ${eventTurn(first)}`;
  if (met.every(({ refused }) => refused)) return marked("refused", false, passed);
  return marked(`never sent (due ${eventTurn(first)})`, false, passed);
}

function participantCall(call: ParticipantEventTrace): string {
  const what = call.kind === "route" ? `route with ${call.agent}` : `message from ${call.from}`;
  return call.returned === undefined ? what : `${what} → ${cut(JSON.stringify(call.returned), 30)}`;
}

/** `coordinator: route with investigator`; `coordinator · 2 calls: route with investigator, message from …`. */
export function participantHint(met: Array<MetOf<"participant">>): string {
  const calls = met.map((one) => one.call);
  const who = names(calls.map((call) => call.participant));
  if (calls.length === 1) return `${who}: ${participantCall(calls[0]!)}`;
  const shown = calls.slice(0, 2).map(participantCall).join(", ");
  return `${who} · ${calls.length} calls: ${shown}${calls.length > 2 ? ", …" : ""}`;
}

/** A decision that was not answered, in words: `rejected: <its Error's message>`, or `not answered`. */
function decisionFailure(decision: DecisionTrace): string {
  return decision.error !== undefined ? `rejected: ${cut(decision.error, 40)}` : "not answered";
}

/**
 * `triage-1 · answered team: payments (0.95) and 2 more`, `triage-1 · ✗ rejected: no route`,
 * `triage-1, triage-2 · asked 3 times: answered, then ✗ not answered`.
 */
export function decisionHint(met: Array<MetOf<"decision">>): string {
  const decisions = met.map((one) => one.decision);
  const results = met.map(({ decision, passed }) => (decision.answered ? "answered" : marked(decisionFailure(decision), false, passed)));
  const who = names(decisions.map((decision) => decision.key));
  const first = decisions[0]!;
  if (decisions.length === 1) {
    const answers = Object.entries(first.answers ?? {});
    if (!first.answered || answers.length === 0) return `${who} · ${results[0]}`;
    const [id, reading] = answers[0]!;
    const more = answers.length > 1 ? ` and ${answers.length - 1} more` : "";
    return `${who} · answered ${id}: ${reading.answer} (${+reading.probability.toFixed(2)})${more}`;
  }
  const where = inTests(met);
  return joined(where !== "" ? `${who} · asked` : `${who} · asked ${decisions.length} times`, where, results, true);
}

/** The hint of everything of one kind met on a line. */
export function scriptHint(kind: MetKind, met: readonly Met[]): string {
  switch (kind) {
    case "turn":
      return turnHint(metOf(met, "turn"));
    case "compaction":
      return compactionHint(metOf(met, "compaction"));
    case "wake":
      return wakeHint(metOf(met, "wake"));
    case "event":
      return eventHint(metOf(met, "event"));
    case "participant":
      return participantHint(metOf(met, "participant"));
    case "decision":
      return decisionHint(metOf(met, "decision"));
    default:
      return kind satisfies never;
  }
}
