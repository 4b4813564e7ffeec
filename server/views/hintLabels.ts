// How what a script met reads in an inlay hint, whole within VS Code's default 43 characters, in the
// words of the one table (core/testing/outcomeWords.ts), `✗` only for what went wrong in a failing
// test: `reader · turn 1 answered`, `writer · turn 1 ✗ refused`, `verifier-* · turn 1 in 3 tests: answered`,
// `writer · compaction 1 answered "Plan: …"`, `planner · woken by reviewer: replied`,
// `sent during investigator's turn 1`, `triage-1 · answered team: payments (0.95)`.

import type { DecisionTrace, ParticipantEventTrace } from "../../core/testing/trace.ts";
import { endedAs, hintWords, markedWords, turnEnd, type DecisionEnd, type EventEnd } from "../../core/testing/outcomeWords.ts";
import { metOf, type EventTrace, type Met, type MetKind, type MetOf } from "./scriptViews.ts";
import { cut } from "./markdownText.ts";
import { HINT_WIDTH } from "../limits.ts";

/**
 * The first of `candidates` that reads whole within HINT_WIDTH, from the fullest to the shortest:
 * the outcome is kept, the detail (the other tests, a summary, a reason) left to the hover.
 */
function fitted(width: number, ...candidates: string[]): string {
  const whole = candidates.find((candidate) => candidate.length <= width);
  return whole ?? cut(candidates.at(-1)!, width - 1);
}

/** One call of `agent.run` as a hint counts it: a nudge belongs to the turn it followed. */
interface MetCall {
  agent: string;
  /** The glob whose script met the agent (`verifier-*`), if one did. */
  pattern: string | undefined;
  n: number;
  end: string;
  test: string;
  passed: boolean;
  scripted: boolean;
}

function callsOf(turns: Array<MetOf<"turn">>): MetCall[] {
  const calls: MetCall[] = [];
  for (const { turn, test, passed, scripted } of turns) {
    const last = calls.at(-1);
    if (turn.nudge && last && last.agent === turn.agent && last.n === turn.n && last.test === test) {
      last.end = turnEnd(turn);
      last.scripted = scripted;
    } else calls.push({ agent: turn.agent, pattern: turn.match?.pattern, n: turn.n, end: turnEnd(turn), test, passed, scripted });
  }
  return calls;
}

/** What one call ended as, in the table's words (outcomeWords.ts): `answered`, `no answer, as scripted`, `✗ refused`. */
function callWords(call: MetCall): string {
  return hintWords(endedAs("turn", call.end, { scripted: call.scripted, passed: call.passed }));
}

/** `turn 1`, or `turns 1–3` for several numbers. */
function turnNumbers(all: number[]): string {
  const low = Math.min(...all);
  const high = Math.max(...all);
  return high > low ? `turns ${low}–${high}` : `turn ${low}`;
}

/**
 * Who a hint names: one agent by name; agents a glob's script met by the glob (`verifier-*`), never
 * a list cut short; two by name; more as a count (`4 agents`).
 */
function agentsNamed(agents: string[], patterns: Array<string | undefined>): string {
  const distinct = [...new Set(agents)].sort();
  if (distinct.length === 1) return distinct[0]!;
  const globs = new Set(patterns);
  if (globs.size === 1 && patterns[0] !== undefined) return patterns[0];
  return distinct.length === 2 ? distinct.join(", ") : `${distinct.length} agents`;
}

/** What happened, in the order it happened, each once: `answered, then no answer, as scripted`; several as a count. */
function sequence(words: string[]): string[] {
  const distinct = [...new Set(words)];
  if (distinct.length === 1) return distinct;
  const failures = distinct.filter((one) => one.startsWith("✗ ")).length;
  const count = `${distinct.length} outcomes${failures ? `, ${failures} ✗` : ""}`;
  return [distinct.join(", then "), `${distinct[0]}, then ${distinct.length - 1} more`, count];
}

/**
 * How an entry's turns read in a hint, whole within HINT_WIDTH: `reader · turn 1 answered`,
 * `writer · turn 1 ✗ refused`, `verifier-* · turn 1 in 3 tests: answered`,
 * `lead · turns 1–2: answered, then no answer, as scripted`. What happened in the order it
 * happened, each outcome once; the nudge, the reason and each test's turn are the hover's.
 */
export function turnHint(turns: Array<MetOf<"turn">>, width = HINT_WIDTH): string {
  const calls = callsOf(turns);
  const who = agentsNamed(
    calls.map((call) => call.agent),
    calls.map((call) => call.pattern),
  );
  const tests = new Set(calls.map((call) => call.test)).size;
  // Several `testWorkflow` runs in one test each ask the same turns: `in 3 runs`.
  const asked = new Map<string, number>();
  for (const call of calls) asked.set(`${call.agent} ${call.n}`, (asked.get(`${call.agent} ${call.n}`) ?? 0) + 1);
  const runs = Math.max(...asked.values());
  const where = tests > 1 ? ` in ${tests} tests` : runs > 1 ? ` in ${runs} runs` : "";
  const numbers = turnNumbers(calls.map((call) => call.n));
  const whats = sequence(calls.map(callWords));
  const candidates = whats.flatMap((what) => {
    const single = where === "" && what === whats[0] && whats.length === 1;
    return [single ? `${who} · ${numbers} ${what}` : `${who} · ${numbers}${where}: ${what}`, `${who} · ${numbers}: ${what}`, `${who}: ${what}`];
  });
  return fitted(width, ...candidates, whats.at(-1)!);
}

