// The test's run clock: it stands still until the run is idle with a timer to come, then jumps
// to that timer, so a two-day reminder takes no time.

import { afterPendingCallbacks, type Clock } from "../workflow/clock.ts";

interface VirtualTimer {
  due: number;
  order: number;
  callback: () => void;
  cancelled: boolean;
}

export class VirtualClock implements Clock {
  private current: number;
  /** Pending timers, kept sorted by due time, then by when they were set. */
  private readonly timers: VirtualTimer[] = [];
  private order = 0;

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(milliseconds: number, callback: () => void): () => void {
    const timer: VirtualTimer = { due: this.current + Math.max(0, milliseconds), order: ++this.order, callback, cancelled: false };
    // A timer already due fires as a real zero-delay timer would, without moving the clock.
    if (timer.due <= this.current) {
      afterPendingCallbacks(() => timer.cancelled || callback());
      return () => (timer.cancelled = true);
    }
    // Binary insertion after every timer due no later: thousands of pending timers stay cheap.
    let low = 0;
    let high = this.timers.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.timers[middle]!.due <= timer.due) low = middle + 1;
      else high = middle;
    }
    this.timers.splice(low, 0, timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Moves the clock to `time`, firing every timer due by then in due order. */
  advanceTo(time: number): void {
    while (this.timers.length > 0 && this.timers[0]!.due <= time) {
      const first = this.timers.shift()!;
      if (first.cancelled) continue;
      this.current = Math.max(this.current, first.due);
      first.callback();
    }
    this.current = Math.max(this.current, time);
  }
}
