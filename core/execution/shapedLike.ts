// A builtin function replaced by one that does something first keeps the original's shape: its
// name, its arity and what hangs off it (realpathSync.native, promisify's custom forms), which
// libraries read.

/** `replacement`, given `original`'s name, length and own properties; returned for assignment. */
export function shapedLike<T extends (...args: never[]) => unknown>(replacement: T, original: (...args: never[]) => unknown): T {
  for (const key of Reflect.ownKeys(original)) {
    if (key === "prototype") continue;
    Object.defineProperty(replacement, key, Reflect.getOwnPropertyDescriptor(original, key) as PropertyDescriptor);
  }
  return replacement;
}
