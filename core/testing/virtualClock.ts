// The test's run clock: it stands still until the run is idle with a timer to come, then jumps
// to that timer, so a two-day reminder takes no time.

import { afterPendingCallbacks, type Clock } from "../workflow/clock.ts";

interface VirtualTimer {
  due: number;
  order: number;
  callback: () => void;
}

export class VirtualClock implements Clock {
  private current: number;
  private readonly timers = new Set<VirtualTimer>();
  private order = 0;

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(milliseconds: number, callback: () => void): () => void {
    const timer: VirtualTimer = { due: this.current + Math.max(0, milliseconds), order: ++this.order, callback };
    // A timer already due fires as a real zero-delay timer would, without moving the clock.
    if (timer.due <= this.current) {
      let cancelled = false;
      afterPendingCallbacks(() => cancelled || callback());
      return () => (cancelled = true);
    }
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** When the earliest timer is due, if any. */
  nextDue(): number | undefined {
    let earliest: number | undefined;
    for (const timer of this.timers) if (earliest === undefined || timer.due < earliest) earliest = timer.due;
    return earliest;
  }

  /** Moves the clock to `time`, firing every timer due by then in due order. */
  advanceTo(time: number): void {
    for (;;) {
      const due = [...this.timers].filter((timer) => timer.due <= time).sort((a, b) => a.due - b.due || a.order - b.order);
      const first = due[0];
      if (!first) break;
      this.timers.delete(first);
      this.current = Math.max(this.current, first.due);
      first.callback();
    }
    this.current = Math.max(this.current, time);
  }
}
