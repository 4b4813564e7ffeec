// The one table of how what a turn, a compaction, a message, a decision or a scripted event ended
// as reads, and the mark and tone it is drawn with: the editor's hint, hover, transcript and
// timeline, the workflow file's hints, the agent reporter and the CLI all take their words from here.

import type { OutcomeKind } from "../workflow/types.ts";

/**
 * How a turn or a compaction ended, as the views tell it: the engine's outcome kinds, the states of
 * one not ended yet, and `refused` for one whose script's answer the turn refused (its schema, or
 * an answer of the wrong type), which the engine records as `cancelled` when the test fails on it.
 */
export type TurnEnd = OutcomeKind | "waiting" | "awaiting-reply" | "refused";
/** How a message ended (`MessageRecord.end`). */
export type MessageEnd = "replied" | "delivered" | "pending" | "failed" | "undelivered";
/** How a `wf.decide` ended: answered, rejected by its script's Error, or given no answers. */
export type DecisionEnd = "answered" | "rejected" | "not-answered";
/** How a scripted event ended: sent, never sent (its turn never came), or its data refused. */
export type EventEnd = "sent" | "never-sent" | "refused";

/** Whether an end went as one hopes (`well`), went wrong unless a script asked for it (`ill`), or has not ended (`open`). */
export type Went = "well" | "ill" | "open";

export interface EndWords {
  /** The words, short, the outcome first: a hint reads whole within VS Code's 43 characters. */
  readonly words: string;
  readonly went: Went;
}

/** Every end of every kind of thing, in words. */
export const OUTCOME_WORDS = {
  turn: {
    answered: { words: "answered", went: "well" },
    unanswered: { words: "no answer", went: "ill" },
    blocked: { words: "blocked", went: "ill" },
    failed: { words: "failed", went: "ill" },
    "timed-out": { words: "timed out", went: "ill" },
    cancelled: { words: "cancelled", went: "ill" },
    refused: { words: "refused", went: "ill" },
    waiting: { words: "still waiting", went: "open" },
    "awaiting-reply": { words: "awaiting a reply", went: "open" },
  },
  message: {
    replied: { words: "replied", went: "well" },
    delivered: { words: "delivered", went: "well" },
    pending: { words: "still pending", went: "open" },
    failed: { words: "failed", went: "ill" },
    undelivered: { words: "undelivered", went: "ill" },
  },
  decision: {
    answered: { words: "answered", went: "well" },
    rejected: { words: "rejected", went: "ill" },
    "not-answered": { words: "not answered", went: "ill" },
  },
  event: {
    sent: { words: "sent", went: "well" },
    "never-sent": { words: "never sent", went: "ill" },
    refused: { words: "refused", went: "ill" },
  },
} as const satisfies {
  turn: Record<TurnEnd, EndWords>;
  message: Record<MessageEnd, EndWords>;
  decision: Record<DecisionEnd, EndWords>;
  event: Record<EventEnd, EndWords>;
};

export type OutcomeSubject = keyof typeof OUTCOME_WORDS;
export type EndOf<S extends OutcomeSubject> = keyof (typeof OUTCOME_WORDS)[S];

/** What a script asked for is said so, after the outcome: `no answer, as scripted`. */
export const AS_SCRIPTED = ", as scripted";

/**
 * How an end is drawn: `ok` (it went well), `scripted` (it went as a `noAnswer.…()` entry said:
 * never a failure), `expected` (it went wrong, unscripted, in a test that passed: the test expected
 * it), `open` (not ended), `failure` (it went wrong and its test failed). The only red, the only ✗.
 */
export type Tone = "ok" | "scripted" | "expected" | "open" | "failure";

/** Each tone's mark, before the words in the hover, transcript and timeline (a hint shows only ✗). */
export const TONE_MARKS = { ok: "✓", scripted: "✓", expected: "○", open: "○", failure: "✗" } as const satisfies Record<Tone, string>;

/** What is known of the thing beside its end: whether a script asked for it, whether its test passed. */
export interface EndContext {
  readonly scripted?: boolean;
  readonly passed?: boolean;
}

/** An end's words, tone and mark. */
export interface Ended {
  readonly words: string;
  readonly tone: Tone;
  readonly mark: string;
}

/** The tone of an end that `went` so, in its context. */
export function toneOf(went: Went, context: EndContext = {}): Tone {
  switch (went) {
    case "well":
      return "ok";
    case "open":
      return "open";
    case "ill":
      return context.scripted ? "scripted" : context.passed === false ? "failure" : "expected";
    default:
      return went satisfies never;
  }
}

/** Whether `end` is one of the subject's ends (a trace's outcome is a string). */
export function isEndOf<S extends OutcomeSubject>(subject: S, end: string): end is Extract<EndOf<S>, string> {
  return Object.hasOwn(OUTCOME_WORDS[subject], end);
}

/** What one thing ended as: `answered`, `no answer, as scripted`, `timed out`; an unknown end as itself, gone wrong. */
export function endedAs<S extends OutcomeSubject>(subject: S, end: string, context: EndContext = {}): Ended {
  const known = isEndOf(subject, end) ? (OUTCOME_WORDS[subject] as Record<string, EndWords>)[end]! : undefined;
  const tone = toneOf(known?.went ?? "ill", context);
  const words = `${known?.words ?? end}${tone === "scripted" ? AS_SCRIPTED : ""}`;
  return { words, tone, mark: TONE_MARKS[tone] };
}

/** An end as a hint says it: its words, `✗ ` before them only for a failure. */
export function hintWords(ended: Ended): string {
  return ended.tone === "failure" ? `${ended.mark} ${ended.words}` : ended.words;
}

/** An end as the hover, transcript and timeline say it: its mark, then its words. */
export function markedWords(ended: Ended): string {
  return `${ended.mark} ${ended.words}`;
}

/** What a traced turn or compaction ended as: `refused` when the test refused its script's answer. */
export function turnEnd(ended: { outcome: string; refused?: string }): string {
  return ended.refused !== undefined ? "refused" : ended.outcome;
}

/** The outcome kinds outcome coverage counts a decision by (core/coverage), in their order, each as the table's decision end. */
const DECISION_COVERAGE_ENDS = { answered: "answered", unanswered: "not-answered", failed: "rejected" } as const satisfies Record<string, DecisionEnd>;
export type DecisionCoverageOutcome = keyof typeof DECISION_COVERAGE_ENDS;
export const DECISION_COVERAGE_OUTCOMES = Object.keys(DECISION_COVERAGE_ENDS) as DecisionCoverageOutcome[];

/** An outcome kind a count is kept of, in words: a turn's, or (`decision`) a decision's: `no answer`, `rejected`. */
export function outcomeKindWords(outcome: string, decision = false): string {
  const end = decision && Object.hasOwn(DECISION_COVERAGE_ENDS, outcome) ? DECISION_COVERAGE_ENDS[outcome as DecisionCoverageOutcome] : undefined;
  return end !== undefined ? OUTCOME_WORDS.decision[end].words : endedAs("turn", outcome).words;
}
