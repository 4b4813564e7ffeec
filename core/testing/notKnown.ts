// Values not known before the run, so testWorkflow's option readers can be run on a test file's
// text as well as on the run's values: the editor hands them what the text makes certain, with
// these markers where it cannot tell. A run never holds one, so at run time every check here is
// the plain JavaScript check it stands for.

/** A value the text does not tell (a name, a call, a spread): `written` is its source text, as a problem quotes it. */
export class NotKnown {
  constructor(
    readonly written: string,
    /** What is certain of it all the same: a template is a string; a spread in a list may hold any number of items. */
    readonly certainly?: "a string" | "items",
  ) {}
}

/** On an object: a spread (or a computed name) may give names the text does not list. */
export const MAY_HOLD_MORE = Symbol.for("turnlens.may-hold-more");
/** On an object or list the text wrote: its source text, which a problem quotes when the value holds something not known. */
export const WRITTEN = Symbol.for("turnlens.written");

export const isNotKnown = (value: unknown): value is NotKnown => value instanceof NotKnown;

/** Whether the value may be anything: not known, and not even known to be a string. */
export const isOpaque = (value: unknown): boolean => isNotKnown(value) && value.certainly !== "a string";

export const mayHoldMore = (value: unknown): boolean => typeof value === "object" && value !== null && MAY_HOLD_MORE in value;

/** `typeof` the value, or undefined when it is not known. */
export function typeOf(value: unknown): string | undefined {
  if (isNotKnown(value)) return value.certainly === "a string" ? "string" : undefined;
  return typeof value;
}

/** Whether the value is certainly a plain object (not null, not a list): true, false, or undefined when not known. */
export function isObjectValue(value: unknown): boolean | undefined {
  const type = typeOf(value);
  if (type === undefined) return undefined;
  return type === "object" && value !== null && !Array.isArray(value);
}

/** Whether the object certainly gives the name a value: not undefined, and no marker that may be undefined. */
export function isCertainlyGiven(object: Record<string, unknown>, name: string): boolean {
  const value = object[name];
  return value !== undefined && !isOpaque(value);
}

/** Whether the object certainly reads the name as undefined: not given, and no spread that may give it. */
export function isCertainlyAbsent(object: Record<string, unknown>, name: string): boolean {
  return object[name] === undefined && (name in object || !mayHoldMore(object));
}

/** Whether a value holds something not known, anywhere inside it. */
export function holdsNotKnown(value: unknown): boolean {
  if (isNotKnown(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  if (mayHoldMore(value)) return true;
  return Object.values(value).some(holdsNotKnown);
}
