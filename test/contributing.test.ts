// CONTRIBUTING.md against the code: every path it names exists, and every backticked name it gives is
// found in the files its paragraph names (or, when the paragraph names none, in some source file), so
// a recipe cannot keep pointing at a file or a symbol that moved or went away.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
/** Folders and files a path in the guide may start with. */
const PATH = /(?<![\w./-])((?:core|server|extension|tsPlugin|test|docs|bench|scripts|syntaxes|examples|bin|\.ci)\/[\w./-]*[\w/]|[\w-]+\.(?:md|json|mjs))(?![\w/])/g;
/** A bare file name (`hover.ts`), resolved against the repository's files by name. */
const BARE_FILE = /(?<![\w./-])([\w-]+\.(?:ts|mjs|js))(?![\w/])/g;
/** A backticked name: an identifier, maybe dotted, maybe called (`noAnswer.silent()`). */
const NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;
/** Names the guide gives that belong to tools, not to this repository: tsc's own options. */
const OUTSIDE_NAMES = new Set(["noImplicitAny"]);

/** The files git tracks, as paths from the root. */
function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
}

/** Paragraphs and list items, each one line of text (code blocks left out). */
function unitsOf(markdown: string): string[] {
  const units: string[] = [];
  let current: string[] = [];
  let inCode = false;
  const flush = () => {
    if (current.length > 0) units.push(current.join(" "));
    current = [];
  };
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) {
      flush();
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      units.push(line);
      continue;
    }
    if (line.trim() === "" || /^\s*(?:[-*]|\d+\.)\s/.test(line) || line.startsWith("#") || line.startsWith("|")) flush();
    if (line.trim() !== "") current.push(line.trim());
    if (line.startsWith("#") || line.startsWith("|")) flush();
  }
  flush();
  return units;
}

interface Problem {
  unit: string;
  what: string;
}

/** What the guide names that does not exist: paths, bare file names, and backticked names. */
function staleReferences(markdown: string, files: string[], read: (file: string) => string): string[] {
  const fileSet = new Set(files);
  const folders = new Set(
    files.flatMap((file) =>
      file
        .split("/")
        .slice(0, -1)
        .map((_, index, parts) => `${parts.slice(0, index + 1).join("/")}/`),
    ),
  );
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
  const sources = files.filter((file) => /\.(ts|mts|mjs|js|json)$/.test(file) && !file.startsWith("examples/"));
  const problems: Problem[] = [];
  for (const unit of unitsOf(markdown)) {
    const named = new Set<string>();
    const gone = new Set<string>();
    for (const [, path] of unit.matchAll(PATH)) {
      if (path === undefined || path.includes("<")) continue;
      const trimmed = path.replace(/\.$/, "");
      if (fileSet.has(trimmed) || folders.has(trimmed.endsWith("/") ? trimmed : `${trimmed}/`)) named.add(trimmed);
      else if (!existsSync(join(ROOT, trimmed))) {
        problems.push({ unit, what: `the path ${trimmed}` });
        gone.add(basename(trimmed));
      }
    }
    for (const [, name] of unit.matchAll(BARE_FILE)) {
      if (name === undefined || gone.has(name)) continue;
      const candidates = byName.get(name);
      if (candidates === undefined) problems.push({ unit, what: `the file ${name}` });
      else for (const file of candidates) named.add(file);
    }
    const namedFiles = [...named].filter((file) => fileSet.has(file) && /\.(ts|mts|mjs|js|json)$/.test(file));
    for (const [, token] of unit.matchAll(/`([^`]+)`/g)) {
      if (token === undefined || !NAME.test(token) || OUTSIDE_NAMES.has(token) || /\.(ts|mjs|js|json|md)$/.test(token)) continue;
      const segments = token.replace(/\(\)$/, "").split(".");
      const words = [segments[0]!, segments[segments.length - 1]!];
      const holds = (file: string) => words.every((word) => new RegExp(`(?<![\\w$])${word.replace(/\$/g, "\\$")}(?![\\w$])`).test(read(file)));
      const where = namedFiles.length > 0 ? namedFiles : sources;
      if (!where.some(holds)) problems.push({ unit, what: `\`${token}\`${namedFiles.length > 0 ? ` in ${namedFiles.join(", ")}` : ""}` });
    }
  }
  return problems.map(({ unit, what }) => `${what} (in "${unit.slice(0, 70)}…")`);
}

const cache = new Map<string, string>();
function readCached(file: string): string {
  let text = cache.get(file);
  if (text === undefined) cache.set(file, (text = existsSync(join(ROOT, file)) ? readFileSync(join(ROOT, file), "utf8") : ""));
  return text;
}

describe("CONTRIBUTING.md", () => {
  test("names only paths, files and symbols that exist, each symbol in a file its paragraph names", () => {
    expect(staleReferences(readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8"), trackedFiles(), readCached)).toEqual([]);
  });

  test("a gone path, a gone file and a symbol that left the file its paragraph names are each listed", () => {
    const guide = [
      "1. **The code**: add it to `ProblemCode` in core/testing/trace.ts.",
      "2. The editor's conversion: server/toProtocol.ts turns it (`Converter`), with server/handlers.ts.",
      "",
      "A reporter is named in `REPORTER_NAMES` (core/testing/trace.ts), read by gone.ts.",
    ].join("\n");
    expect(staleReferences(guide, trackedFiles(), readCached)).toEqual([
      'the path server/toProtocol.ts (in "2. The editor\'s conversion: server/toProtocol.ts turns it (`Converter`…")',
      'the path server/handlers.ts (in "2. The editor\'s conversion: server/toProtocol.ts turns it (`Converter`…")',
      'the file gone.ts (in "A reporter is named in `REPORTER_NAMES` (core/testing/trace.ts), read …")',
      '`REPORTER_NAMES` in core/testing/trace.ts (in "A reporter is named in `REPORTER_NAMES` (core/testing/trace.ts), read …")',
    ]);
  });
});
