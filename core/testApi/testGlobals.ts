// The standard globals a Bun test may use that an older supported Node lacks (Node 20 has none of
// these; Node 24 has them all): each is installed, before a test file loads, only where missing, so
// a test file sees the same language on every Node `engines.node` allows. docs/runner.md lists them.
import { types } from "node:util";

type AnyFunction = (...args: never[]) => unknown;

/** Defines `name` on `target` as the built-ins are (writable, configurable, not enumerable), unless it exists. */
function define(target: object, name: string, value: AnyFunction): void {
  if (name in target) return;
  Object.defineProperty(value, "name", { value: name, configurable: true });
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
}

function requireCallable(value: unknown, what: string): asserts value is AnyFunction {
  if (typeof value !== "function") throw new TypeError(`${what} is not a function`);
}

/** What the set methods read of their argument (the spec's GetSetRecord). */
interface SetRecord {
  size: number;
  has: (value: unknown) => boolean;
  keys: () => Iterator<unknown>;
}

function setRecordOf(other: unknown): SetRecord {
  if (typeof other !== "object" || other === null) throw new TypeError("the argument must be a set-like object (with size, has and keys)");
  const record = other as { size: unknown; has: unknown; keys: unknown };
  const size = Number(record.size);
  if (Number.isNaN(size)) throw new TypeError("the argument's size is not a number");
  if (size < 0) throw new RangeError("the argument's size is negative");
  const { has, keys } = record;
  requireCallable(has, "the argument's has");
  requireCallable(keys, "the argument's keys");
  return { size, has: (value) => Boolean((has as (value: unknown) => unknown).call(other, value)), keys: () => (keys as () => Iterator<unknown>).call(other) };
}

function* keysOf(record: SetRecord): Generator<unknown> {
  const iterator = record.keys();
  for (let step = iterator.next(); !step.done; step = iterator.next()) yield step.value;
}

function thisSet(value: unknown, method: string): Set<unknown> {
  if (!(value instanceof Set)) throw new TypeError(`Set.prototype.${method} called on something that is not a Set`);
  return value;
}

function installSetMethods(): void {
  const proto = Set.prototype as unknown as Record<string, unknown>;
  define(proto, "union", function (this: unknown, other: unknown) {
    const result = new Set(thisSet(this, "union"));
    for (const value of keysOf(setRecordOf(other))) result.add(value);
    return result;
  });
  define(proto, "intersection", function (this: unknown, other: unknown) {
    const set = thisSet(this, "intersection");
    const record = setRecordOf(other);
    const result = new Set();
    if (set.size <= record.size) for (const value of [...set]) record.has(value) && result.add(value);
    else for (const value of keysOf(record)) set.has(value) && result.add(value);
    return result;
  });
  define(proto, "difference", function (this: unknown, other: unknown) {
    const set = thisSet(this, "difference");
    const record = setRecordOf(other);
    const result = new Set(set);
    if (set.size <= record.size) for (const value of [...set]) record.has(value) && result.delete(value);
    else for (const value of keysOf(record)) result.delete(value);
    return result;
  });
  define(proto, "symmetricDifference", function (this: unknown, other: unknown) {
    const set = thisSet(this, "symmetricDifference");
    const result = new Set(set);
    for (const value of keysOf(setRecordOf(other))) {
      if (set.has(value)) result.delete(value);
      else result.add(value);
    }
    return result;
  });
  define(proto, "isSubsetOf", function (this: unknown, other: unknown) {
    const set = thisSet(this, "isSubsetOf");
    const record = setRecordOf(other);
    return set.size <= record.size && [...set].every((value) => record.has(value));
  });
  define(proto, "isSupersetOf", function (this: unknown, other: unknown) {
    const set = thisSet(this, "isSupersetOf");
    const record = setRecordOf(other);
    if (set.size < record.size) return false;
    for (const value of keysOf(record)) if (!set.has(value)) return false;
    return true;
  });
  define(proto, "isDisjointFrom", function (this: unknown, other: unknown) {
    const set = thisSet(this, "isDisjointFrom");
    const record = setRecordOf(other);
    if (set.size <= record.size) return [...set].every((value) => !record.has(value));
    for (const value of keysOf(record)) if (set.has(value)) return false;
    return true;
  });
}

