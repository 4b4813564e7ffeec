// References to builtins saved when the worker's bundle loads, before any test file runs: the
// runner's own bookkeeping (its maps, its checks, its messages to the pool) calls these, so a test
// that spies on or replaces `Map.prototype.get`, `Function.prototype.call` or `JSON.stringify` cannot
// change what the runner counts or reports (Node's own "primordials" do the same for its internals).

const uncurryThis =
  <T, A extends unknown[], R>(fn: (this: T, ...args: A) => R) =>
  (self: T, ...args: A): R =>
    ReflectApply(fn, self, args);

export const ReflectApply = Reflect.apply;
export const ReflectOwnKeys = Reflect.ownKeys;
export const ReflectDefineProperty = Reflect.defineProperty;
export const ReflectDeleteProperty = Reflect.deleteProperty;
export const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
export const ObjectHasOwn = Object.hasOwn;
export const ObjectIs = Object.is;
export const ObjectKeys = Object.keys;
export const ArrayIsArray = Array.isArray;
export const JSONStringify = JSON.stringify;
export const StringConstructor = String;
export const NumberIsFinite = Number.isFinite;
export const SymbolKeyFor = Symbol.keyFor;
export const StringPrototypeStartsWith = uncurryThis(String.prototype.startsWith) as (self: string, search: string) => boolean;
export const ArrayPrototypePush = uncurryThis(Array.prototype.push) as (self: unknown[], ...items: unknown[]) => number;
export const ArrayPrototypeJoin = uncurryThis(Array.prototype.join) as (self: unknown[], separator?: string) => string;
export const FunctionPrototypeBind = uncurryThis(Function.prototype.bind) as <F>(fn: F, self: unknown) => F;

/**
 * The timers and clock as they were at load: the runner's timeouts and waits use these, so a test's
 * fake timers (`vi.useFakeTimers`, which replace the globals) never stop the runner's own.
 */
export const realTimers = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setImmediate: globalThis.setImmediate,
};
export const performanceNow = FunctionPrototypeBind(performance.now, performance);

const mapMethods = { get: Map.prototype.get, set: Map.prototype.set, has: Map.prototype.has, delete: Map.prototype.delete };
const setMethods = { add: Set.prototype.add, has: Set.prototype.has, delete: Set.prototype.delete };

/**
 * A Map whose get/set/has/delete are the ones saved at load: a spy on `Map.prototype.get` (the
 * `spy-hides-failures` case, which made every file after it declare 0 tests) does not reach it.
 */
export class SafeMap<K, V> extends Map<K, V> {}
for (const [name, method] of [
  ["get", mapMethods.get],
  ["set", mapMethods.set],
  ["has", mapMethods.has],
  ["delete", mapMethods.delete],
] as const) {
  ReflectDefineProperty(SafeMap.prototype, name, { value: method, writable: false, configurable: false, enumerable: false });
}

/** A Set whose add/has/delete are the ones saved at load (see SafeMap). */
export class SafeSet<T> extends Set<T> {}
for (const [name, method] of [
  ["add", setMethods.add],
  ["has", setMethods.has],
  ["delete", setMethods.delete],
] as const) {
  ReflectDefineProperty(SafeSet.prototype, name, { value: method, writable: false, configurable: false, enumerable: false });
}

/**
 * JSON text of plain data (what the worker sends: objects, arrays, strings, numbers, booleans,
 * null), read through own enumerable keys only and never through `toJSON`, with the saved
 * functions: a test that set `Object.prototype.toJSON` or replaced `JSON.stringify` cannot change it.
 */
export function safeJson(value: unknown): string {
  if (value === null) return "null";
  const type = typeof value;
  if (type === "string") return JSONStringify(value);
  if (type === "number") return NumberIsFinite(value as number) ? JSONStringify(value) : "null";
  if (type === "boolean") return value ? "true" : "false";
  if (type !== "object") return "null";
  const parts: string[] = [];
  if (ArrayIsArray(value)) {
    const list = value as unknown[];
    for (let index = 0; index < list.length; index++) {
      const item = list[index];
      const itemType = typeof item;
      ArrayPrototypePush(parts, item === undefined || itemType === "function" || itemType === "symbol" ? "null" : safeJson(item));
    }
    return `[${ArrayPrototypeJoin(parts, ",")}]`;
  }
  const keys = ObjectKeys(value as object);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const descriptor = ObjectGetOwnPropertyDescriptor(value, key);
    if (!descriptor || !ObjectHasOwn(descriptor, "value")) continue;
    const item = descriptor.value;
    const itemType = typeof item;
    if (item === undefined || itemType === "function" || itemType === "symbol") continue;
    ArrayPrototypePush(parts, `${JSONStringify(key)}:${safeJson(item)}`);
  }
  return `{${ArrayPrototypeJoin(parts, ",")}}`;
}
