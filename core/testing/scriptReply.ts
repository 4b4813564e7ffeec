// What an answer entry gives an operation: its value, or what its function returned, raced
// against the operation's cancellation. Turns and compactions read the same replies; each words
// the problems in its own noun.

import { messageOf } from "../workflow/errors.ts";
import { firstUserFrame } from "./callSite.ts";
import { isAnswer, isNoAnswer, type Answer, type NoAnswer } from "./entries.ts";
import type { ProblemTrace, SourceSite } from "./trace.ts";
import type { Turn } from "./turn.ts";

export type ScriptReply =
  | { kind: "value"; value: unknown }
  | { kind: "no-answer"; entry: NoAnswer }
  /** The engine cancelled the operation while the function was still deciding. */
  | { kind: "cancelled" }
  /** A mistake of the script: the problem's code, its words, and where it threw. */
  | { kind: "mistake"; code: ProblemTrace["code"]; why: string; thrownAt?: SourceSite };

/** `signalOf` is asked only for a function's reply: a value needs no signal, and the engine makes one only when asked. */
export async function scriptReply(entry: Answer, turn: () => Turn, signalOf: () => AbortSignal): Promise<ScriptReply> {
  if (!entry.respond) return { kind: "value", value: entry.value };
  const signal = signalOf();
  const aborted = new Promise<"aborted">((resolve) => {
    if (signal.aborted) resolve("aborted");
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
  let given: unknown;
  try {
    const raced = await Promise.race([Promise.resolve(entry.respond(turn())).then((value) => ({ value })), aborted]);
    if (raced === "aborted") return { kind: "cancelled" };
    given = raced.value;
  } catch (error) {
    const thrownAt = error instanceof Error ? firstUserFrame(error) : undefined;
    return { kind: "mistake", code: "script-threw", why: `its script threw: ${messageOf(error)}`, ...(thrownAt ? { thrownAt } : {}) };
  }
  if (given === undefined) return { kind: "mistake", code: "script-returned-nothing", why: "its script returned nothing" };
  if (isAnswer(given)) {
    return { kind: "mistake", code: "script-returned-entry", why: "its script returned answer(…); a function returns the value itself" };
  }
  if (isNoAnswer(given)) return { kind: "no-answer", entry: given };
  return { kind: "value", value: given };
}
