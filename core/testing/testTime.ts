// Time in a test: the run's clock is virtual. When the run is idle with a timer to come, the test
// jumps to it (up to `maxTimers` times, then lets the run park); a kept-alive run gets its `after`
// events first.

import type { IdlePolicy } from "../workflow/idle.ts";
import type { ScriptedEvents } from "./scriptedEvents.ts";
import { VirtualClock } from "./virtualClock.ts";

export class TestTime {
  readonly clock: VirtualClock;
  /** Timers the clock skipped to. */
  skips = 0;

  constructor(
    start: number,
    private readonly maxTimers: number,
    private readonly events: ScriptedEvents,
    private readonly onActivity: () => void,
  ) {
    this.clock = new VirtualClock(start);
  }

  readonly policy: IdlePolicy = (idle) => {
    if (idle.keptAlive && this.events.sendAfter()) {
      this.onActivity();
      return "handled";
    }
    // One pass, not a sort: a run may have thousands of waits pending at once.
    let next: (typeof idle.waits)[number] | undefined;
    for (const wait of idle.waits) if (wait.until !== undefined && (next === undefined || wait.until < next.until!)) next = wait;
    if (!next) return "park";
    // A participant question's `until` is not a timer the workflow set: it expires without counting.
    const counted = next.kind !== "question";
    if (counted && this.skips >= this.maxTimers) return "park";
    if (counted) this.skips++;
    this.clock.advanceTo(next.until!);
    this.onActivity();
    return "handled";
  };
}
