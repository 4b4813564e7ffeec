// The timers @vitest/runner times tests and hooks with: the worker's own, saved before any test
// file runs and handed to the runner as Vitest's worker hands them (`setSafeTimers`), so a test's
// fake or replaced timers never stop a timeout; and a delay past what a Node timer holds (2^31 ms
// and more) waits as long as a timer can, where Node would fire it at once (docs/runner.md).
import { setSafeTimers } from "@vitest/utils/timers";
import { timerDelay } from "./limits.ts";

type Callback = (...args: unknown[]) => void;

/** Saves the worker's timers for @vitest/runner, with delays clamped to what a timer holds. Once, at the worker's start. */
export function giveRunnerItsTimers(): void {
  setSafeTimers();
  // setSafeTimers keeps its copy under a symbol of its own; its delays are clamped in place.
  const key = Object.getOwnPropertySymbols(globalThis).find((symbol) => symbol.description === "vitest:SAFE_TIMERS");
  const saved = key && ((globalThis as Record<symbol, unknown>)[key] as { setTimeout: typeof setTimeout; setInterval: typeof setInterval } | undefined);
  if (!saved) throw new Error("@vitest/utils's setSafeTimers kept no timers: its symbol changed");
  const { setTimeout: realSetTimeout, setInterval: realSetInterval } = saved;
  saved.setTimeout = ((callback: Callback, ms?: number, ...args: unknown[]) => realSetTimeout(callback, timerDelay(ms ?? 0), ...args)) as typeof setTimeout;
  saved.setInterval = ((callback: Callback, ms?: number, ...args: unknown[]) => realSetInterval(callback, timerDelay(ms ?? 0), ...args)) as typeof setInterval;
}
