// The stall guard: real time with nothing starting or ending fails the test, so a stuck test
// fails with what was in flight rather than hanging.

import type { Clock } from "../workflow/clock.ts";

export class StallGuard {
  private cancelTimer: (() => void) | undefined;
  private stopped = false;
  /** When something last started or ended, on the guard's clock. */
  private lastPoke: number;

  constructor(
    private readonly clock: Clock,
    private readonly milliseconds: number,
    private readonly onStall: () => void,
  ) {
    this.lastPoke = clock.now();
    this.arm(milliseconds);
  }

  /** Something started or ended: the guard's time starts again. */
  poke(): void {
    // A poke only notes the time (it comes with every turn); the one timer, when it fires, waits
    // out what is left since the last poke, so no timer is set and cleared per activity.
    if (!this.stopped) this.lastPoke = this.clock.now();
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
  }

  private arm(milliseconds: number): void {
    this.cancelTimer = this.clock.setTimer(milliseconds, () => {
      if (this.stopped) return;
      const quiet = this.clock.now() - this.lastPoke;
      if (quiet < this.milliseconds) return this.arm(this.milliseconds - quiet);
      this.stop();
      this.onStall();
    });
  }
}
