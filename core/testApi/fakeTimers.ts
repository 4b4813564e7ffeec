// Fake timers and a mocked system time, as Vitest 4 wires @sinonjs/fake-timers (its FakeTimers
// class, read in vitest/dist): `vi.useFakeTimers`, the advance and run calls, `vi.setSystemTime`
// (Date alone when the timers are real), and bun's `setSystemTime`. The runner's own timeouts and
// the engine's clocks keep the real timers they saved at load (core/execution/primordials.ts).
import { type Clock, type Config, type FakeTimers as FakeTimersOfGlobal, withGlobal } from "@sinonjs/fake-timers";

/** What `vi.useFakeTimers(config)` takes: @sinonjs/fake-timers' install options. */
export type FakeTimerInstallOpts = Config;
type InstalledClock = Clock;

/** Vitest's `fakeTimers` defaults (its config's `fakeTimersDefaults`). */
const FAKE_TIMERS_DEFAULTS: FakeTimerInstallOpts = { loopLimit: 10_000, shouldClearNativeTimers: true };

// ---------------------------------------------------------------------------------------------
// Date alone (vi.setSystemTime with real timers): Vitest's copy of mockdate.

const RealDate = Date;
let mockedNow: number | null = null;

class MockDate extends RealDate {
  constructor(...args: unknown[]) {
    super();
    let date: Date;
    if (args.length === 0) date = mockedNow === null ? new RealDate() : new RealDate(mockedNow);
    else if (args.length === 1) date = new RealDate(args[0] as number);
    else {
      const [y, m, d, h, M, s, ms] = args as number[];
      date = new RealDate(y!, m!, d === undefined ? 1 : d, h || 0, M || 0, s || 0, ms || 0);
    }
    Object.setPrototypeOf(date, MockDate.prototype);
    // biome-ignore lint/correctness/noConstructorReturn: mockdate's way: a real Date of the mocked class
    return date;
  }
  static override now(): number {
    return new MockDate().valueOf();
  }
  static override parse(text: string): number {
    return RealDate.parse(text);
  }
  static override toString(): string {
    return RealDate.toString();
  }
}

function mockDate(date: Date): void {
  const copy = new RealDate(date.valueOf());
  if (Number.isNaN(copy.getTime())) throw new TypeError(`mockdate: The time set is an invalid date: ${date}`);
  globalThis.Date = MockDate as DateConstructor;
  mockedNow = copy.valueOf();
}

function resetDate(): void {
  globalThis.Date = RealDate;
}

// ---------------------------------------------------------------------------------------------

export type TimerTickMode = "manual" | "nextTimerAsync" | "interval";

/** Vitest's FakeTimers, on this process's global. */
class FakeTimers {
  private clock: InstalledClock | undefined;
  private fakingTime = false;
  private fakingDate: Date | null = null;
  private readonly fakeTimers: FakeTimersOfGlobal = withGlobal(globalThis);
  private userConfig: FakeTimerInstallOpts | undefined;
  private readonly realNow = RealDate.now;

  configure(config: FakeTimerInstallOpts | undefined): void {
    this.userConfig = config;
  }

  isFakeTimers(): boolean {
    return this.fakingTime;
  }

  useFakeTimers(): void {
    const fakeDate = this.fakingDate ?? RealDate.now();
    if (this.fakingDate) {
      resetDate();
      this.fakingDate = null;
    }
    if (this.fakingTime) this.clock?.uninstall();
    const toFake = Object.keys(this.fakeTimers.timers).filter((timer) => timer !== "nextTick" && timer !== "queueMicrotask");
    this.clock = this.fakeTimers.install({
      now: fakeDate,
      ...this.userConfig,
      toFake: (this.userConfig?.toFake ?? toFake) as FakeTimerInstallOpts["toFake"],
      ignoreMissingTimers: true,
    });
    this.fakingTime = true;
  }

  useRealTimers(): void {
    if (this.fakingDate) {
      resetDate();
      this.fakingDate = null;
    }
    if (this.fakingTime) {
      this.clock?.uninstall();
      this.fakingTime = false;
    }
  }

  private faked(): InstalledClock {
    if (!this.fakingTime || !this.clock) {
      throw new Error("A function to advance timers was called but the timers APIs are not mocked. Call `vi.useFakeTimers()` in the test file first.");
    }
    return this.clock;
  }

