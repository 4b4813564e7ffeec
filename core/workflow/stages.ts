// wf.stage and wf.stop: named, once-per-attempt stages whose values a later attempt reuses, one
// open at a time, and the stop that ends an attempt `stopped`.

import type { TSchema } from "typebox";
import { checkAnswer } from "./answerCheck.ts";
import { afterPendingCallbacks } from "./clock.ts";
import type { AttemptWithParts } from "./attemptWithParts.ts";
import type { StageRecord } from "./runLines.ts";
import { messageOf, StopSignal } from "./errors.ts";
import { whyNotJson, type JsonValue } from "./json.ts";
import { CancelReason, inScope, scopeOr } from "./scope.ts";
import { stageLine } from "./runLog.ts";
import type { StageOptions } from "./types.ts";
import { checkOptions } from "./callOptions.ts";

const STAGE_NAME = /^[a-z][a-z0-9-]*$/;
const never = new Promise<never>(() => {});
/** The reason every scope is cancelled with as an attempt ends (engine.ts). */
export const ATTEMPT_ENDED = "the attempt ended";

export async function stage(
  attempt: AttemptWithParts,
  name: string,
  optionsOrWork: StageOptions<TSchema> | (() => Promise<unknown>),
  maybeWork?: () => Promise<unknown>,
): Promise<unknown> {
  const options = typeof optionsOrWork === "function" ? undefined : optionsOrWork;
  const work = typeof optionsOrWork === "function" ? optionsOrWork : maybeWork;
  // Checked before the first await, so the refusal's stack starts at the workflow's call.
  if (typeof work !== "function") throw new TypeError(`stage ${name} needs a function to run`);
  if (options !== undefined) checkOptions(`stage ${name}`, "wf.stage", options);
  await attempt.unlessAbandoned();
  if (typeof name !== "string" || !STAGE_NAME.test(name)) {
    throw attempt.violate(`stage ${JSON.stringify(name)} is not a stage's name: lowercase letters, digits and '-'`);
  }
  if (attempt.openStage !== undefined) {
    throw attempt.violate(`stage ${name} was entered while stage ${attempt.openStage} is open`);
  }
  if (attempt.enteredStages.has(name)) throw attempt.violate(`stage ${name} was entered twice; a loop goes inside one stage`);
  attempt.enteredStages.add(name);
  // A continue reuses a succeeded record, or takes a value given for a stage before fromStage.
  const planned = attempt.continuation.enterStage(name, options?.result);
  if (planned) {
    // Reused or given, it runs no work, yet it is open as it is entered, as its work would keep it:
    // a stage entered beside it (a parallel sibling) breaks one-at-a-time as on a first attempt.
    attempt.openStage = name;
    try {
      await attempt.activity.whileBusy(() => new Promise<void>((resolve) => afterPendingCallbacks(resolve)));
    } finally {
      if (attempt.openStage === name) attempt.openStage = undefined;
    }
    return planned.value;
  }
  attempt.openStage = name;
  const started = attempt.nowIso();
  const waitsBefore = attempt.waitSequence;
  const record = (fields: Omit<StageRecord, "name" | "attempt" | "started" | "at">) => {
    const entry: StageRecord = { name, attempt: attempt.settings.attempt, started, at: attempt.nowIso(), ...fields };
    attempt.stages.push(entry);
    attempt.runLog.push(stageLine(entry, attempt.waitSequence - waitsBefore));
    return entry;
  };
  const scope = scopeOr(attempt.root).child({ stage: name });
  // The attempt may end while this stage is open (a parallel sibling threw, stopped or broke a
  // rule): the engine records it then, and its work, should it finish, goes no further.
  let closedByEnd = false;
  attempt.closeOpenStage = (outcome, reason) => {
    closedByEnd = true;
    attempt.closeOpenStage = undefined;
    attempt.openStage = undefined;
    const cutShort = scope.cancelReason?.reason;
    scope.dispose();
    // A completed attempt gives no reason: the stage's is what cancelled it (a parallel item failing).
    record({ outcome, reason: reason ?? (cutShort && cutShort !== ATTEMPT_ENDED ? cutShort : `the attempt ended while stage ${name} was open`) });
  };
  let value: unknown;
  try {
    value = await inScope(scope, work);
  } catch (error) {
    if (closedByEnd) return never;
    if (error instanceof StopSignal) {
      record({ outcome: "stopped", reason: error.reason });
    } else {
      scope.cancel(new CancelReason("cancelled", `stage ${name} failed: ${messageOf(error)}`));
      attempt.failedStage ??= name;
      record({ outcome: "failed", reason: messageOf(error) });
    }
    throw error;
  } finally {
    if (!closedByEnd) {
      scope.dispose();
      attempt.openStage = undefined;
      attempt.closeOpenStage = undefined;
    }
  }
  if (closedByEnd) return never;
  const fail = (message: string) => {
    attempt.failedStage ??= name;
    record({ outcome: "failed", reason: message });
    return attempt.violate(message);
  };
  let stored: JsonValue | undefined;
  if (options?.result) {
    if (value === undefined) throw fail(`stage ${name} returned nothing`);
    const why = whyNotJson(value);
    if (why) throw fail(`stage ${name}'s value is not JSON: ${why}`);
    stored = JSON.parse(JSON.stringify(value)) as JsonValue;
    const verdict = checkAnswer(options.result, JSON.stringify(stored));
    if (!verdict.accepted) throw fail(`stage ${name}'s value does not fit its result: ${verdict.error}`);
  } else if (value !== undefined) {
    throw fail(`stage ${name} has no result schema, so it returns nothing`);
  }
  let summary: string | undefined;
  if (options?.summary) {
    try {
      summary = String(options.summary(stored as never));
    } catch (error) {
      attempt.settings.onLog?.({ message: `awf: stage ${name}'s summary failed: ${messageOf(error)}` });
    }
  }
  record({
    outcome: "succeeded",
    ...(summary !== undefined ? { summary } : {}),
    ...(stored !== undefined ? { value: stored } : {}),
  });
  return stored;
}

export function stop(attempt: AttemptWithParts, reason: string): never {
  const stageName = scopeOr(attempt.root).stage;
  attempt.stopRequested ??= { reason: String(reason), ...(stageName ? { stage: stageName } : {}) };
  throw new StopSignal(String(reason), stageName);
}
