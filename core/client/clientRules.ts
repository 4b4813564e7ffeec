// The client's rules that need no files: what a start or an event says given the run's state,
// what `ok` and `final` follow from, and where a run is after what was said. The real client
// reads a run's state from its folder; fakeClient keeps it in memory; both decide here.

import type { EmitDid, EmitResult, EmitWhy, RestState, Rest, RunState, StartDid, StartResult } from "./types.ts";

/** What the client knows of a run, as these rules read it. */
export interface RunFacts {
  readonly state: RunState;
  /** The rest a wait last came to, where a failed launch leaves the run. */
  readonly lastRest?: RestState;
  /** Launches that failed in a row: a run with no rest is `stuck` after three. */
  readonly failedLaunches: number;
  /** Whether a launch of it ever succeeded: an interrupted run that never ran is started, not continued. */
  readonly everLaunched: boolean;
}

/** What an emit says, before `ok` is added. */
export interface EmitSaid {
  did: EmitDid;
  why?: EmitWhy | (string & {});
}

/** What a start says, before `id` and `ok` are added. */
export interface StartSaid {
  did: StartDid;
  error?: string;
}

export const LAUNCHES_BEFORE_STUCK = 3;

/** States a run is left alone in: an event is kept but wakes nothing. */
const LEFT_ALONE: ReadonlySet<RunState> = new Set(["stopped", "cancelled", "stuck"]);
/** States an event continues a run from. */
const CONTINUED_FROM: ReadonlySet<RunState> = new Set(["parked", "failed", "crashed"]);

/**
 * What an event says, by the run's state and whether its id was sent before (`resent`):
 * - no run: `started` if the event may start one, else `refused`, `no-run`;
 * - running: `nudged`, or `duplicate` if resent;
 * - parked, failed or crashed: `continued`, or `duplicate` if resent, which wakes it too;
 * - interrupted (a launch that failed, with no rest): `started` by its next event if it never ran,
 *   else `continued`; `duplicate` if resent, which wakes it;
 * - stopped, cancelled or stuck: `none`, why the state: the event is kept, the run left alone;
 * - completed: `refused`, `returned`; `none`, `returned` if resent.
 */
export function emitSays(run: RunFacts | undefined, event: { resent: boolean; mayStart: boolean }): EmitSaid {
  if (!run) return event.mayStart ? { did: "started" } : { did: "refused", why: "no-run" };
  if (run.state === "completed") return event.resent ? { did: "none", why: "returned" } : { did: "refused", why: "returned" };
  if (LEFT_ALONE.has(run.state)) return { did: "none", why: run.state };
  if (event.resent) return { did: "duplicate" };
  if (run.state === "running") return { did: "nudged" };
  if (run.state === "interrupted") return { did: run.everLaunched ? "continued" : "started" };
  return { did: "continued" };
}

/** What a start says: `started` for a new run, else `exists` with the same args, `other-args` with others. */
export function startSays(run: RunFacts | undefined, sameArgs: boolean, key: string): StartSaid {
  if (!run) return { did: "started" };
  return sameArgs ? { did: "exists" } : { did: "other-args", error: `run ${key} exists with other args` };
}

/** `ok` follows from what an emit said: the event reached a run that takes it now. */
export function emitOk(did: EmitDid): boolean {
  return did === "started" || did === "duplicate" || did === "nudged" || did === "continued";
}

/** `ok` follows from what a start said: the run is there with these args. */
export function startOk(did: StartDid): boolean {
  return did === "started" || did === "exists";
}

/** `ok` follows from a rest: the run returned, or waits as it meant to. */
export function restOk(state: RestState): boolean {
  return state === "completed" || state === "parked";
}

/**
 * Whether a run stays at a rest: completed, stopped, cancelled and stuck always; failed, crashed and
 * interrupted too when the workflow takes no events, as no event can continue it. Parked never:
 * a timer or an event moves it on.
 */
export function finalOf(state: RestState, takesEvents: boolean): boolean {
  if (state === "completed" || LEFT_ALONE.has(state)) return true;
  if (state === "parked") return false;
  return !takesEvents;
}

