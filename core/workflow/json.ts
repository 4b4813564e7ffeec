// JSON values: the check that args, results and stage values are plain JSON, and the canonical
// form schemas are compared in.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Why `value` is not a JSON value, or undefined when it is one. */
export function whyNotJson(value: unknown, path = "$", seen = new Set<object>()): string | undefined {
  if (value === null || typeof value === "boolean" || typeof value === "string") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${path} is ${value}, not a finite number`;
  if (typeof value !== "object") return `${path} is a ${typeof value}`;
  if (seen.has(value)) return `${path} is a cycle`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const why = whyNotJson(value[index], `${path}[${index}]`, seen);
        if (why) return why;
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      return `${path} is a ${value.constructor?.name ?? "class instance"}, not a plain object`;
    }
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) continue;
      const why = whyNotJson(child, `${path}.${key}`, seen);
      if (why) return why;
    }
    return undefined;
  } finally {
    seen.delete(value);
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