/** At most two names, then a count. */
function names(all: string[], unit: string): string {
  const distinct = [...new Set(all)];
  return distinct.length <= 2 ? distinct.join(", ") : `${distinct.length} ${unit}s`;
}

/** `compaction 1`, or `compactions 1–3` for several numbers. */
function numbered(unit: string, all: number[]): string {
  const low = Math.min(...all);
  const high = Math.max(...all);
  return high > low ? `${unit}s ${low}–${high}` : `${unit} ${low}`;
}

/** How many tests met it, as words: ` in 2 tests`, or `` for one. */
function inTests(met: ReadonlyArray<{ test: string }>): string {
  const tests = new Set(met.map((one) => one.test)).size;
  return tests > 1 ? ` in ${tests} tests` : "";
}

/**
 * `what`, then `: ` before the results when a count or several results come between, else a space.
 * `whats` are ways to say what, fullest first: the fullest outcome comes before the fullest who.
 */
function joined(width: number, whats: string[], where: string, results: string[], counted = false): string {
  const shown = sequence(results);
  const candidates = shown.flatMap((outcome) =>
    whats.flatMap((what, index) => {
      const separator = counted || (index === 0 && where !== "") || shown.length > 1 ? ": " : " ";
      return index === 0 && where !== "" ? [`${what}${where}${separator}${outcome}`, `${what}${separator}${outcome}`] : [`${what}${separator}${outcome}`];
    }),
  );
  return fitted(width, ...candidates, shown.at(-1)!);
}

/**
 * `writer · compaction 1 answered "Plan: …"` (its summary, cut to what the width leaves),
 * `writer · compaction 1 ✗ timed out`, `writer · compactions 1–2 in 2 tests: answered`.
 */
export function compactionHint(met: Array<MetOf<"compaction">>, width = HINT_WIDTH): string {
  const compactions = met.map((one) => one.compaction);
  const who = names(compactions.map((compaction) => compaction.agent).sort(), "agent");
  const what = `${who} · ${numbered(
    "compaction",
    compactions.map((compaction) => compaction.n),
  )}`;
  const results = met.map(({ compaction, passed }) => hintWords(endedAs("turn", turnEnd(compaction), { scripted: compaction.scripted === true, passed })));
  const first = compactions[0]!;
  if (met.length === 1) {
    if (first.outcome !== "answered" || !first.answer) return fitted(width, `${what} ${results[0]}`, results[0]!);
    const room = Math.min(width, 200) - `${what} answered ""`.length - 1;
    return fitted(width, room >= 8 ? `${what} answered "${cut(first.answer, room)}"` : "", `${what} answered`, "answered");
  }
  // Several `testWorkflow` runs in one test compact the same numbers again: `in 2 runs`.
  const asked = new Map<string, number>();
  for (const { agent, n } of compactions) asked.set(`${agent} ${n}`, (asked.get(`${agent} ${n}`) ?? 0) + 1);
  const runs = Math.max(...asked.values());
  const where = inTests(met) || (runs > 1 ? ` in ${runs} runs` : "");
  return joined(width, [what, who], where, results);
}

/** The hover's mark and words for a message's end. */
export function endMark(end: string, passed?: boolean): string {
  return markedWords(endedAs("message", end, passed === undefined ? {} : { passed }));
}

/** `planner · woken by reviewer: replied`; `planner · woken 2 times by reviewer, lead: replied, then ✗ failed`. */
export function wakeHint(met: Array<MetOf<"wake">>, width = HINT_WIDTH): string {
  const messages = met.map((one) => one.message);
  const results = met.map(({ message, passed }) => hintWords(endedAs("message", message.end, { passed })));
  const woken = `${names(messages.map((message) => message.to).sort(), "agent")} · woken`;
  const by = ` by ${names(messages.map((message) => message.from).sort(), "sender")}`;
  if (met.length === 1) return fitted(width, `${woken}${by}: ${results[0]}`, `${woken}: ${results[0]}`, results[0]!);
  const where = inTests(met);
  const times = where !== "" ? "" : ` ${met.length} times`;
  return joined(width, [`${woken}${times}${by}`, `${woken}${times}`, `${woken}`], where, results, true);
}

/** `during investigator's turn 1`: the turn a scripted event was due in. */
function eventTurn(event: EventTrace): string {
  return `${event.when} ${event.agent}'s turn ${event.n}`;
}