  clearAllTimers(): void {
    if (this.fakingTime) this.clock?.reset();
  }
  runAllTimers(): void {
    this.faked().runAll();
  }
  async runAllTimersAsync(): Promise<void> {
    await this.faked().runAllAsync();
  }
  runOnlyPendingTimers(): void {
    this.faked().runToLast();
  }
  async runOnlyPendingTimersAsync(): Promise<void> {
    await this.faked().runToLastAsync();
  }
  advanceTimersToNextTimer(steps = 1): void {
    const clock = this.faked();
    for (let i = steps; i > 0; i--) {
      clock.next();
      // Fire all timers at this point: https://github.com/sinonjs/fake-timers/issues/250
      clock.tick(0);
      if (clock.countTimers() === 0) break;
    }
  }
  async advanceTimersToNextTimerAsync(steps = 1): Promise<void> {
    const clock = this.faked();
    for (let i = steps; i > 0; i--) {
      await clock.nextAsync();
      clock.tick(0);
      if (clock.countTimers() === 0) break;
    }
  }
  advanceTimersByTime(ms: number): void {
    this.faked().tick(ms);
  }
  async advanceTimersByTimeAsync(ms: number): Promise<void> {
    await this.faked().tickAsync(ms);
  }
  advanceTimersToNextFrame(): void {
    this.faked().runToFrame();
  }
  runAllTicks(): void {
    this.faked().runMicrotasks();
  }
  setSystemTime(now?: number | string | Date): void {
    const date = now === undefined || now instanceof Date ? now : new RealDate(now);
    if (this.fakingTime) this.clock?.setSystemTime(date);
    else {
      this.fakingDate = date ?? new RealDate(this.getRealSystemTime());
      mockDate(this.fakingDate);
    }
  }
  getMockedSystemTime(): Date | null {
    return this.fakingTime && this.clock ? new RealDate(this.clock.now) : this.fakingDate;
  }
  getRealSystemTime(): number {
    return this.realNow();
  }
  getTimerCount(): number {
    return this.faked().countTimers();
  }
  setTimerTickMode(mode: TimerTickMode, interval?: number): void {
    const clock = this.faked() as InstalledClock & { setTickMode(config: { mode: string; delta?: number }): void };
    if (mode === "manual") clock.setTickMode({ mode: "manual" });
    else if (mode === "nextTimerAsync") clock.setTickMode({ mode: "nextAsync" });
    else if (mode === "interval") clock.setTickMode({ mode: "interval", ...(interval === undefined ? {} : { delta: interval }) });
    else throw new Error(`Invalid tick mode: ${String(mode)}`);
  }
  /** Bun's `setSystemTime()` with no time: back to the real date, timers as they were. */
  resetSystemTime(): void {
    if (this.fakingTime) this.clock?.setSystemTime(this.realNow());
    else if (this.fakingDate) {
      resetDate();
      this.fakingDate = null;
    }
  }
}

const timers = new FakeTimers();

/** The timer half of `vi` (and bun's `jest`): each chainable call returns the object it was called on, as Vitest's do. */
export const timerUtils = {
  useFakeTimers<Self>(this: Self, config?: FakeTimerInstallOpts): Self {
    timers.configure({ ...FAKE_TIMERS_DEFAULTS, ...config });
    timers.useFakeTimers();
    return this;
  },
  isFakeTimers: (): boolean => timers.isFakeTimers(),
  useRealTimers<Self>(this: Self): Self {
    timers.useRealTimers();
    return this;
  },
  runOnlyPendingTimers<Self>(this: Self): Self {
    timers.runOnlyPendingTimers();
    return this;
  },
  async runOnlyPendingTimersAsync<Self>(this: Self): Promise<Self> {
    await timers.runOnlyPendingTimersAsync();
    return this;
  },
  runAllTimers<Self>(this: Self): Self {
    timers.runAllTimers();
    return this;
  },
  async runAllTimersAsync<Self>(this: Self): Promise<Self> {
    await timers.runAllTimersAsync();
    return this;
  },
  runAllTicks<Self>(this: Self): Self {
    timers.runAllTicks();
    return this;
  },
  advanceTimersByTime<Self>(this: Self, ms: number): Self {
    timers.advanceTimersByTime(ms);
    return this;
  },
  async advanceTimersByTimeAsync<Self>(this: Self, ms: number): Promise<Self> {
    await timers.advanceTimersByTimeAsync(ms);
    return this;
  },
  advanceTimersToNextTimer<Self>(this: Self): Self {
    timers.advanceTimersToNextTimer();
    return this;
  },
  async advanceTimersToNextTimerAsync<Self>(this: Self): Promise<Self> {
    await timers.advanceTimersToNextTimerAsync();
    return this;
  },
  advanceTimersToNextFrame<Self>(this: Self): Self {
    timers.advanceTimersToNextFrame();
    return this;
  },
  getTimerCount: (): number => timers.getTimerCount(),
  setSystemTime<Self>(this: Self, time: number | string | Date): Self {
    timers.setSystemTime(time);
    return this;
  },
  getMockedSystemTime: (): Date | null => timers.getMockedSystemTime(),
  getRealSystemTime: (): number => timers.getRealSystemTime(),
  clearAllTimers<Self>(this: Self): Self {
    timers.clearAllTimers();
    return this;
  },
  setTimerTickMode<Self>(this: Self, mode: TimerTickMode, interval?: number): Self {
    timers.setTimerTickMode(mode, interval);
    return this;
  },
};

/**
 * Bun's `setSystemTime(time?)`: the date `Date` gives from now on (fake timers or not); with no
 * time (or time 0, as Bun documents), the real date again.
 */
export function setSystemTime(time?: number | string | Date): void {
  if (time === undefined || (time instanceof Date ? time.getTime() : time) === 0) timers.resetSystemTime();
  else timers.setSystemTime(time);
}

/**
 * Real timers and the real Date again, when a file ends (the runner calls it): as a file's
 * fake timers die with its worker under Vitest, they never reach the next file here.
 */
export function endFileTimers(): void {
  try {
    timers.useRealTimers();
  } catch {
    // What could not be put back is left to the builtins check (realmCheck.ts), which replaces the worker.
  }
}

/** For `vi.waitFor`: under fake timers each check moves them on by the interval, as Vitest's does. */
export function advanceFakeTimersBy(ms: number): void {
  if (timers.isFakeTimers()) timers.advanceTimersByTime(ms);
}
