// wf.allowance(harness): what is left of a harness's plan, read from the run's allowance source;
// a harness it has no data for reads `{ kind: "none" }`.

import type { Attempt } from "./attempt.ts";
import { harnessFacts, unknownHarness } from "./harnesses.ts";
import type { HarnessAllowance } from "./types.ts";

const NONE: HarnessAllowance = { kind: "none" };

export async function allowanceOf(attempt: Attempt, harness: string): Promise<HarnessAllowance> {
  await attempt.unlessAbandoned();
  if (typeof harness !== "string" || !harnessFacts(harness)) throw new TypeError(`wf.allowance: ${unknownHarness(String(harness))}`);
  const read = attempt.settings.allowance;
  const allowance = read ? await read(harness) : undefined;
  return structuredClone(allowance ?? NONE);
}

/** Why `value` is not a HarnessAllowance, or undefined when it is one. */
export function whyNotAllowance(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "it is not an object";
  const { kind, windows } = value as { kind?: unknown; windows?: unknown };
  if (kind === "none") return undefined;
  if (kind !== "plan") return `its kind is "none" or "plan", not ${JSON.stringify(kind)}`;
  if (!Array.isArray(windows)) return "a plan lists its windows";
  for (const window of windows) {
    const { name, left, resets } = (window ?? {}) as { name?: unknown; left?: unknown; resets?: unknown };
    if (typeof name !== "string") return "each window has a name";
    if (typeof left !== "number" || !(left >= 0 && left <= 1)) return `window "${name}" has a share left from 0 to 1, not ${JSON.stringify(left)}`;
    if (resets !== undefined && (typeof resets !== "string" || Number.isNaN(Date.parse(resets)))) {
      return `window "${name}" resets at an ISO time, not ${JSON.stringify(resets)}`;
    }
  }
  return undefined;
}
