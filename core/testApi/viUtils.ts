// The `vi` object `vitest` serves and the `jest` object `bun:test` serves, put together from their
// parts (spies.ts, fakeTimers.ts, stubs.ts, waitFor.ts); and what the runner undoes when a file ends.
import { viModules } from "./viModules.ts";
import { fileDefaultTimeout, setFileDefaultTimeout } from "./collector.ts";
import { endFileTimers, type FakeTimerInstallOpts, timerUtils } from "./fakeTimers.ts";
import { mockUtils, replaceProperty, restoreFileSpies, restoreReplacedProperties } from "./spies.ts";
import { endFileStubs, stubEnv, stubGlobal, unstubAllEnvs, unstubAllGlobals } from "./stubs.ts";
import { waitFor, waitUntil } from "./waitFor.ts";
import { changeRunnerConfig, type RunnerConfigChange, resetRunnerConfig } from "./runnerConfig.ts";

/** What `vi.setConfig` changes here: the tests' timeout, the fake timers' defaults, and the runner's `sequence` and `maxConcurrency`. */
export interface RuntimeConfig extends RunnerConfigChange {
  testTimeout?: number;
  fakeTimers?: FakeTimerInstallOpts;
}

let savedConfig: { testTimeout: number | undefined; fakeTimers: FakeTimerInstallOpts | undefined } | undefined;
let fakeTimersConfig: FakeTimerInstallOpts | undefined;

function makeVi() {
  const vi = {
    ...mockUtils,
    ...timerUtils,
    /** The config's `fakeTimers` (vi.setConfig) under the call's own options. */
    useFakeTimers<Self>(this: Self, config?: FakeTimerInstallOpts): Self {
      timerUtils.useFakeTimers.call(this, { ...fakeTimersConfig, ...config });
      return this;
    },
    waitFor,
    waitUntil,
    // Module mocks (vi.mock, doMock, hoisted, importActual, …): hoisting is the bundler's part (moduleMocks.ts).
    ...viModules,
    stubGlobal<Self>(this: Self, name: string | symbol | number, value: unknown): Self {
      stubGlobal(name, value);
      return this;
    },
    stubEnv<Self>(this: Self, name: string, value: string | boolean | undefined): Self {
      stubEnv(name, value);
      return this;
    },
    unstubAllGlobals<Self>(this: Self): Self {
      unstubAllGlobals();
      return this;
    },
    unstubAllEnvs<Self>(this: Self): Self {
      unstubAllEnvs();
      return this;
    },
    clearAllMocks<Self>(this: Self): Self {
      mockUtils.clearAllMocks();
      return this;
    },
    resetAllMocks<Self>(this: Self): Self {
      mockUtils.resetAllMocks();
      return this;
    },
    restoreAllMocks<Self>(this: Self): Self {
      mockUtils.restoreAllMocks();
      return this;
    },
    setConfig(config: RuntimeConfig): void {
      savedConfig ??= { testTimeout: fileDefaultTimeout(), fakeTimers: fakeTimersConfig };
      if (typeof config.testTimeout === "number") setFileDefaultTimeout(config.testTimeout);
      if (config.fakeTimers) fakeTimersConfig = { ...fakeTimersConfig, ...config.fakeTimers };
      changeRunnerConfig(config);
    },
    resetConfig(): void {
      resetRunnerConfig();
      if (!savedConfig) return;
      if (savedConfig.testTimeout !== undefined) setFileDefaultTimeout(savedConfig.testTimeout);
      fakeTimersConfig = savedConfig.fakeTimers;
      savedConfig = undefined;
    },
  };
  return vi;
}

/** vitest's `vi`. */
export const vi = makeVi();

/** jest's `jest` object as bun serves it: mocks, jest's `replaceProperty`, fake timers, bun's `setTimeout`. */
export const jest = {
  ...mockUtils,
  ...timerUtils,
  replaceProperty,
  restoreAllMocks: () => {
    mockUtils.restoreAllMocks();
    restoreReplacedProperties();
  },
  setTimeout: (ms: number) => setFileDefaultTimeout(ms),
};

/**
 * What a file's tests changed through the test API, undone when it ends (the runner calls it):
 * spies, replaced properties, fake timers and a mocked date, stubbed globals and variables. Under
 * Vitest a file's worker ends with it; a warm Turnlens worker runs the next file.
 */
export function endFileTestApi(): void {
  restoreFileSpies();
  restoreReplacedProperties();
  endFileTimers();
  endFileStubs();
  fakeTimersConfig = undefined;
  savedConfig = undefined;
}
