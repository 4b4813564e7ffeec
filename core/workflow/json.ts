// JSON values: the check that args, results and stage values are plain JSON, and the canonical
// form schemas are compared in.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Why `value` is not a JSON value, or undefined when it is one. */
export function whyNotJson(value: unknown, path = "$"): string | undefined {
  // Checked on every turn's answer and run line: the path is built only for the value that is
  // wrong, and the ancestors a cycle is looked for among are a list, not a Set made per call.
  if (value === null || typeof value === "boolean" || typeof value === "string") return undefined;
  const wrong = notJsonIn(value, []);
  if (!wrong) return undefined;
  let at = path;
  for (let index = wrong.segments.length - 1; index >= 0; index--) at += wrong.segments[index];
  return `${at}${wrong.tail}`;
}

/** What is wrong in `value`: the path's segments from the wrong value up (reversed), and what is wrong there. */
function notJsonIn(value: unknown, ancestors: object[]): { segments: string[]; tail: string } | undefined {
  if (value === null || typeof value === "boolean" || typeof value === "string") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : { segments: [], tail: ` is ${value}, not a finite number` };
  if (typeof value !== "object") return { segments: [], tail: ` is a ${typeof value}` };
  if (ancestors.includes(value)) return { segments: [], tail: " is a cycle" };
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const wrong = notJsonIn(value[index], ancestors);
        if (wrong) {
          wrong.segments.push(`[${index}]`);
          return wrong;
        }
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      return { segments: [], tail: ` is a ${value.constructor?.name ?? "class instance"}, not a plain object` };
    }
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const child = (value as Record<string, unknown>)[key];
      if (child === undefined) continue;
      const wrong = notJsonIn(child, ancestors);
      if (wrong) {
        wrong.segments.push(`.${key}`);
        return wrong;
      }
    }
    return undefined;
  } finally {
    ancestors.pop();
  }
}

function canonicalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalise);
  if (value === null || typeof value !== "object") return value;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    if (child === undefined) continue;
    result[key] = key === "required" && Array.isArray(child) ? [...child].sort() : canonicalise(child);
  }
  return result;
}

/** A schema as canonical JSON: keys sorted, `required` sorted, so declaration order doesn't matter. */
export function canonicalJson(schema: unknown): string {
  return JSON.stringify(canonicalise(JSON.parse(JSON.stringify(schema ?? null))));
}

/** The first line of a text, cut at `limit` characters with an ellipsis. */
export function firstLine(text: string, limit = 100): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}
