// The one way the engine reads time. A run gets two clocks: `run` for wf.now() and workflow
// timers (virtual under test), `deadline` for deadlines and guards, which stay on real time.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Calls `callback` after `milliseconds`; the returned function cancels it. */
  setTimer(milliseconds: number, callback: () => void): () => void;
}

/** When something happened in an attempt: the run clock's time, and its place among the moments taken (the timeline orders by it). */
export interface Moment {
  at: number;
  step: number;
}

export interface RunClocks {
  run: Clock;
  deadline: Clock;
}

// Saved at load: a test that fakes timers or the date (`vi.useFakeTimers`, `vi.setSystemTime`)
// replaces the globals, and a run's deadlines, guards and virtual clock must keep real time.
const dateNow = Date.now;
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetImmediate = globalThis.setImmediate;

/** Real time: the only place in the engine that touches Date.now and setTimeout. */
export const realClock: Clock = {
  now: () => dateNow(),
  setTimer(milliseconds, callback) {
    const handle = realSetTimeout(callback, Math.max(0, milliseconds));
    return () => realClearTimeout(handle);
  },
};

export const realClocks: RunClocks = { run: realClock, deadline: realClock };

/** Calls `callback` once the callbacks already queued (promise reactions, I/O) have run. Not time. */
export function afterPendingCallbacks(callback: () => void): void {
  realSetImmediate(callback);
}
