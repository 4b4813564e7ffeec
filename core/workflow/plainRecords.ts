// Records a run keeps by the thousand (run lines, a test's turns and traces) made by a constructor
// whose instances are plain objects: the same prototype, keys and printing as a literal's.

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
