// One place and one code per failure, everywhere: over every file of examples/mistakes and a file
// with one failure of each kind (fixtures/locations/everyKind.test.ts), each reporter of
// `turnlens test` (run alone, in a child process) and the language server's diagnostics (over the
// protocol) name the same file:line:col and code for every failure.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PROBLEM_CODES } from "../../core/testing/problemCodes.ts";
import type { ProblemCode } from "../../core/testing/trace.ts";
import { TestServer } from "../server/harness.ts";
import { FIXTURES, ROOT, SLOW, turnlens } from "./harness.ts";

const MISTAKES = join(ROOT, "examples", "mistakes");
const FILES = [
  ...readdirSync(MISTAKES)
    .filter((file) => file.endsWith(".test.ts"))
    .sort()
    .map((file) => join(MISTAKES, file)),
  join(FIXTURES, "locations", "everyKind.test.ts"),
];
const ARGS = FILES.map((file) => relative(ROOT, file));

/** `path:line:col code`, one per failure, sorted. */
type Places = string[];

const AT = /^(\S+:\d+:\d+) ([A-Za-z-]+)$/;

function xmlText(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** What each reporter prints, read back as places: where each failure is and its code. */
const READERS: Record<string, (stdout: string) => Places> = {
  // `  at path:line:col code` under each FAIL title.
  default: (stdout) => stdout.split("\n").flatMap((line) => (/^ {2}at /.test(line) && AT.test(line.slice(5)) ? [line.slice(5)] : [])),
  // A failure's body starts with its `path:line:col code` lines.
  junit: (stdout) =>
    [...stdout.matchAll(/<failure [^>]*>([\s\S]*?)<\/failure>/g)].flatMap((match) => {
      const lines = xmlText(match[1]!).split("\n");
      const places: string[] = [];
      for (const line of lines) {
        if (!AT.test(line)) break;
        places.push(line);
      }
      return places;
    }),
  // `at` and `code` in each YAML block, and `also` for a test's other failures.
  tap: (stdout) => {
    const places: string[] = [];
    let at: string | undefined;
    for (const line of stdout.split("\n")) {
      const field = /^\s+(at|code|also): (".*")$/.exec(line);
      if (!field) continue;
      const value = JSON.parse(field[2]!) as string;
      if (field[1] === "at") at = value;
      else if (field[1] === "code") places.push(`${at} ${value}`);
      else places.push(...value.split("; "));
    }
    return places;
  },
  // `::error file=…,line=…,col=…,title=test (code)::message`.
  "github-actions": (stdout) =>
    [...stdout.matchAll(/^::error file=([^,]+),line=(\d+),col=(\d+),title=.*?\(([a-z-]+)\)::/gm)].map((match) => `${match[1]}:${match[2]}:${match[3]} ${match[4]}`),
  // `FAIL path:line:col code`.
  agent: (stdout) => stdout.split("\n").flatMap((line) => (line.startsWith("FAIL ") ? [line.slice(5)] : [])),
  // Each failed test's `failures`, and a file's that could not run.
  json: (stdout) => {
    const document = JSON.parse(stdout) as {
      files: Array<{ tests: Array<{ failures?: Array<{ code: string; location?: { file: string; line: number; column: number } }> }> }>;
    };
    return document.files.flatMap((file) =>
      file.tests.flatMap((t) =>
        (t.failures ?? []).map(
          (failure) => `${failure.location ? `${relative(ROOT, failure.location.file)}:${failure.location.line}:${failure.location.column}` : "?"} ${failure.code}`,
        ),
      ),
    );
  },
};

/** The codes a problem of which is shown in several places (each glob key, each entry never reached): the first is the reporters'. */
const SEVERAL_PLACES = new Set(
  (Object.keys(PROBLEM_CODES) as ProblemCode[]).filter((code) => ["globKeys", "unreachedEntries", "inFlightEntries"].includes(PROBLEM_CODES[code].placement)),
);

async function serverPlaces(): Promise<Places> {
  const server = await TestServer.started();
  try {
    const places: string[] = [];
    for (const file of FILES) {
      const { diagnostics } = await server.openAndRun(file, readFileSync(file, "utf8"));
      for (const diagnostic of diagnostics.diagnostics) {
        places.push(`${relative(ROOT, file)}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1} ${diagnostic.code}`);
      }
    }
    return places;
  } finally {
    server.dispose();
  }
}

const sorted = (places: Places) => [...places].sort();

describe("every failure has one place and one code, in every reporter and in the editor", () => {
  test(
    "the default, junit, tap, github-actions, agent and json reporters and the server's diagnostics name the same file:line:col and code for each failure",
    async () => {
      const byReporter: Record<string, Places> = {};
      for (const [reporter, read] of Object.entries(READERS)) {
        const result = await turnlens([...ARGS, "--reporter", reporter], ROOT);
        expect(result.code).toBe(1);
        byReporter[reporter] = sorted(read(result.stdout));
      }
      const agent = byReporter.agent!;
      // Every kind is there: a failure of each file and each test of everyKind.test.ts.
      expect(agent.length).toBeGreaterThanOrEqual(FILES.length - 1 + 16);
      for (const [reporter, places] of Object.entries(byReporter)) expect({ reporter, places }).toEqual({ reporter, places: agent });
      // The server shows a problem of several places on each; its others are the extra places of those problems.
      const server = sorted(await serverPlaces());
      const extra = server.filter((place) => !agent.includes(place));
      expect({
        missing: agent.filter((place) => !server.includes(place)),
        extraOfOneProblem: extra.every((place) => SEVERAL_PLACES.has(place.split(" ")[1] as ProblemCode)),
      }).toEqual({
        missing: [],
        extraOfOneProblem: true,
      });
    },
    SLOW,
  );
});
