// The rows of `test.each` / `describe.each` and the names jest gives them, shared by the test API
// `turnlens test` serves (testApi.ts) and the one its Vitest plugin serves (core/vitest/bunTest.ts),
// so a row's test has the same name under both.
import { format as utilFormat, inspect } from "node:util";

/** The rows of a table: an array of rows, or a tagged template whose first line names the columns. */
export function rowsOf(table: unknown, values: unknown[]): unknown[] {
  if (Array.isArray(table) && "raw" in table) {
    // Tagged template: the first line names the columns, the values fill rows.
    const header = String((table as unknown as TemplateStringsArray)[0] ?? "");
    const keys = header
      .split("|")
      .map((k) => k.trim())
      .filter(Boolean);
    if (keys.length === 0) throw new Error("each`...`: the first line must name the columns, such as `a | b | expected`");
    if (values.length % keys.length !== 0) {
      throw new Error(`each\`...\`: ${values.length} values do not fill rows of ${keys.length} columns`);
    }
    const rows: Array<Record<string, unknown>> = [];
    for (let i = 0; i < values.length; i += keys.length) {
      const row: Record<string, unknown> = {};
      keys.forEach((k, j) => (row[k] = values[i + j]));
      rows.push(row);
    }
    return rows;
  }
  if (!Array.isArray(table)) throw new Error(".each() needs an array of rows");
  return table;
}

function pretty(value: unknown): string {
  return inspect(value, { depth: 3, breakLength: Infinity, colors: false });
}

function lookup(row: unknown, path: string): unknown {
  let value: unknown = row;
  for (const key of path.split(".")) {
    if (value === null || value === undefined) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** jest's names for each rows: printf placeholders for array rows, `$key` for object rows. */
export function formatEachName(name: string, row: unknown, index: number): string {
  let title = name.replace(/%#/g, String(index)).replace(/%\$/g, String(index + 1));
  if (Array.isArray(row)) {
    const args = [...row];
    title = title.replace(/%([sdifjopO%])/g, (match, code: string) => {
      if (code === "%") return "%";
      if (args.length === 0) return match;
      const value = args.shift();
      switch (code) {
        case "s":
          return typeof value === "string" ? value : pretty(value);
        case "d":
        case "i":
          return String(code === "i" ? Math.trunc(Number(value)) : Number(value));
        case "f":
          return String(Number(value));
        case "j":
          return JSON.stringify(value);
        default:
          return pretty(value);
      }
    });
    return title;
  }
  if (typeof row === "object" && row !== null) {
    return title.replace(/\$([A-Za-z_$][\w$]*(?:\.[\w$]+)*)/g, (_m, path: string) => {
      const value = lookup(row, path);
      return typeof value === "string" ? value : pretty(value);
    });
  }
  return title.includes("%") ? utilFormat(title, row) : title;
}

/** What a row passes to the test function: an array row spread, any other row as one argument. */
export function argsOfRow(row: unknown): unknown[] {
  return Array.isArray(row) ? row : [row];
}