/**
 * One element of `events` over the runs that had it: `sent during investigator's turn 1`,
 * `sent in 1 of 2 runs, during investigator's turn 1`, `✗ never sent (due during investigator's turn 5)`, `✗ refused`.
 */
export function eventHint(met: Array<MetOf<"event">>, width = HINT_WIDTH): string {
  const first = met[0]!.event;
  const passed = met.every((one) => one.passed);
  const sent = met.filter(({ event }) => event.sent).length;
  const words = (end: EventEnd) => hintWords(endedAs("event", end, { passed }));
  if (sent === met.length) return fitted(width, `${words("sent")} ${eventTurn(first)}${inTests(met)}`, `${words("sent")} ${eventTurn(first)}`, words("sent"));
  if (sent > 0) return fitted(width, `${words("sent")} in ${sent} of ${met.length} runs, ${eventTurn(first)}`, `${words("sent")} in ${sent} of ${met.length} runs`);
  if (met.every(({ refused }) => refused)) return words("refused");
  return fitted(width, `${words("never-sent")} (due ${eventTurn(first)})`, words("never-sent"));
}

function participantCall(call: ParticipantEventTrace, width: number): string {
  const what = call.kind === "route" ? `route with ${call.agent}` : `message from ${call.from}`;
  return call.returned === undefined || width < 8 ? what : `${what} → ${cut(JSON.stringify(call.returned), width)}`;
}

/** `coordinator: route with investigator`; `coordinator · 2 calls: route with investigator, …`. */
export function participantHint(met: Array<MetOf<"participant">>, width = HINT_WIDTH): string {
  const calls = met.map((one) => one.call);
  const who = names(
    calls.map((call) => call.participant),
    "participant",
  );
  if (calls.length === 1) {
    const plain = `${who}: ${participantCall({ ...calls[0]!, returned: undefined }, 0)}`;
    return fitted(width, `${who}: ${participantCall(calls[0]!, Math.min(width, 200) - plain.length - 4)}`, plain);
  }
  const shown = calls
    .slice(0, 2)
    .map((call) => participantCall(call, 30))
    .join(", ");
  return fitted(
    width,
    `${who} · ${calls.length} calls: ${shown}${calls.length > 2 ? ", …" : ""}`,
    `${who} · ${calls.length} calls: ${participantCall({ ...calls[0]!, returned: undefined }, 0)}, …`,
    `${who} · ${calls.length} calls`,
  );
}

/** How a decision ended, as the table names it. */
function decisionEnd(decision: DecisionTrace): DecisionEnd {
  return decision.answered ? "answered" : decision.error !== undefined ? "rejected" : "not-answered";
}

/**
 * `triage-1 · answered team: payments (0.95) and 2 more`, `triage-1 · ✗ rejected: no route`,
 * `triage-1, triage-2 · asked 3 times: answered, then ✗ not answered`.
 */
export function decisionHint(met: Array<MetOf<"decision">>, width = HINT_WIDTH): string {
  const decisions = met.map((one) => one.decision);
  const results = met.map(({ decision, passed }) => hintWords(endedAs("decision", decisionEnd(decision), { passed })));
  const who = names(
    decisions.map((decision) => decision.key),
    "decision",
  );
  const first = decisions[0]!;
  if (decisions.length === 1) {
    const answers = Object.entries(first.answers ?? {});
    if (first.error !== undefined && !first.answered) return fitted(width, `${who} · ${results[0]}: ${first.error}`, `${who} · ${results[0]}`, results[0]!);
    if (!first.answered || answers.length === 0) return fitted(width, `${who} · ${results[0]}`, results[0]!);
    const [id, reading] = answers[0]!;
    const more = answers.length > 1 ? ` and ${answers.length - 1} more` : "";
    return fitted(
      width,
      `${who} · ${results[0]} ${id}: ${reading.answer} (${+reading.probability.toFixed(2)})${more}`,
      `${who} · ${results[0]} ${id}: ${reading.answer}${more}`,
      answers.length > 1 ? `${who} · ${results[0]} ${answers.length} questions` : `${who} · ${results[0]} ${id}`,
      `${who} · ${results[0]}`,
      results[0]!,
    );
  }
  const where = inTests(met);
  const times = where !== "" ? "" : ` ${decisions.length} times`;
  return joined(width, [`${who} · asked${times}`, `${who} · asked`, `${decisions.length} decisions`], where, results, true);
}

/** The hint of everything of one kind met on a line; `width` unbounded for the hover's first line, which says it in full. */
export function scriptHint(kind: MetKind, met: readonly Met[], width = HINT_WIDTH): string {
  switch (kind) {
    case "turn":
      return turnHint(metOf(met, "turn"), width);
    case "compaction":
      return compactionHint(metOf(met, "compaction"), width);
    case "wake":
      return wakeHint(metOf(met, "wake"), width);
    case "event":
      return eventHint(metOf(met, "event"), width);
    case "participant":
      return participantHint(metOf(met, "participant"), width);
    case "decision":
      return decisionHint(metOf(met, "decision"), width);
    default:
      return kind satisfies never;
  }
}
