// fakeClient's script: its four hooks, what each may give back, and the test's mistakes in them
// (a hook that isn't one, a rest that isn't a rest, an `ok` a script gave), each a ProblemTrace.

import type { EmitDid, EmitWhy, InboxItem, RestState, StartDid } from "../client/types.ts";
import type { JsonValue } from "../workflow/json.ts";
import { suggestName } from "./options.ts";
import { quoted } from "./problems.ts";
import { attachProblems, type ProblemTrace, type SourceSite } from "./trace.ts";

type Awaitable<T> = T | Promise<T>;

/** A start as the `start` hook sees it: the run's id is the one the start named. */
export interface StartSeen {
  workflow: string;
  id: string;
  args: JsonValue;
}

/** An event as the `emit` hook sees it; a reply is its `{participant}:reply` event. */
export interface EmitSeen {
  workflow: string;
  id: string;
  name: string;
  data: JsonValue;
  /** As the call gave it. */
  eventId?: string;
}

export interface InboxSeen {
  participant?: string;
  workflow?: string;
  id?: string;
}

/** What an `emit` hook may say; `why` alone is `did: "none"`. Never `ok`: it follows from `did`. */
export type ScriptedEmit = { did: EmitDid; why?: EmitWhy | (string & {}) } | { did?: undefined; why: EmitWhy | (string & {}) };

/** What a `start` hook may say. Never `ok`: it follows from `did`. */
export interface ScriptedStart {
  did: StartDid;
  error?: string;
}

/** One rest a wait comes to; `final` defaults to the client's rule. Never `ok`: it follows from `state`. */
export interface ScriptedRest {
  state: RestState;
  final?: boolean;
}

export interface FakeClientScript {
  /** What an event comes to; `undefined` leaves it to the client's rules. */
  emit?: (call: EmitSeen) => Awaitable<ScriptedEmit | undefined>;
  /** What a start comes to; `undefined` leaves it to the client's rules. */
  start?: (call: StartSeen) => Awaitable<ScriptedStart | undefined>;
  /** What a run's waits come to, in order, by "<workflow>/<id>". */
  rests?: Record<string, readonly ScriptedRest[]>;
  /** The items an inbox read gives; none without it. */
  inbox?: (call: InboxSeen) => Awaitable<InboxItem[]>;
}

/** A mistake of the test in a fakeClient script: thrown where the fake meets it. */
export class FakeClientError extends Error {
  override readonly name = "FakeClientError";
  readonly code: ProblemTrace["code"];
  constructor(
    readonly problems: ProblemTrace[],
    options?: { cause?: unknown },
  ) {
    super(problems.map((problem) => problem.message).join("\n"), options);
    this.code = problems[0]!.code;
    attachProblems(this, problems);
  }
}

export const HOOKS = ["emit", "start", "rests", "inbox"] as const;
const EMIT_DIDS: readonly EmitDid[] = ["started", "duplicate", "nudged", "continued", "none", "refused"];
const START_DIDS: readonly StartDid[] = ["started", "exists", "other-args", "launch-failed"];
const REST_STATES: readonly RestState[] = ["parked", "completed", "failed", "crashed", "stopped", "cancelled", "interrupted", "stuck"];
const RUN_KEY = /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/;

/** A wrong value as a message shows it. */
export function shownValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "a function";
  try {
    const json = JSON.stringify(value);
    return json.length > 80 ? `${json.slice(0, 77)}...` : json;
  } catch {
    return String(value);
  }
}

export function scriptProblem(code: ProblemTrace["code"], message: string, site: SourceSite | undefined, extra: Partial<ProblemTrace> = {}): ProblemTrace {
  return { code, message, ...(site ? { site } : {}), ...extra };
}

/** Checks the script as given; every mistake in it is one problem, thrown together. */
export function readFakeClientScript(script: unknown, site: SourceSite | undefined): FakeClientScript {
  if (script === undefined) return {};
  const invalid = (message: string, extra: Partial<ProblemTrace> = {}) => scriptProblem("fake-client-script-invalid", message, site, extra);
  if (typeof script !== "object" || script === null || Array.isArray(script)) {
    throw new FakeClientError([invalid(`fakeClient's script must be an object of ${quoted(HOOKS)}, not ${shownValue(script)}`)]);
  }
  const given = script as Record<string, unknown>;
  const problems: ProblemTrace[] = [];
  for (const name of Object.keys(given).sort()) {
    if ((HOOKS as readonly string[]).includes(name)) continue;
    const suggestion = suggestName(name, HOOKS);
    problems.push(
      invalid(suggestion ? `fakeClient takes no script "${name}"; did you mean "${suggestion}"?` : `fakeClient takes no script "${name}"; it takes ${quoted(HOOKS)}`, {
        option: name,
        ...(suggestion ? { suggestion } : {}),
      }),
    );
  }
  for (const hook of ["emit", "start", "inbox"] as const) {
    const value = given[hook];
    if (value !== undefined && typeof value !== "function") {
      problems.push(invalid(`fakeClient's ${hook} script must be a function of the call, not ${shownValue(value)}`, { option: hook }));
    }
  }
  if (given.rests !== undefined) problems.push(...restsProblems(given.rests, invalid));
  if (problems.length) throw new FakeClientError(problems);
  return given as FakeClientScript;
}