function installGroupBy(): void {
  define(Object, "groupBy", (items: Iterable<unknown>, callback: (item: unknown, index: number) => PropertyKey) => {
    requireCallable(callback, "Object.groupBy's callback");
    const groups = Object.create(null) as Record<PropertyKey, unknown[]>;
    let index = 0;
    for (const item of items) {
      const key = callback(item, index++);
      const propertyKey = typeof key === "symbol" ? key : String(key);
      (groups[propertyKey] ??= []).push(item);
    }
    return groups;
  });
  define(Map, "groupBy", (items: Iterable<unknown>, callback: (item: unknown, index: number) => unknown) => {
    requireCallable(callback, "Map.groupBy's callback");
    const groups = new Map<unknown, unknown[]>();
    let index = 0;
    for (const item of items) {
      let key = callback(item, index++);
      if (Object.is(key, -0)) key = 0;
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
    return groups;
  });
}

function installPromiseStatics(): void {
  define(Promise, "withResolvers", function (this: PromiseConstructor) {
    let resolve!: (value: unknown) => void;
    let reject!: (reason: unknown) => void;
    const promise = new this((yes, no) => {
      resolve = yes;
      reject = no;
    });
    return { promise, resolve, reject };
  });
  define(Promise, "try", function (this: PromiseConstructor, callback: (...args: unknown[]) => unknown, ...args: unknown[]) {
    return new this((resolve) => resolve(callback(...args)));
  });
}

function installArrayFromAsync(): void {
  define(Array, "fromAsync", async (items: unknown, mapper?: (value: unknown, index: number) => unknown, thisArg?: unknown) => {
    if (mapper !== undefined) requireCallable(mapper, "Array.fromAsync's mapper");
    if (items === null || items === undefined) throw new TypeError("Array.fromAsync needs an async iterable, an iterable or an array-like");
    const result: unknown[] = [];
    const add = async (value: unknown) => result.push(mapper ? await mapper.call(thisArg, value, result.length) : value);
    const source = items as { [Symbol.asyncIterator]?: unknown; [Symbol.iterator]?: unknown; length?: unknown };
    if (typeof source[Symbol.asyncIterator] === "function") for await (const value of source as AsyncIterable<unknown>) await add(value);
    else if (typeof source[Symbol.iterator] === "function") for (const value of source as Iterable<unknown>) await add(await value);
    else
      for (let index = 0, length = Math.max(0, Math.trunc(Number(source.length)) || 0); index < length; index++) await add(await (source as ArrayLike<unknown>)[index]);
    return result;
  });
}

function installRegExpEscape(): void {
  const controlEscapes: Record<string, string> = { "\t": "t", "\n": "n", "\v": "v", "\f": "f", "\r": "r" };
  const hex = (code: number, width: number) => code.toString(16).padStart(width, "0");
  const escapeByCode = (char: string) =>
    char.length === 1 && char.charCodeAt(0) <= 0xff
      ? `\\x${hex(char.charCodeAt(0), 2)}`
      : [...Array(char.length).keys()].map((i) => `\\u${hex(char.charCodeAt(i), 4)}`).join("");
  define(RegExp, "escape", (text: unknown) => {
    if (typeof text !== "string") throw new TypeError("RegExp.escape needs a string");
    let escaped = "";
    // `for…of` walks code points; a lone surrogate comes alone.
    for (const char of text) {
      if (escaped === "" && /^[0-9A-Za-z]$/.test(char)) escaped += `\\x${hex(char.charCodeAt(0), 2)}`;
      else if ("^$\\.*+?()[]{}|/".includes(char)) escaped += `\\${char}`;
      else if (char in controlEscapes) escaped += `\\${controlEscapes[char]}`;
      else if (",-=<>#&!%:;@~'`\"".includes(char) || /^\s$/.test(char) || /^[\uD800-\uDFFF]$/.test(char)) escaped += escapeByCode(char);
      else escaped += char;
    }
    return escaped;
  });
}

function installErrorIsError(): void {
  define(Error, "isError", (value: unknown) => types.isNativeError(value));
}

/**
 * Iterator helpers: a global `Iterator` whose prototype is the one every built-in iterator (arrays',
 * maps', generators'…) inherits, with `map`, `filter`, `take`, `drop`, `flatMap`, `reduce`,
 * `toArray`, `forEach`, `some`, `every`, `find`, and `Iterator.from`.
 */
function installIteratorHelpers(): void {
  const globals = globalThis as Record<string, unknown>;
  if (typeof globals.Iterator === "function") return;
  const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as Record<string, unknown>;
  const Iterator = function Iterator(this: unknown) {
    if (new.target === undefined || new.target === Iterator) throw new TypeError("Iterator is an abstract class: extend it");
  } as unknown as { prototype: unknown; from?: unknown };
  Iterator.prototype = iteratorPrototype;
  Object.defineProperty(iteratorPrototype, "constructor", { value: Iterator, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(globals, "Iterator", { value: Iterator, writable: true, configurable: true, enumerable: false });

  /** The spec's GetIteratorDirect: `next` is read once. */
  const direct = (iterator: unknown): Iterable<unknown> & { close: () => void } => {
    if (typeof iterator !== "object" || iterator === null) throw new TypeError("an iterator helper was called on something that is not an object");
    const next = (iterator as { next: unknown }).next;
    requireCallable(next, "the iterator's next");
    const step = () => (next as () => IteratorResult<unknown>).call(iterator);
    return {
      [Symbol.iterator]: () => ({ next: step, return: () => ((iterator as { return?: () => unknown }).return?.call(iterator), { done: true, value: undefined }) }),
      close: () => void (iterator as { return?: () => unknown }).return?.call(iterator),
    };
  };
  const count = (limit: unknown, method: string) => {
    const number = Number(limit);
    if (Number.isNaN(number)) throw new RangeError(`Iterator.prototype.${method} needs a number`);
    const integer = Math.trunc(number);
    if (integer < 0) throw new RangeError(`Iterator.prototype.${method} needs a number of at least 0`);
    return integer;
  };
  const method = (name: string, body: AnyFunction) => define(iteratorPrototype, name, body);
  method("map", function (this: unknown, mapper: (value: unknown, index: number) => unknown) {
    requireCallable(mapper, "map's mapper");
    const source = direct(this);
    return (function* () {
      let index = 0;
      for (const value of source) yield mapper(value, index++);
    })();
  });
  method("filter", function (this: unknown, predicate: (value: unknown, index: number) => unknown) {
    requireCallable(predicate, "filter's predicate");
    const source = direct(this);
    return (function* () {
      let index = 0;
      for (const value of source) if (predicate(value, index++)) yield value;
    })();
  });
  method("take", function (this: unknown, limit: unknown) {
    const source = direct(this);
    const remaining = count(limit, "take");
    return (function* () {
      if (remaining === 0) return source.close();
      let taken = 0;
      for (const value of source) {
        yield value;
        if (++taken >= remaining) return source.close();
      }
    })();
  });
  method("drop", function (this: unknown, limit: unknown) {
    const source = direct(this);
    const skipping = count(limit, "drop");
    return (function* () {
      let index = 0;
      for (const value of source) if (index++ >= skipping) yield value;
    })();
  });
  method("flatMap", function (this: unknown, mapper: (value: unknown, index: number) => unknown) {
    requireCallable(mapper, "flatMap's mapper");
    const source = direct(this);
    return (function* () {
      let index = 0;
      for (const value of source) {
        const inner = mapper(value, index++);
        if (typeof inner === "string" || inner === null || typeof inner !== "object" || typeof (inner as Iterable<unknown>)[Symbol.iterator] !== "function") {
          throw new TypeError("flatMap's mapper must return an iterable object");
        }
        yield* inner as Iterable<unknown>;
      }
    })();
  });
  method("reduce", function (this: unknown, reducer: (accumulator: unknown, value: unknown, index: number) => unknown, ...initial: unknown[]) {
    requireCallable(reducer, "reduce's reducer");
    const iterator = direct(this)[Symbol.iterator]();
    let index = 0;
    let accumulator: unknown;
    if (initial.length > 0) accumulator = initial[0];
    else {
      const first = iterator.next();
      if (first.done) throw new TypeError("reduce of an empty iterator with no initial value");
      accumulator = first.value;
      index = 1;
    }
    for (let step = iterator.next(); !step.done; step = iterator.next()) accumulator = reducer(accumulator, step.value, index++);
    return accumulator;
  });
  method("toArray", function (this: unknown) {
    return [...direct(this)];
  });
  method("forEach", function (this: unknown, callback: (value: unknown, index: number) => void) {
    requireCallable(callback, "forEach's callback");
    let index = 0;
    for (const value of direct(this)) callback(value, index++);
  });
  method("some", function (this: unknown, predicate: (value: unknown, index: number) => unknown) {
    requireCallable(predicate, "some's predicate");
    let index = 0;
    for (const value of direct(this)) if (predicate(value, index++)) return true;
    return false;
  });
  method("every", function (this: unknown, predicate: (value: unknown, index: number) => unknown) {
    requireCallable(predicate, "every's predicate");
    let index = 0;
    for (const value of direct(this)) if (!predicate(value, index++)) return false;
    return true;
  });
  method("find", function (this: unknown, predicate: (value: unknown, index: number) => unknown) {
    requireCallable(predicate, "find's predicate");
    let index = 0;
    for (const value of direct(this)) if (predicate(value, index++)) return value;
    return undefined;
  });
  define(Iterator as unknown as object, "from", (value: unknown) => {
    const iterable = typeof value === "string" ? value : (value as { [Symbol.iterator]?: unknown } | null | undefined);
    const getIterator = iterable === null || iterable === undefined ? undefined : (iterable as { [Symbol.iterator]?: unknown })[Symbol.iterator];
    const iterator = typeof getIterator === "function" ? (getIterator as () => unknown).call(iterable) : value;
    if (iterator !== null && typeof iterator === "object" && Object.prototype.isPrototypeOf.call(iteratorPrototype, iterator)) return iterator;
    const source = direct(iterator);
    return (function* () {
      yield* source;
    })();
  });
}

let installed = false;

/** Installs every missing global above, once per process; natives are never replaced. */
export function installTestGlobals(): void {
  if (installed) return;
  installed = true;
  installPromiseStatics();
  installArrayFromAsync();
  installGroupBy();
  installSetMethods();
  installIteratorHelpers();
  installRegExpEscape();
  installErrorIsError();
}

/** The globals `installTestGlobals` serves where Node lacks them, as `Owner.name` (for docs and tests). */
export const TEST_GLOBALS = [
  "Promise.withResolvers",
  "Promise.try",
  "Array.fromAsync",
  "Object.groupBy",
  "Map.groupBy",
  "Set.prototype.union",
  "Set.prototype.intersection",
  "Set.prototype.difference",
  "Set.prototype.symmetricDifference",
  "Set.prototype.isSubsetOf",
  "Set.prototype.isSupersetOf",
  "Set.prototype.isDisjointFrom",
  "Iterator",
  "Iterator.from",
  "Iterator.prototype.map",
  "Iterator.prototype.filter",
  "Iterator.prototype.take",
  "Iterator.prototype.drop",
  "Iterator.prototype.flatMap",
  "Iterator.prototype.reduce",
  "Iterator.prototype.toArray",
  "Iterator.prototype.forEach",
  "Iterator.prototype.some",
  "Iterator.prototype.every",
  "Iterator.prototype.find",
  "RegExp.escape",
  "Error.isError",
] as const;
