// A runtime site's 1-based line and column become LSP's 0-based ones in one place,
// server/analysis/ranges.ts (`positionOfSite` and the site ranges and locations built on it): no
// other server file takes 1 off a line or a column by hand.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SERVER = join(ROOT, "server");
const RANGES = join(SERVER, "analysis", "ranges.ts");
/** `site.line - 1`, `column1Based - 1`, `opened.column-1`: a line or column made 0-based by hand. */
const BY_HAND = /\b\w*(?:line|column|Line|Column)\w*\s*-\s*1\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("range arithmetic", () => {
  test("no server file but analysis/ranges.ts turns a 1-based line or column into a 0-based one", () => {
    const byHand = sourceFiles(SERVER)
      .filter((file) => file !== RANGES)
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, index) => (BY_HAND.test(line) ? [`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(byHand).toEqual([]);
  });

  test("the check sees a conversion written by hand", () => {
    expect(["const line = call.site.line - 1;", "character: opened.column - 1", "line1Based - 1"].map((line) => BY_HAND.test(line))).toEqual([true, true, true]);
    expect(["lines.at(-1)", "line: line + 1", "document.lineCount"].map((line) => BY_HAND.test(line))).toEqual([false, false, false]);
  });
});
