// Waiting on time: wf.sleep and wf.waitUntil, and the timer every wait with an `until` runs on
// the run's clock. Each timer is recorded (`run.timers`) with its due time and how it ended.

import { checkOptions } from "./callOptions.ts";
import type { Attempt } from "./attempt.ts";
import type { WaitKind } from "./activity.ts";
import type { Moment } from "./clock.ts";
import { durationToMilliseconds, parseDuration } from "./durations.ts";
import { DeadlineExceededError, messageOf, WaitCancelledError } from "./errors.ts";
import { CancelReason, scopeOr } from "./scope.ts";
import { appendRunLine } from "./runLog.ts";
import type { Duration, TimerRecord, WaitOptions } from "./types.ts";

/** Milliseconds on the run's clock for an `until`: a Date, an ISO time, or a duration from now. */
export function untilToTime(attempt: Attempt, until: Date | string | number, what: string): number {
  if (until instanceof Date && !Number.isNaN(until.getTime())) return until.getTime();
  if (typeof until === "number" && Number.isFinite(until)) return until;
  if (typeof until === "string") {
    const duration = parseDuration(until);
    if (duration !== undefined) return attempt.clocks.run.now() + duration;
    const time = Date.parse(until);
    if (!Number.isNaN(time)) return time;
  }
  throw new TypeError(`${what} must be a Date, an ISO time or a duration such as "2d", not ${JSON.stringify(until)}`);
}

/** What a continue answers for a wait (continues.ts): settled from the earlier lines, or going on. */
export type ReplayedWait<T> = { settled: Promise<T> } | { replayed: boolean; until: number | undefined };

/**
 * What a wait needs of its attempt: the state, and the continuation that replays the waits an
 * earlier attempt made. Named here, so waits need nothing above the attempt's state.
 */
export type WaitingAttempt = Attempt & { readonly continuation: { replayWait<T>(sequence: number, spec: WaitSpec<T>): ReplayedWait<T> } };

export interface WaitSpec<T> {
  kind: WaitKind;
  label: string;
  /** When the wait ends by itself, on the run's clock. */
  until?: number;
  /** Called when `until` passes; its value resolves the wait. */
  onUntil?: () => T;
  /** Lets the caller end the wait early (an event arriving); `settle` resolves it. */
  start?: (settle: (value: T) => void, sequence: number) => void;
  /** Called once the wait ended however it did, to drop anything the caller registered. */
  cleanup?: () => void;
  /** On a continue, what the wait resolves to for the event the earlier lines say it took, or why it can't take it. */
  replayTake?: (eventId: string) => { value: T } | { why: string };
}

/**
 * The one wait primitive: counted as waiting (not busy) for idle detection, ended by `settle`,
 * by its `until` (a recorded timer), or by its scope being cancelled (rejects).
 */
export function waitOn<T>(attempt: WaitingAttempt, spec: WaitSpec<T>): Promise<T> {
  const scope = scopeOr(attempt.root);
  const sequence = ++attempt.waitSequence;
  // A continue settles at once a wait the earlier lines settled, and keeps a pending timer's due time.
  const replay = attempt.continuation.replayWait(sequence, spec);
  if ("settled" in replay) return replay.settled;
  if (replay.until !== undefined) spec = { ...spec, until: replay.until };
  return new Promise<T>((resolve, reject) => {
    if (scope.signal.aborted) return reject(cancelledWait(attempt, spec.label, scope.signal.reason));
    let done = false;
    const timer: TimerRecord | undefined =
      spec.until === undefined ? undefined : { label: spec.label, due: new Date(spec.until).toISOString(), state: "pending", kind: spec.kind };
    const moments: { set: Moment; ended?: Moment } | undefined = timer ? { set: attempt.moment() } : undefined;
    if (timer) {
      attempt.timers.push(timer);
      attempt.timerMoments.set(timer, moments!);
    }
    if (timer && !replay.replayed) appendRunLine(attempt, { kind: "timer", wait: sequence, label: spec.label, due: timer.due, state: "pending" });
    const registered = attempt.activity.addWait({ kind: spec.kind, label: spec.label, ...(spec.until !== undefined ? { until: spec.until } : {}) });
    const cancelTimer =
      spec.until === undefined
        ? undefined
        : attempt.clocks.run.setTimer(spec.until - attempt.clocks.run.now(), () => {
            if (done) return;
            timer!.state = "fired";
            moments!.ended = attempt.moment();
            appendRunLine(attempt, { kind: "timer", wait: sequence, label: spec.label, due: timer!.due, state: "fired" });
            finish();
            resolve(spec.onUntil!());
          });
    const onAbort = () => {
      if (done) return;
      // A parked run's timers are still to come: the continue fires them.
      if (timer && !attempt.parkedAt) {
        timer.state = "cancelled";
        moments!.ended = attempt.moment();
      }
      finish();
      reject(cancelledWait(attempt, spec.label, scope.signal.reason));
    };
    scope.signal.addEventListener("abort", onAbort, { once: true });
    function finish() {
      done = true;
      registered.remove();
      cancelTimer?.();
      scope.signal.removeEventListener("abort", onAbort);
      spec.cleanup?.();
    }
    spec.start?.((value) => {
      if (done) return;
      if (timer) {
        timer.state = "cancelled";
        moments!.ended = attempt.moment();
        appendRunLine(attempt, { kind: "timer", wait: sequence, label: spec.label, due: timer.due, state: "cancelled" });
      }
      finish();
      resolve(value);
    }, sequence);
  });
}

function cancelledWait(attempt: Attempt, label: string, reason: unknown): Error {
  if (reason instanceof CancelReason && reason.kind === "timed-out") {
    return new DeadlineExceededError(`the wait "${label}" outlived its deadline`, attempt.root.cancelReason?.kind === "timed-out");
  }
  return new WaitCancelledError(`the wait "${label}" was cancelled: ${messageOf(reason)}`);
}

export async function sleep(attempt: WaitingAttempt, duration: Duration | number, options: WaitOptions = {}): Promise<void> {
  checkOptions("wf.sleep", "wait", options);
  await attempt.unlessAbandoned();
  const milliseconds = durationToMilliseconds(duration, "wf.sleep's duration");
  const until = attempt.clocks.run.now() + milliseconds;
  const label = options.label ?? `sleeping until ${new Date(until).toISOString()}`;
  await waitOn(attempt, { kind: "timer", label, until, onUntil: () => undefined });
  await attempt.unlessAbandoned();
}

export async function waitUntil(attempt: WaitingAttempt, time: Date | string | number, options: WaitOptions = {}): Promise<void> {
  checkOptions("wf.waitUntil", "wait", options);
  await attempt.unlessAbandoned();
  const until = untilToTime(attempt, time, "wf.waitUntil's time");
  const label = options.label ?? `waiting until ${new Date(until).toISOString()}`;
  await waitOn(attempt, { kind: "timer", label, until, onUntil: () => undefined });
  await attempt.unlessAbandoned();
}
