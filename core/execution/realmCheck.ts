// What a test file changed in its worker's builtins: the worker takes a picture of the standard
// prototypes, their constructors and the global names when it starts, compares after each file,
// puts back what changed (so its own last messages go out right), and the pool replaces the worker
// before the next file, with a warning on the file that changed them (docs/runner.md, Isolation).
import {
  ArrayPrototypePush,
  ObjectHasOwn,
  ObjectIs,
  ReflectApply,
  ObjectGetOwnPropertyDescriptor,
  ReflectDefineProperty,
  ReflectDeleteProperty,
  ReflectOwnKeys,
  SafeMap,
  SafeSet,
  StringConstructor,
  StringPrototypeStartsWith,
  SymbolKeyFor,
} from "./primordials.ts";

/** The objects whose own properties are compared, by the name a warning gives them. */
const WATCHED: ReadonlyArray<readonly [string, object]> = [
  ["Object", Object],
  ["Object.prototype", Object.prototype],
  ["Array", Array],
  ["Array.prototype", Array.prototype],
  ["Map", Map],
  ["Map.prototype", Map.prototype],
  ["Set", Set],
  ["Set.prototype", Set.prototype],
  ["Promise", Promise],
  ["Promise.prototype", Promise.prototype],
  ["Function", Function],
  ["Function.prototype", Function.prototype],
  ["String", String],
  ["String.prototype", String.prototype],
  ["Number", Number],
  ["Number.prototype", Number.prototype],
  ["RegExp", RegExp],
  ["RegExp.prototype", RegExp.prototype],
  ["Date", Date],
  ["Date.prototype", Date.prototype],
  ["Error", Error],
  ["Error.prototype", Error.prototype],
  ["JSON", JSON],
  ["Math", Math],
  ["Reflect", Reflect],
  ["globalThis", globalThis],
];

/** Properties of globalThis that change on their own (Node's lazy globals, the runner's own state). */
const GLOBALS_THAT_MOVE = new SafeSet<PropertyKey>(["_", "_error"]);

/** Globals the runner itself sets afresh before each file (the config's `define`, viteSettings.ts): never a file's leftover. */
export function globalsSetForEachFile(names: Iterable<string>): void {
  for (const name of names) GLOBALS_THAT_MOVE.add(name);
}

/**
 * Globals Node itself adds later: fetch's dispatcher (`Symbol.for("undici.globalDispatcher.1")` in
 * Node 20, `.2` in Node 24) appears when fetch's code first loads. The first one seen joins the
 * picture rather than being reported (which replaced the worker after every such file); a later
 * change of it (a test's mock dispatcher left behind) is reported as usual.
 */
function addedByNode(key: PropertyKey): boolean {
  if (typeof key !== "symbol") return false;
  const registered = SymbolKeyFor(key);
  return registered !== undefined && StringPrototypeStartsWith(registered, "undici.globalDispatcher.");
}

interface Properties {
  keys: PropertyKey[];
  descriptors: SafeMap<PropertyKey, PropertyDescriptor>;
}

type Picture = Array<{ name: string; target: object; properties: Properties }>;

let taken: Picture | undefined;

function pictureOf(target: object): Properties {
  const descriptors = new SafeMap<PropertyKey, PropertyDescriptor>();
  const keys = ReflectOwnKeys(target);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const descriptor = ObjectGetOwnPropertyDescriptor(target, key);
    if (descriptor) descriptors.set(key, descriptor);
  }
  return { keys, descriptors };
}

/** Takes the picture every later check compares with (once: the worker's start). */
export function pictureBuiltins(): void {
  if (taken) return;
  taken = [];
  for (let index = 0; index < WATCHED.length; index++) {
    const [name, target] = WATCHED[index]!;
    ArrayPrototypePush(taken, { name, target, properties: pictureOf(target) });
  }
}

function keyName(owner: string, key: PropertyKey): string {
  if (typeof key === "symbol") return `${owner}[${StringConstructor(key)}]`;
  return owner === "globalThis" ? `the global ${StringConstructor(key)}` : `${owner}.${StringConstructor(key)}`;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return (
    ObjectIs(a.value, b.value) && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable
  );
}

/**
 * Node's lazy globals (`AbortController`, `fetch`, …) are getters that, once read, turn into the
 * value they loaded: the getter, asked again, answers that same value. A test's assignment is not
 * that value (and the getter, asked, puts its own back, which the restore would do anyway).
 */
function loadedLazily(target: object, before: PropertyDescriptor, after: PropertyDescriptor): boolean {
  if (typeof before.get !== "function" || !ObjectHasOwn(after, "value")) return false;
  try {
    return ObjectIs(ReflectApply(before.get, target, []), after.value);
  } catch {
    return false;
  }
}

/**
 * What changed since the picture, each as a sentence's object ("Promise.prototype.then", "the
 * global fetch"), and each change put back where it can be (a property made non-configurable
 * cannot; the worker is replaced anyway). Empty when nothing changed or no picture was taken.
 */
export function changedBuiltins(): string[] {
  const changed: string[] = [];
  if (!taken) return changed;
  for (let index = 0; index < taken.length; index++) {
    const { name, target, properties } = taken[index]!;
    // One pass over the names there now, with no second picture: a name the picture lacks was
    // added, and if every name now was there before, fewer names now than then means some went.
    const keys = ReflectOwnKeys(target);
    let known = 0;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const before = properties.descriptors.get(key);
      if (before === undefined) {
        if (name === "globalThis" && GLOBALS_THAT_MOVE.has(key)) continue;
        const added = ObjectGetOwnPropertyDescriptor(target, key);
        if (name === "globalThis" && addedByNode(key) && added !== undefined) {
          properties.descriptors.set(key, added);
          ArrayPrototypePush(properties.keys, key);
          known++;
          continue;
        }
        ArrayPrototypePush(changed, `${keyName(name, key)} (added)`);
        ReflectDeleteProperty(target, key);
        continue;
      }
      known++;
      const after = ObjectGetOwnPropertyDescriptor(target, key);
      if (after !== undefined && !sameDescriptor(before, after) && !loadedLazily(target, before, after)) {
        ArrayPrototypePush(changed, keyName(name, key));
        ReflectDefineProperty(target, key, before);
      }
    }
    if (known === properties.keys.length) continue;
    for (let k = 0; k < properties.keys.length; k++) {
      const key = properties.keys[k]!;
      if (ObjectGetOwnPropertyDescriptor(target, key) !== undefined) continue;
      ArrayPrototypePush(changed, `${keyName(name, key)} (deleted)`);
      ReflectDefineProperty(target, key, properties.descriptors.get(key)!);
    }
  }
  return changed;
}
