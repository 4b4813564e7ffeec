// Durations as authors write them ("500ms", "5s", "2m", "1h30m", "2d") and as milliseconds.

const UNIT_MILLISECONDS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION_PATTERN = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/;
const PART_PATTERN = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;

export type Duration = string;

/** Milliseconds of a duration string, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DURATION_PATTERN.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(PART_PATTERN)) {
    total += Number(amount) * UNIT_MILLISECONDS[unit!]!;
  }
  return total;
}

/** Milliseconds of a duration string or a number of milliseconds; throws naming `what` otherwise. */
export function durationToMilliseconds(value: string | number, what: string): number {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === "string") {
    const parsed = parseDuration(value);
    if (parsed !== undefined) return parsed;
  }
  throw new TypeError(`${what} must be a duration such as "5s", not ${JSON.stringify(value)}`);
}

/** A short human form: 1500 → "1.5s", 250 → "250ms". */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1_000) return `${milliseconds}ms`;
  if (milliseconds < 60_000) return `${+(milliseconds / 1_000).toFixed(2)}s`;
  if (milliseconds < 3_600_000) return `${+(milliseconds / 60_000).toFixed(2)}m`;
  return `${+(milliseconds / 3_600_000).toFixed(2)}h`;
}
