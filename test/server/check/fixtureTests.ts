// Server tests as table rows: one server for a test file, and one test per annotated fixture,
// opened in it, checked by the features the row names, its quick fixes applied, then closed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { SLOW, TestServer, type StartOptions } from "../harness.ts";
import { parseFixture } from "./annotations.ts";
import { checkActionResult, checkActions, rewritten } from "./checkActions.ts";
import { checkDiagnostics } from "./checkDiagnostics.ts";
import { checkHints } from "./checkHints.ts";
import { checkHovers } from "./checkHovers.ts";
import { checkLenses } from "./checkLenses.ts";
import { openFixture, type OpenedFixture, type WhileRunning } from "./openFixture.ts";

/** One server, started before the file's tests and disposed after them: call the result for it. */
export function serverForFile(options: StartOptions = {}): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await TestServer.started(options);
  });
  afterAll(() => server?.dispose());
  return () => {
    if (!server) throw new Error("serverForFile: the server is asked for before the file's tests started");
    return server;
  };
}

/** The features a row checks, in the order they are checked. */
const CHECKS = {
  diagnostics: async (opened: OpenedFixture) => checkDiagnostics(opened),
  actions: (opened: OpenedFixture) => checkActions(opened),
  hints: (opened: OpenedFixture) => checkHints(opened),
  lenses: (opened: OpenedFixture, normalize?: (text: string) => string) => checkLenses(opened, normalize ? { normalize } : {}),
  hovers: (opened: OpenedFixture, normalize?: (text: string) => string) => checkHovers(opened, normalize ? { normalize } : {}),
} satisfies Record<string, (opened: OpenedFixture, normalize?: (text: string) => string) => Promise<void>>;

export type Check = keyof typeof CHECKS;

/** One test: an annotated fixture and what is checked of it. */
export interface FixtureRow {
  /** The test's name. */
  name: string;
  /** Where the fixture is opened (it need not exist on disk, unless `onDisk`). */
  path: string;
  /** The fixture's text with its annotations. */
  fixture: string;
  /** Which features are compared with the annotations (checked in the order of CHECKS). */
  checks: Check[];
  /** The row's own server, started with these options before its test and disposed after it. */
  start?: StartOptions;
  /** What is done while the fixture's first run runs (once it started, before it ends). */
  during?: WhileRunning;
  /** The fixture's text, annotations taken out, must be the file's text at `path`. */
  onDisk?: boolean;
  /** Quick fixes applied: a title, then each `[from, to]` the fixture's text is rewritten with. */
  fixes?: Array<[title: string, ...replacements: Array<[string, string]>]>;
  /** Makes a clock time or a duration constant in hovers and lenses. */
  normalize?: (text: string) => string;
  /** What else the test asserts, after the checks. */
  also?: (opened: OpenedFixture) => Promise<void>;
}

/**
 * Registers a test per row, each opening its fixture in `server()` (or in a server of its own,
 * given `start`) and closing it after.
 */
export function fixtureTests(server: (() => TestServer) | null, rows: readonly FixtureRow[]): void {
  for (const row of rows) {
    test(
      row.name,
      async () => {
        if (!row.start) {
          if (!server) throw new Error(`fixtureTests: the row "${row.name}" has no server: give the table one, or the row \`start\``);
          return runRow(server(), row);
        }
        const own = await TestServer.started(row.start);
        try {
          await runRow(own, row);
        } finally {
          own.dispose();
        }
      },
      SLOW,
    );
  }
}

async function runRow(server: TestServer, row: FixtureRow): Promise<void> {
  if (row.checks.length === 0 && !row.also) throw new Error(`fixtureTests: the row "${row.name}" checks nothing`);
  if (row.fixes && !row.checks.includes("actions")) throw new Error(`fixtureTests: the row "${row.name}" applies fixes it does not check are offered`);
  if (row.onDisk) expect(parseFixture(row.fixture).text).toBe(readFileSync(row.path, "utf8"));
  const opened = await openFixture(server, row.path, row.fixture, row.during);
  for (const check of Object.keys(CHECKS) as Check[]) {
    if (!row.checks.includes(check)) continue;
    await CHECKS[check](opened, row.normalize);
    if (check === "actions") {
      for (const [title, ...replacements] of row.fixes ?? []) await checkActionResult(opened, title, rewritten(opened.fixture.text, ...replacements));
    }
  }
  await row.also?.(opened);
  await server.close(opened.uri);
}
