// Script entries: answer(...) and noAnswer.*(), opaque values branded so a script can tell
// them from anything else, each remembering where it was written.

import type { Static, TSchema } from "typebox";
import type { LoginNeeded } from "../workflow/types.ts";
import { captureEntrySite, type LazySite } from "./callSite.ts";
import { NO_ANSWER_KINDS, type NoAnswerKind, type NoAnswerMethod } from "./noAnswerKinds.ts";
import { holdsNotKnown, isNotKnown, WRITTEN } from "./notKnown.ts";
import type { SourceSite } from "./trace.ts";
import type { Turn } from "./turn.ts";

const ENTRY = Symbol.for("turnlens.script-entry");

export interface NoAnswer {
  readonly [ENTRY]: "no-answer";
  readonly kind: NoAnswerKind;
  readonly reason?: string;
  readonly provider?: string;
  readonly site?: SourceSite;
}

type Awaitable<T> = T | Promise<T>;

export interface Answer<S extends TSchema | undefined = TSchema | undefined> {
  readonly [ENTRY]: "answer";
  readonly schema: S;
  readonly value?: unknown;
  readonly respond?: (turn: Turn) => Awaitable<unknown>;
  readonly site?: SourceSite;
  /** Set on a `messages` or `participants` function the test gave as it is (it has no site of its own). */
  readonly isFunction?: true;
}

/** One scripted entry: it meets a turn. */
export type Entry = Answer | NoAnswer;

/** A script: one entry that meets every turn, or a list with one entry per turn. */
export type Script = Entry | readonly Entry[];

/**
 * What answer() and noAnswer make: an entry whose `site` is formatted only when read (a trace's
 * reader, a problem), since formatting a stack through its source maps cost a one-turn test more
 * than the rest of making the entry. Its fields are set in the order entries always had.
 */
class WrittenEntry {
  readonly #site: LazySite;
  constructor(site: LazySite) {
    this.#site = site;
  }
  get site(): SourceSite | undefined {
    return this.#site.site;
  }
  static lazySiteOf(entry: object): LazySite | undefined {
    return #site in entry ? entry.#site : undefined;
  }
}

/** @internal The entry's site, not yet read: a trace registers it to be written when it is read (callSite.ts's PendingSites). */
export function lazySiteOf(entry: Entry): LazySite | undefined {
  return WrittenEntry.lazySiteOf(entry);
}

export function isEntry(value: unknown): value is Entry {
  return typeof value === "object" && value !== null && ENTRY in value;
}

export function isNoAnswer(value: unknown): value is NoAnswer {
  return isEntry(value) && value[ENTRY] === "no-answer";
}

export function isAnswer(value: unknown): value is Answer {
  return isEntry(value) && value[ENTRY] === "answer";
}

/** A turn that asks for `S` and answers it with a typed value, or from the turn. */
export function answer<S extends TSchema>(
  schema: S,
  // Static<NoInfer<S>> keeps a union's discriminants literal and the error on the wrong field;
  // NoInfer<Static<S>> on the value loses both (TypeScript 6), but is what the function form needs.
  value: Static<NoInfer<S>> | NoInfer<(turn: Turn<S>) => Awaitable<Static<S> | NoAnswer>>,
): Answer<S>;
/** A turn that asks for text, answered with text or from the turn. */
export function answer(text: string | ((turn: Turn<undefined>) => Awaitable<string | NoAnswer>)): Answer<undefined>;
export function answer(schemaOrText: unknown, value?: unknown): Answer {
  const site = captureEntrySite(answer);
  const isText = typeof schemaOrText === "string" || typeof schemaOrText === "function";
  if (!isText && (typeof schemaOrText !== "object" || schemaOrText === null || isEntry(schemaOrText))) {
    throw new TypeError(`answer takes a schema and a value, or text; not ${describe(schemaOrText)}`);
  }
  // biome-ignore lint/complexity/noArguments: answer(SCHEMA) and answer(SCHEMA, undefined) differ only in the count
  if (!isText && arguments.length < 2) throw new TypeError("answer(SCHEMA, value) needs the value to answer with");
  if (!isText && isEntry(value)) {
    throw new TypeError("answer(SCHEMA, noAnswer…) answers with a value; use the noAnswer entry on its own");
  }
  const schema = (isText ? undefined : schemaOrText) as TSchema | undefined;
  const given = isText ? schemaOrText : value;
  const entry = new WrittenEntry(site) as unknown as { -readonly [K in keyof Answer]: Answer[K] };
  entry[ENTRY] = "answer";
  entry.schema = schema;
  if (typeof given === "function") entry.respond = given as (turn: Turn) => unknown;
  else entry.value = given;
  return Object.freeze(entry);
}