export function emitResult(said: EmitSaid): EmitResult {
  return { did: said.did, ...(said.why !== undefined ? { why: said.why } : {}), ok: emitOk(said.did) };
}

export function startResult(said: StartSaid, id: string): StartResult {
  return { did: said.did, id, ...(said.error !== undefined ? { error: said.error } : {}), ok: startOk(said.did) };
}

/** A rest as `wait` gives it; a `final` given (by a script) wins over the rule. */
export function restOf(state: RestState, takesEvents: boolean, final?: boolean): Rest {
  return { state, final: final ?? finalOf(state, takesEvents), ok: restOk(state) };
}

// Where a run is after what was said -------------------------------------------------------------

/** Whether what an emit said means the event was kept in the run's in.jsonl. */
export function emitKeeps(said: EmitSaid): boolean {
  return said.did !== "refused";
}

/** Whether what an emit said means the run runs now. */
export function emitLaunches(said: EmitSaid): boolean {
  return said.did === "started" || said.did === "continued" || said.did === "duplicate" || said.did === "nudged";
}

/** Whether what was said is a launch that failed. */
export function launchFailed(said: EmitSaid | StartSaid): boolean {
  return said.did === "launch-failed" || (said.did === "none" && "why" in said && said.why === "launch-failed");
}

/** A run launched: it runs. */
export function afterLaunch(run: RunFacts | undefined): RunFacts {
  return { state: "running", ...(run?.lastRest ? { lastRest: run.lastRest } : {}), failedLaunches: 0, everLaunched: true };
}

/** A launch that failed leaves a run at its last rest, or interrupted if it has none (stuck after three). */
export function afterFailedLaunch(run: RunFacts | undefined): RunFacts {
  const failedLaunches = (run?.failedLaunches ?? 0) + 1;
  const state: RestState = run?.lastRest ?? (failedLaunches >= LAUNCHES_BEFORE_STUCK ? "stuck" : "interrupted");
  return { state, ...(run?.lastRest ? { lastRest: run.lastRest } : {}), failedLaunches, everLaunched: run?.everLaunched ?? false };
}

/** A run made by an event that was kept but launched nothing: it has never run. */
export function keptUnlaunched(): RunFacts {
  return { state: "interrupted", failedLaunches: 0, everLaunched: false };
}

/** A run that came to a rest. */
export function afterRest(run: RunFacts | undefined, state: RestState): RunFacts {
  return { state, lastRest: state, failedLaunches: run?.failedLaunches ?? 0, everLaunched: run?.everLaunched ?? true };
}

/**
 * Where a run is after an emit said `said`: a launch runs it, a failed launch leaves it as
 * `afterFailedLaunch` says, any other kept event makes a run that wasn't there and changes nothing
 * else, and a refused one leaves no run.
 */
export function afterEmit(run: RunFacts | undefined, said: EmitSaid): RunFacts | undefined {
  if (!emitKeeps(said)) return run;
  if (launchFailed(said)) return afterFailedLaunch(run);
  if (emitLaunches(said)) return run?.state === "running" ? run : afterLaunch(run);
  return run ?? keptUnlaunched();
}

/**
 * Where a run is after a start said `said`: `started` runs it, `launch-failed` leaves it as
 * `afterFailedLaunch` says, `exists` launches again a run whose last launch failed (unless that
 * left it stuck), and `other-args` changes nothing (a run it names that wasn't known is taken to be
 * running).
 */
export function afterStart(run: RunFacts | undefined, said: StartSaid): RunFacts {
  if (said.did === "started") return afterLaunch(run);
  if (said.did === "launch-failed") return afterFailedLaunch(run);
  if (!run) return afterLaunch(undefined);
  if (said.did === "exists" && run.failedLaunches > 0 && (run.state === "interrupted" || CONTINUED_FROM.has(run.state))) return afterLaunch(run);
  return run;
}

/** Whether two args are the same JSON, whatever the order of their keys. */
export function sameArgs(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
