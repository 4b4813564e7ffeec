// The `.env` files Vite reads for a test run (mode "test"): `.env`, `.env.local`, `.env.test`,
// `.env.test.local` in the project's folder, later files winning, and only the variables named
// with Vite's prefix `VITE_`, which is what Vitest puts in a test file's `import.meta.env`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The files, in the order they are read (a later one wins), as Vite's loadEnv for mode "test". */
export const DOT_ENV_FILES = [".env", ".env.local", ".env.test", ".env.test.local"] as const;

/** Vite's default `envPrefix`: only these variables of a `.env` file reach the tests. */
const PREFIX = "VITE_";

/** The `VITE_` variables the folder's `.env` files set (a file that is not there sets none). */
export function readDotEnv(folder: string): Record<string, string> {
  const found: Record<string, string> = {};
  // One listing of the folder, read before each test file, rather than four failed opens and their errors.
  let names: Set<string>;
  try {
    names = new Set(readdirSync(folder));
  } catch {
    return found;
  }
  for (const name of DOT_ENV_FILES) {
    if (!names.has(name)) continue;
    let text: string;
    try {
      text = readFileSync(join(folder, name), "utf8");
    } catch {
      continue;
    }
    for (const [key, value] of Object.entries(parseDotEnv(text))) if (key.startsWith(PREFIX)) found[key] = value;
  }
  return found;
}

/**
 * dotenv's format: `KEY=value` a line (`export ` before it allowed), `#` comments, values in single,
 * double or back quotes (double ones read `\n` as a newline, and may span lines), an unquoted value
 * trimmed and cut at ` #`. Variables are not expanded (`${OTHER}` stays as written).
 */
export function parseDotEnv(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  const line = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*("(?:\\[\s\S]|[^"\\])*"|'[^']*'|`[^`]*`|[^\n#]*)/gm;
  for (const match of text.replace(/\r\n?/g, "\n").matchAll(line)) {
    const key = match[1]!;
    const raw = match[2]!.trim();
    const quote = raw[0];
    if ((quote === '"' || quote === "'" || quote === "`") && raw.endsWith(quote) && raw.length >= 2) {
      const inner = raw.slice(1, -1);
      found[key] =
        quote === '"'
          ? inner
              .replace(/\\n/g, "\n")
              .replace(/\\r/g, "\r")
              .replace(/\\(["\\])/g, "$1")
          : inner;
    } else found[key] = raw;
  }
  return found;
}