function noAnswerEntry(callee: Function, kind: NoAnswerKind, fields: { reason?: string; provider?: string } = {}): NoAnswer {
  const entry = new WrittenEntry(captureEntrySite(callee)) as unknown as { -readonly [K in keyof NoAnswer]: NoAnswer[K] };
  entry[ENTRY] = "no-answer";
  entry.kind = kind;
  if (fields.reason !== undefined) entry.reason = fields.reason;
  if (fields.provider !== undefined) entry.provider = fields.provider;
  return Object.freeze(entry);
}

// A method per kind of noAnswerKinds.ts (tsc checks each is here): each doc comment is its kind's
// docs line (test/core/noAnswerKinds.test.ts checks it), each default reason its kind's.
/** Entries that end a turn without an answer. */
export const noAnswer = {
  /** Ends with no answer; the engine nudges once and the same entry meets the nudge. */
  silent(): NoAnswer {
    return noAnswerEntry(noAnswer.silent, "silent");
  },
  /** Ends `blocked`, by default on a permission prompt. */
  blocked(reason: string = NO_ANSWER_KINDS.blocked.defaultReason): NoAnswer {
    return noAnswerEntry(noAnswer.blocked, "blocked", { reason });
  },
  /** Ends `failed`, as a crashed harness does. */
  failed(reason: string = NO_ANSWER_KINDS.failed.defaultReason): NoAnswer {
    return noAnswerEntry(noAnswer.failed, "failed", { reason });
  },
  /** Ends `timed-out` at once. */
  timedOut(reason: string = NO_ANSWER_KINDS["timed-out"].defaultReason): NoAnswer {
    return noAnswerEntry(noAnswer.timedOut, "timed-out", { reason });
  },
  /** Holds until the engine cancels the turn, for a deadline or a sibling's failure. */
  hang(): NoAnswer {
    return noAnswerEntry(noAnswer.hang, "hang");
  },
  /** Ends `cancelled`, as when the operator stops the calling session's turn; only for the caller. */
  interrupted(): NoAnswer {
    return noAnswerEntry(noAnswer.interrupted, "interrupted");
  },
  /** Fails with `login` set, as a missing login does. */
  needsLogin(provider?: string): NoAnswer {
    return noAnswerEntry(noAnswer.needsLogin, "needs-login", provider !== undefined ? { provider } : {});
  },
} satisfies Record<NoAnswerMethod, (...args: never[]) => NoAnswer>;

/** @internal A `messages` or `participants` function as an entry of its script, so ScriptBook walks it. */
export function functionEntry(respond: (value: never) => unknown): Answer<undefined> {
  return Object.freeze({ [ENTRY]: "answer" as const, schema: undefined, respond: respond as (turn: Turn) => unknown, isFunction: true as const });
}

/** The entry's name as the test wrote it: `answer`, `noAnswer.silent`, or `function` for a messages function. */
export function entryKind(entry: Entry): string {
  if (isAnswer(entry)) return entry.isFunction ? "function" : "answer";
  return `noAnswer.${NO_ANSWER_KINDS[(entry as NoAnswer).kind].method}`;
}

/** The noAnswer kind `noAnswer.timedOut` (as a test writes it, and as a trace's entry kind reads) names. */
export function noAnswerKindOf(written: string): NoAnswerKind | undefined {
  const method = written.startsWith("noAnswer.") ? written.slice("noAnswer.".length) : undefined;
  return (Object.keys(NO_ANSWER_KINDS) as NoAnswerKind[]).find((candidate) => NO_ANSWER_KINDS[candidate].method === method);
}

/**
 * A stand-in for `answer(…)` or `noAnswer.<method>()` as a test file writes it, so the option
 * readers can check a script before the run (the editor's static pass); undefined for a method
 * noAnswer lacks. It answers nothing: it is never run.
 */
export function entryStandIn(written: "answer" | `noAnswer.${string}`): Entry | undefined {
  if (written === "answer") return Object.freeze({ [ENTRY]: "answer" as const, schema: undefined });
  const kind = noAnswerKindOf(written);
  return kind ? Object.freeze({ [ENTRY]: "no-answer" as const, kind }) : undefined;
}

export function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  // Before the run (notKnown.ts): what the text does not tell is quoted as written.
  if (isNotKnown(value)) return value.written;
  if (typeof value === "object" && value !== null && WRITTEN in value && holdsNotKnown(value)) return String((value as { [WRITTEN]: unknown })[WRITTEN]);
  // An entry is shown as written, not as its fields (which hold the site's file path).
  if (isAnswer(value)) return value.isFunction ? "a function" : "answer(…)";
  if (isNoAnswer(value)) return `${entryKind(value)}()`;
  if (Array.isArray(value) && value.some((item) => isEntry(item) || typeof item === "function")) return `[${value.map(describe).join(", ")}]`;
  if (value === undefined) return "undefined";
  try {
    const json = JSON.stringify(value);
    return json.length > 80 ? `${json.slice(0, 80)}…` : json;
  } catch {
    return String(value);
  }
}

export type { LoginNeeded };
