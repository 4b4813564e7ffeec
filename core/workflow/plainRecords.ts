// Records a run keeps by the thousand (run lines, a test's turns and traces) made by a constructor
// whose instances are plain objects: the same prototype, keys and printing as a literal's; and a
// value such a record carries out of sight of its readers (privateSlot).

/**
 * A constructor of plain objects from `init`, which assigns the fields in the order they are to
 * have. Why not literals: V8 gives a literal room for its own fields only, so each field added
 * after (an optional one, a later `match` or `answer`) went to a backing store made and grown per
 * object; and a literal site whose objects all live long is "pretenured", made in the old
 * generation, where a dead record still holds what it points to through every young collection
 * until the next full one (a 1,000-turn test's young collections copied twice what it kept). A
 * constructor's objects get room for every field it has seen, and no such site. Its prototype is
 * `Object.prototype`, so `Object.getPrototypeOf`, `constructor`, `toStrictEqual` and printing
 * read each object as a literal.
 */
export function plainRecord<Args extends unknown[], Record extends object>(init: (this: Record, ...args: Args) => void): new (...args: Args) => Record {
  init.prototype = Object.prototype;
  return init as unknown as new (
    ...args: Args
  ) => Record;
}

/** Returns the object it is given, so that a subclass's private field is put on any object. */
class Carrier {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of the class: a subclass's field goes on `target`.
    return target;
  }
}

/** A value kept on objects as a private field: `put` attaches it, `get` finds it again. */
export interface PrivateSlot<Value> {
  put(target: object, value: Value): void;
  get(target: object): Value | undefined;
}

/**
 * A slot of its own (each call a class of its own, so a private name of its own) that keeps a value
 * on an object as a private field: no reader of the object's fields (keys, a spread copy, JSON, a
 * structured clone, printing) sees it, as with a WeakMap, but without a table entry made per object
 * and walked by every collection after (a 1,000-turn test's WeakMap.set was ~5% of it).
 */
export function privateSlot<Value>(): PrivateSlot<Value> {
  class Slot extends Carrier {
    #value: Value;
    constructor(target: object, value: Value) {
      super(target);
      this.#value = value;
    }
    static get(target: object): Value | undefined {
      return #value in target ? (target as Slot).#value : undefined;
    }
  }
  return {
    put: (target, value) => {
      new Slot(target, value);
    },
    get: (target) => Slot.get(target),
  };
}
