// jest's `replaceProperty`, which Vitest lacks: for the served test API and for the Vitest plugin's
// `bun:test`, each of which restores the replaced values when it restores its mocks.

/** What jest's `replaceProperty` returns. */
export interface Replaced<T> {
  restore(): void;
  replaceValue(value: T): Replaced<T>;
}
const replaced: Array<Replaced<unknown>> = [];

/** jest's `replaceProperty`, which Vitest lacks; `restoreReplacedProperties` puts the values back. */
export function replaceProperty<T extends object, K extends keyof T>(object: T, key: K, value: T[K]): Replaced<T[K]> {
  if (!(key in object)) throw new Error(`replaceProperty: the property ${String(key)} does not exist`);
  const original = object[key];
  object[key] = value;
  const handle: Replaced<T[K]> = {
    restore: () => {
      object[key] = original;
    },
    replaceValue: (next) => {
      object[key] = next;
      return handle;
    },
  };
  replaced.push(handle as Replaced<unknown>);
  return handle;
}

/** Every value `replaceProperty` replaced, put back, the last first. */
export function restoreReplacedProperties(): void {
  for (const handle of replaced.splice(0).reverse()) handle.restore();
}
