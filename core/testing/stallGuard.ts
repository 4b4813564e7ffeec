// The stall guard: real time with nothing starting or ending fails the test, so a stuck test
// fails with what was in flight rather than hanging.

import type { Clock } from "../workflow/clock.ts";

export class StallGuard {
  private cancelTimer: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly milliseconds: number,
    private readonly onStall: () => void,
  ) {
    this.poke();
  }

  /** Something started or ended: the guard's time starts again. */
  poke(): void {
    if (this.stopped) return;
    this.cancelTimer?.();
    this.cancelTimer = this.clock.setTimer(this.milliseconds, () => {
      this.stop();
      this.onStall();
    });
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
  }
}
