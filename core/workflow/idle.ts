// What an idle run does: a test may first act (send an event, move its virtual clock); then a
// run kept alive waits its window in real time for an event, and otherwise it parks.

import type { IdleState, PendingWait } from "./activity.ts";
import type { ParkedAt } from "./attempt.ts";
import type { AttemptWithParts } from "./attemptWithParts.ts";
import { messageOf } from "./errors.ts";

export interface IdleView extends IdleState {
  /** The workflow called keepAlive: the run would wait live for events before parking. */
  keptAlive: boolean;
}

/** Given the chance first: "handled" when it made something happen. */
export type IdlePolicy = (idle: IdleView) => "handled" | "park";

/** The wait a parked run names: the one due first, else the latest. */
export function parkingWait(waits: readonly PendingWait[]): ParkedAt {
  const timed = waits.filter((wait) => wait.until !== undefined).sort((a, b) => a.until! - b.until! || a.id - b.id);
  const chosen = timed[0] ?? [...waits].sort((a, b) => b.id - a.id)[0]!;
  return { label: chosen.label, ...(timed[0] ? { until: new Date(timed[0].until!).toISOString() } : {}) };
}

export function installIdleHandling(attempt: AttemptWithParts, policy: IdlePolicy | undefined): void {
  let cancelWindow: (() => void) | undefined;
  attempt.idleHandler = (state) => {
    cancelWindow?.();
    cancelWindow = undefined;
    const keep = attempt.inbox.keepAlive;
    if (policy?.({ ...state, keptAlive: keep !== undefined }) === "handled") return;
    if (!keep) return attempt.park(parkingWait(state.waits));
    const quietSince = attempt.activity.generation;
    cancelWindow = attempt.clocks.deadline.setTimer(keep.windowMs, () => {
      cancelWindow = undefined;
      // Something happened in the window: the next idle check starts a new one.
      if (attempt.activity.generation !== quietSince || attempt.activity.isBusy) return;
      void windowPassed(attempt, keep.onTimeout);
    });
  };
  attempt.onPark(() => cancelWindow?.());
}

async function windowPassed(attempt: AttemptWithParts, onTimeout: NonNullable<AttemptWithParts["inbox"]["keepAlive"]>["onTimeout"]): Promise<void> {
  if (onTimeout) {
    const agent = onTimeout.compact as unknown as { key?: string; compact?: (spec: { prompt: string }) => Promise<unknown> };
    try {
      if (typeof agent.compact === "function") await agent.compact({ prompt: onTimeout.prompt });
    } catch (error) {
      attempt.settings.onLog?.({ message: `awf: the keep-alive compaction of "${agent.key}" failed: ${messageOf(error)}` });
    }
  }
  const waits = attempt.activity.waits;
  if (!attempt.isAbandoned && waits.length > 0) attempt.park(parkingWait(waits));
}