function restsProblems(rests: unknown, invalid: (message: string, extra?: Partial<ProblemTrace>) => ProblemTrace): ProblemTrace[] {
  if (typeof rests !== "object" || rests === null || Array.isArray(rests)) {
    return [invalid(`fakeClient's rests must map "<workflow>/<id>" to a list of rests, not ${shownValue(rests)}`, { option: "rests" })];
  }
  const problems: ProblemTrace[] = [];
  for (const [key, list] of Object.entries(rests)) {
    const at = (message: string, index?: number) =>
      invalid(`fakeClient's rests "${key}"${index === undefined ? "" : ` #${index + 1}`}: ${message}`, {
        option: "rests",
        key,
        ...(index === undefined ? {} : { index }),
      });
    if (!RUN_KEY.test(key)) {
      problems.push(at(`names no run; a key is "<workflow>/<id>", such as "release/v1"`));
      continue;
    }
    if (!Array.isArray(list)) {
      problems.push(at(`must be a list of rests, such as [{ state: "completed" }], not ${shownValue(list)}`));
      continue;
    }
    list.forEach((rest: unknown, index) => {
      const why = whyNotRest(rest);
      if (why) problems.push(at(why, index));
    });
  }
  return problems;
}

function whyNotRest(rest: unknown): string | undefined {
  if (typeof rest !== "object" || rest === null || Array.isArray(rest)) return `a rest is { state, final? }, not ${shownValue(rest)}`;
  const fields = rest as Record<string, unknown>;
  if ("ok" in fields) return `gives ok, which follows from its state; a script never gives it`;
  const extra = Object.keys(fields).filter((name) => name !== "state" && name !== "final");
  if (extra.length) return `a rest is { state, final? }; it has no ${quoted(extra)}`;
  if (fields.state === "running") return `state "running" is not a rest: a wait resolves once the run rests; a rest is one of ${quoted(REST_STATES)}`;
  if (!REST_STATES.includes(fields.state as RestState)) return `state ${shownValue(fields.state)} is not a rest; a rest is one of ${quoted(REST_STATES)}`;
  if (fields.final !== undefined && typeof fields.final !== "boolean") return `final must be true or false, not ${shownValue(fields.final)}`;
  return undefined;
}

/** Why what an `emit` hook gave is not a ScriptedEmit, or undefined when it is one (or nothing). */
export function whyNotScriptedEmit(said: unknown): string | undefined {
  if (said === undefined) return undefined;
  if (typeof said !== "object" || said === null || Array.isArray(said)) return `it must give { did, why? }, { why } or undefined, not ${shownValue(said)}`;
  const fields = said as Record<string, unknown>;
  if ("ok" in fields) return `it gave ok, which follows from did; a script never gives it`;
  const extra = Object.keys(fields).filter((name) => name !== "did" && name !== "why");
  if (extra.length) return `it gave ${quoted(extra)}; an event's result is { did, why? }`;
  if (fields.did === undefined && fields.why === undefined) return `it gave neither did nor why`;
  if (fields.did !== undefined && !EMIT_DIDS.includes(fields.did as EmitDid)) return `did ${shownValue(fields.did)} is not one of ${quoted(EMIT_DIDS)}`;
  if (fields.why !== undefined && (typeof fields.why !== "string" || fields.why === ""))
    return `why must be a word such as "launch-failed", not ${shownValue(fields.why)}`;
  return undefined;
}

/** Why what a `start` hook gave is not a ScriptedStart, or undefined when it is one (or nothing). */
export function whyNotScriptedStart(said: unknown): string | undefined {
  if (said === undefined) return undefined;
  if (typeof said !== "object" || said === null || Array.isArray(said)) return `it must give { did, error? } or undefined, not ${shownValue(said)}`;
  const fields = said as Record<string, unknown>;
  if ("ok" in fields) return `it gave ok, which follows from did; a script never gives it`;
  const extra = Object.keys(fields).filter((name) => name !== "did" && name !== "error");
  if (extra.length) return `it gave ${quoted(extra)}; a start's result is { did, error? }`;
  if (!START_DIDS.includes(fields.did as StartDid)) return `did ${shownValue(fields.did)} is not one of ${quoted(START_DIDS)}`;
  if (fields.error !== undefined && typeof fields.error !== "string") return `error must be a string, not ${shownValue(fields.error)}`;
  return undefined;
}

/** Why what an `inbox` hook gave is not a list of items, or undefined when it is one. */
export function whyNotInboxItems(items: unknown): string | undefined {
  if (!Array.isArray(items)) return `it must give a list of items, not ${shownValue(items)}`;
  const index = items.findIndex((item) => typeof item !== "object" || item === null || Array.isArray(item));
  return index >= 0 ? `item #${index + 1} is not an item: ${shownValue(items[index])}` : undefined;
}
