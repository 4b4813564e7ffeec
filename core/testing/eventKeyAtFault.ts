// Which key of an `events` element a problem about that element is at fault for, by the element's
// keys as written: the language server (server/views/runView.ts) and every `turnlens test` reporter
// (core/execution/failureLocation.ts) place the problem there, so both name the same place.
import type { ProblemTrace } from "./trace.ts";

/** The keys an `events` element takes. */
const EVENT_KEYS = new Set(["during", "after", "name", "data", "eventId"]);

/**
 * The key the problem is about, or undefined for the whole element: an event never sent is its
 * turn's fault (`during`/`after`); an element refused for its turn names the turn, the second
 * when both are given, else a key the element does not take (a misspelled `durring`).
 */
export function eventKeyAtFault(problem: Pick<ProblemTrace, "code">, keys: readonly string[]): string | undefined {
  const times = keys.filter((key) => key === "during" || key === "after");
  if (problem.code === "event-never-sent") return times[0];
  // An element with no name is refused whole.
  if (problem.code !== "option-invalid" || !keys.includes("name")) return undefined;
  return times.length > 0 ? times[times.length - 1] : keys.find((key) => !EVENT_KEYS.has(key));
}
