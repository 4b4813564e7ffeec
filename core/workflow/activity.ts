// What the run is doing right now: operations that are working (busy) and waits on time, events
// or people. When nothing works and something waits, the run is idle: the engine parks it, or a
// test moves its virtual clock, sends an event, or ends the attempt.

import { afterPendingCallbacks } from "./clock.ts";

export type WaitKind = "timer" | "event" | "question" | "keep-alive";

/** Something the workflow waits on that only time, an event or a person can end. */
export interface PendingWait {
  id: number;
  kind: WaitKind;
  label: string;
  /** When it ends by itself, in milliseconds on the run's clock; absent for none. */
  until?: number;
}

export interface IdleState {
  /** Every wait still pending, oldest first. */
  waits: readonly PendingWait[];
}

export class Activity {
  private busyCount = 0;
  private readonly pending = new Map<number, PendingWait>();
  private nextWaitId = 0;
  /** Bumped on every change, so an idle check can tell nothing moved while it yielded. */
  private changes = 0;
  private checkScheduled = false;
  private stopped = false;

  constructor(private readonly onIdle: (state: IdleState) => void) {}

  /** Marks work in progress until the returned function is called (once is enough). */
  busy(): () => void {
    this.busyCount++;
    this.changes++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.busyCount--;
      this.changed();
    };
  }

  /** Runs `work` counted as busy. */
  async whileBusy<T>(work: () => Promise<T> | T): Promise<T> {
    const done = this.busy();
    try {
      return await work();
    } finally {
      done();
    }
  }

  /** Registers a wait; the returned function removes it once it ended. */
  addWait(wait: Omit<PendingWait, "id">): { id: number; remove: () => void } {
    const id = ++this.nextWaitId;
    this.pending.set(id, { id, ...wait });
    this.changed();
    return {
      id,
      remove: () => {
        if (this.pending.delete(id)) this.changed();
      },
    };
  }

  get waits(): PendingWait[] {
    return [...this.pending.values()];
  }

  /** A number that moves whenever anything starts, ends or waits. */
  get generation(): number {
    return this.changes;
  }

  get isBusy(): boolean {
    return this.busyCount > 0;
  }

  /** Stops idle checks for good: the attempt is over. */
  stop(): void {
    this.stopped = true;
  }

  /** Looks again soon, for a caller that changed what idling would do (a keep-alive window closing). */
  recheck(): void {
    this.changed();
  }

  private changed(): void {
    this.changes++;
    if (this.stopped || this.checkScheduled || this.busyCount > 0 || this.pending.size === 0) return;
    this.checkScheduled = true;
    // Two hops after every pending callback: workflow code between engine calls runs in promise
    // callbacks, so a run still idle after them has nothing of its own left to do.
    const seen = this.changes;
    afterPendingCallbacks(() =>
      afterPendingCallbacks(() => {
        this.checkScheduled = false;
        if (this.stopped || this.busyCount > 0 || this.pending.size === 0) return;
        if (this.changes !== seen) return this.changed();
        this.onIdle({ waits: this.waits });
      }),
    );
  }
}
