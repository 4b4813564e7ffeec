// What `vi.setConfig` changes in the runner that runs the file: @vitest/runner reads its config as
// it runs (`sequence.hooks` for each hook, `maxConcurrency`), as Vitest's `vi.setConfig` assigns
// the worker's config, which is its runner's. The runner (core/execution/vitestRunner.ts) listens.

/** The part of Vitest's runtime config a file may change with `vi.setConfig` and the runner reads. */
export interface RunnerConfigChange {
  sequence?: { hooks?: "stack" | "list" | "parallel"; shuffle?: boolean; concurrent?: boolean; seed?: number };
  maxConcurrency?: number;
}

let listener: ((change: RunnerConfigChange | undefined) => void) | undefined;

/** Set by a runner for the file it runs; undefined when it ends. `undefined` to the listener: `vi.resetConfig`. */
export function onRunnerConfig(next: ((change: RunnerConfigChange | undefined) => void) | undefined): void {
  listener = next;
}

/** `vi.setConfig`'s part for the runner (a runner that reads none, the bun one, ignores it). */
export function changeRunnerConfig(change: RunnerConfigChange): void {
  const picked: RunnerConfigChange = {};
  if (change.sequence !== undefined) picked.sequence = change.sequence;
  if (change.maxConcurrency !== undefined) picked.maxConcurrency = change.maxConcurrency;
  if (Object.keys(picked).length > 0) listener?.(picked);
}

/** `vi.resetConfig`: the runner's config as the file began. */
export function resetRunnerConfig(): void {
  listener?.(undefined);
}
