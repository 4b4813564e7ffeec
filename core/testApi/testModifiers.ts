// The chainable modifiers of `test` and `describe` (`.only`, `.skip`, `.todo`, `.failing`, `.if`, …):
// one definition for the runner's own API (testApi.ts) and the Vitest plugin's `bun:test`
// (core/vitest/bunTest.ts), so the two can never chain differently.

export interface ModifierFlags {
  only: boolean;
  skip: boolean;
  todo: boolean;
  failing: boolean;
}

export const noModifierFlags: ModifierFlags = { only: false, skip: false, todo: false, failing: false };

export interface ModifierOptions<F> {
  /** Builds the chained function anew with changed flags. */
  make: (flags: F) => unknown;
  /** `.each(table)`: the rows' declarations, which differ for a test and a describe. */
  each: (table: unknown, ...values: unknown[]) => unknown;
  /** Only a test has `.failing`. */
  failing?: boolean;
}

/** `declare` with the modifiers attached, as enumerable properties like the object literals they replace. */
export function withModifiers<F extends ModifierFlags, T extends object>(declare: T, flags: F, options: ModifierOptions<F>): T {
  const { make } = options;
  const skipped = { ...flags, skip: true };
  const getter = (get: () => unknown): PropertyDescriptor => ({ get, enumerable: true, configurable: true });
  const value = (fn: (...args: never[]) => unknown): PropertyDescriptor => ({ value: fn, enumerable: true, configurable: true, writable: true });
  const modifiers: PropertyDescriptorMap = {
    only: getter(() => make({ ...flags, only: true })),
    skip: getter(() => make(skipped)),
    todo: getter(() => make({ ...flags, todo: true })),
    ...(options.failing ? { failing: getter(() => make({ ...flags, failing: true })) } : {}),
    // A file's tests run one at a time, under either runner.
    concurrent: getter(() => make(flags)),
    sequential: getter(() => make(flags)),
    if: value((condition: unknown) => make(condition ? flags : skipped)),
    runIf: value((condition: unknown) => make(condition ? flags : skipped)),
    skipIf: value((condition: unknown) => make(condition ? skipped : flags)),
    each: value(options.each),
  };
  return Object.defineProperties(declare, modifiers);
}
