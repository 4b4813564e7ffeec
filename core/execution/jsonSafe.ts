// A test's report as it may cross IPC and go to the JSON reporters, whichever runner made it.

/** JSON-safe copy (reports cross IPC and go to JSON reporters); cycles become "[Circular]". */
export function jsonSafe<T>(value: T): T {
  const ancestors: object[] = [];
  const copy = (v: unknown): unknown => {
    if (typeof v === "bigint") return `${v}n`;
    if (typeof v === "function" || typeof v === "symbol") return undefined;
    if (typeof v === "number" && !Number.isFinite(v)) return String(v);
    if (typeof v !== "object" || v === null) return v;
    if (ancestors.includes(v)) return "[Circular]";
    const toJSON = (v as { toJSON?: () => unknown }).toJSON;
    if (typeof toJSON === "function" && !(v instanceof Error)) return copy(toJSON.call(v));
    ancestors.push(v);
    try {
      if (Array.isArray(v)) return v.map((x) => (x === undefined || typeof x === "function" || typeof x === "symbol" ? null : copy(x)));
      const out: Record<string, unknown> = {};
      for (const [key, x] of Object.entries(v)) {
        const c = copy(x);
        if (c !== undefined) out[key] = c;
      }
      return out;
    } finally {
      ancestors.pop();
    }
  };
  return copy(value) as T;
}
