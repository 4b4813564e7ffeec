// The one table of noAnswer kinds: for each, the method a test calls, its docs line, its default
// reason, how it ends an operation, the kind its mutant becomes and the recorded end `turnlens record`
// writes back as it. Everything else about a kind is derived from here or tested against it.

import type { HostEnd, TurnOperation } from "../workflow/host.ts";
import type { TurnEndedLine } from "../workflow/runLines.ts";
import { loginFailure } from "../workflow/runtimes.ts";
import type { NoAnswer } from "./entries.ts";

export type NoAnswerKind = "silent" | "blocked" | "failed" | "timed-out" | "hang" | "interrupted" | "needs-login";

/** An operation's recorded end other than an answer (run.jsonl's `turn-ended` line). */
export type RecordedNoAnswerEnd = Exclude<TurnEndedLine["end"], "answered">;

export interface NoAnswerKindDescriptor {
  /** The method a test calls, `noAnswer.<method>()`; the grammar (syntaxes/) lists the same names. */
  readonly method: string;
  /** What it does, in one line: the method's doc comment in entries.ts, and its completion item's documentation. */
  readonly docs: string;
  /** The reason the method gives when the test gives none; undefined for a method that takes no reason. */
  readonly defaultReason: string | undefined;
  /**
   * How an entry of this kind ends an operation (`noun`: "turn", "compaction"), as a real harness
   * would end it; undefined leaves it to the caller, whose rule differs (`interrupted`).
   */
  readonly end: (operation: TurnOperation, entry: NoAnswer, noun: string) => Promise<HostEnd> | HostEnd | undefined;
  /**
   * Whether the entry says how its operation ends: false for one that waits for whatever ends it (a
   * deadline, the stall guard). The editor's hints say `no answer (as scripted)` only when it does.
   */
  readonly scriptsItsEnd: boolean;
  /** The kind `--mutate` changes an entry of this kind to: one whose operation ends with another outcome. */
  readonly mutant: NoAnswerKind;
  /** The recorded end `turnlens record` writes back as this kind; undefined when it writes none as it (each end is one kind's). */
  readonly recordedEnd: RecordedNoAnswerEnd | undefined;
}

/** Every noAnswer kind, in the order completion offers them. */
export const NO_ANSWER_KINDS = {
  silent: {
    method: "silent",
    docs: "Ends with no answer; the engine nudges once and the same entry meets the nudge.",
    defaultReason: undefined,
    end: () => ({ kind: "silent" }),
    scriptsItsEnd: true,
    mutant: "failed",
    recordedEnd: "silent",
  },
  blocked: {
    method: "blocked",
    docs: "Ends `blocked`, by default on a permission prompt.",
    defaultReason: "waiting on a permission prompt",
    end: (_operation, entry) => ({ kind: "blocked", reason: reasonOf(entry) }),
    scriptsItsEnd: true,
    mutant: "failed",
    recordedEnd: "blocked",
  },
  failed: {
    method: "failed",
    docs: "Ends `failed`, as a crashed harness does.",
    defaultReason: "harness crashed",
    end: (_operation, entry) => ({ kind: "failed", reason: reasonOf(entry) }),
    scriptsItsEnd: true,
    mutant: "silent",
    recordedEnd: "failed",
  },
  "timed-out": {
    method: "timedOut",
    docs: "Ends `timed-out` at once.",
    defaultReason: "turn timed out",
    end: (_operation, entry) => ({ kind: "timed-out", reason: reasonOf(entry) }),
    scriptsItsEnd: true,
    mutant: "failed",
    recordedEnd: "timed-out",
  },
  hang: {
    method: "hang",
    docs: "Holds until the engine cancels the turn, for a deadline or a sibling's failure.",
    defaultReason: undefined,
    // Held until the engine cancels it: a deadline, a failing sibling, or the attempt's end.
    end: (operation, _entry, noun) =>
      new Promise((resolve) => {
        const end = () => resolve({ kind: "cancelled", reason: `the engine cancelled the ${noun}` });
        if (operation.signal.aborted) end();
        else operation.signal.addEventListener("abort", end, { once: true });
      }),
    scriptsItsEnd: false,
    mutant: "failed",
    recordedEnd: "cancelled",
  },
  interrupted: {
    method: "interrupted",
    docs: "Ends `cancelled`, as when the operator stops the calling session's turn; only for the caller.",
    defaultReason: undefined,
    // Only the calling session's turn can be interrupted: scriptedHost.ts and scriptedCompactions.ts decide.
    end: () => undefined,
    scriptsItsEnd: true,
    mutant: "failed",
    // A recorded `cancelled` is written back as `hang`: the engine's cancel, which a replay gives too.
    recordedEnd: undefined,
  },
  "needs-login": {
    method: "needsLogin",
    docs: "Fails with `login` set, as a missing login does.",
    defaultReason: undefined,
    end: (operation, entry) => ({ kind: "failed", ...loginFailure(operation.execution.harness, entry.provider) }),
    scriptsItsEnd: true,
    mutant: "silent",
    // Its recorded `failed` line (with the login's reason) is written back as `noAnswer.failed(reason)`.
    recordedEnd: undefined,
  },
} as const satisfies Record<NoAnswerKind, NoAnswerKindDescriptor>;

/** The entry's reason, or its kind's default (an entry the editor's static pass stands in has none). */
function reasonOf(entry: NoAnswer): string {
  return entry.reason ?? NO_ANSWER_KINDS[entry.kind].defaultReason ?? "";
}

/** Each kind's method name, as `noAnswer.<method>` is written. */
export type NoAnswerMethod = (typeof NO_ANSWER_KINDS)[NoAnswerKind]["method"];

/** The recorded ends no kind is written back as: none, or `kindsByRecordedEnd(true)` below fails tsc, naming them. */
type UnwrittenEnds = Exclude<RecordedNoAnswerEnd, (typeof NO_ANSWER_KINDS)[NoAnswerKind]["recordedEnd"]>;

/** The kind `turnlens record` writes each recorded end back as: the one whose `recordedEnd` it is. */
export const NO_ANSWER_KIND_RECORDED_AS = kindsByRecordedEnd(true);

function kindsByRecordedEnd(_everyEndWritten: [UnwrittenEnds] extends [never] ? true : UnwrittenEnds): Readonly<Record<RecordedNoAnswerEnd, NoAnswerKind>> {
  const byEnd: Partial<Record<RecordedNoAnswerEnd, NoAnswerKind>> = {};
  for (const kind of Object.keys(NO_ANSWER_KINDS) as NoAnswerKind[]) {
    const end = NO_ANSWER_KINDS[kind].recordedEnd;
    if (end !== undefined) byEnd[end] = kind;
  }
  return byEnd as Record<RecordedNoAnswerEnd, NoAnswerKind>;
}

/** How a noAnswer entry ends an operation, the same for a turn, a compaction or a wake; undefined for `interrupted`, left to the caller. */
export function noAnswerEnd(operation: TurnOperation, entry: NoAnswer, noun: string): Promise<HostEnd> | HostEnd | undefined {
  return NO_ANSWER_KINDS[entry.kind].end(operation, entry, noun);
}
