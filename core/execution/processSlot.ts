// One value per process that every copy of a module reaches: the CLI's entry and its code-cached
// bundle, and the language server's two bundles, each have their own copy of the modules they share,
// so what one copy leaves for another (the first worker, the process tree's account) is held on the
// process under a registered symbol, not in a module's variable.

export interface ProcessSlot<Value> {
  get(): Value | undefined;
  set(value: Value): void;
  /** The value, once: the slot is empty after. */
  take(): Value | undefined;
}

/** The slot named `name` (`turnlens.<name>` in the symbol registry). Nothing is added to the process until a value is set. */
export function processSlot<Value>(name: string): ProcessSlot<Value> {
  const key = Symbol.for(`turnlens.${name}`);
  const holder = globalThis as Record<symbol, unknown>;
  return {
    get: () => holder[key] as Value | undefined,
    set: (value) => {
      holder[key] = value;
    },
    take: () => {
      const value = holder[key] as Value | undefined;
      delete holder[key];
      return value;
    },
  };
}
