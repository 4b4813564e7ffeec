// The refusal of a property a call doesn't take, with the nearest name it does: testWorkflow's
// options and every workflow API call share these words and this edit distance.

import { closest, distance } from "fastest-levenshtein";

export const quoted = (names: Iterable<string>) => [...names].map((name) => `"${name}"`).join(", ");

/** The nearest known name to a misspelt one, when it is near enough to be what was meant. */
export function suggestName(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lowered = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  if (lowered) return lowered;
  const nearest = closest(name, known as string[]);
  return distance(name, nearest) <= Math.max(2, Math.floor(name.length / 3)) ? nearest : undefined;
}

/** `<subject> takes no option "<name>"; did you mean "<nearest>"?`, or the names it takes when none is near. */
export function noSuchOption(subject: string, name: string, known: readonly string[]): { message: string; suggestion?: string } {
  const suggestion = suggestName(name, known);
  return suggestion
    ? { message: `${subject} takes no option "${name}"; did you mean "${suggestion}"?`, suggestion }
    : { message: `${subject} takes no option "${name}"; it takes ${quoted(known)}` };
}

/**
 * `did you mean "<nearest>"?` where a known name is near enough to be what was meant, else
 * `otherwise` (the names there are): the ending of every refusal of a name the run does not know.
 */
export function nearestOr(name: string, known: readonly string[], otherwise: string): string {
  const suggestion = suggestName(name, known);
  return suggestion ? `did you mean "${suggestion}"?` : otherwise;
}

/**
 * Throws a TypeError into the workflow for the first property of `given` that `known` lacks, so
 * a misspelt or ported name (`timeoutMs` for `timeout`) is never silently ignored. Anything not
 * a plain object is left to the call's own checks.
 */
export function refuseUnknownOptions(subject: string, given: unknown, known: readonly string[]): void {
  if (typeof given !== "object" || given === null || Array.isArray(given)) return;
  for (const name of Object.keys(given)) {
    if (!known.includes(name)) throw new TypeError(noSuchOption(subject, name, known).message);
  }
}
