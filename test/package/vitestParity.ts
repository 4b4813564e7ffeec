// Runs the same test files under `turnlens test` and under `vitest run` with the `turnlens/vitest`
// plugin, in a project folder where both are installed, and returns what each said of every test.
// test/runner/vitestParity.test.ts calls it on the repository's own build; a test of the packed
// tarball calls it in the folder the tarball is installed into.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { runNode } from "../runner/harness.ts";

export type Outcome = "passed" | "failed" | "skipped" | "todo";

/** Each test as `file > describe > … > test` (the file relative to the project), and its outcome. */
export type Outcomes = Record<string, Outcome>;

export interface ParityResult {
  /** The test files both ran, relative to the project. */
  files: string[];
  turnlens: Outcomes;
  vitest: Outcomes;
  /** Exit codes and output, to explain a difference. */
  runs: { turnlens: ProcessResult; vitest: ProcessResult };
}

export interface ProcessResult {
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ParityOptions {
  /** Files or folders holding the test files, relative to the project (default: the whole project). */
  paths?: string[];
  /** How long each command may take before it is killed and the comparison fails (default 10 minutes). */
  timeoutMs?: number;
}

/** The name of the vitest config this writes into a project that has none. */
export const PARITY_CONFIG = "vitest.config.mjs";

const CONFIG_TEXT = `// Written by Turnlens's parity check (test/package/vitestParity.ts): Vitest with the Turnlens plugin.
import turnlens from "turnlens/vitest";
import { defineConfig } from "vitest/config";

export default defineConfig({ plugins: [turnlens()] });
`;

const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

/**
 * Runs `turnlens test --reporter json` and `vitest run --reporter json` on the same test files of
 * `projectDir`, whose node_modules holds `turnlens` and `vitest`. A project without a vitest config
 * gets one that adds the plugin (PARITY_CONFIG); one that has its own is run with it.
 */
export async function vitestParity(projectDir: string, options: ParityOptions = {}): Promise<ParityResult> {
  const turnlensBin = join(projectDir, "node_modules", "turnlens", "bin", "turnlens.mjs");
  const vitestBin = join(projectDir, "node_modules", "vitest", "vitest.mjs");
  for (const bin of [turnlensBin, vitestBin]) {
    if (!existsSync(bin)) throw new Error(`vitestParity: ${bin} does not exist; install turnlens and vitest in ${projectDir}`);
  }
  const files = testFilesUnder(projectDir, options.paths ?? ["."]);
  if (files.length === 0) throw new Error(`vitestParity: no test files under ${(options.paths ?? ["."]).join(", ")} in ${projectDir}`);
  const hasConfig = readdirSync(projectDir).some((name) => /^vitest\.config\.[cm]?[jt]s$/.test(name));
  if (!hasConfig) writeFileSync(join(projectDir, PARITY_CONFIG), CONFIG_TEXT);

  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const env = { NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" };
  const turnlens = await runCommand([turnlensBin, "test", ...files, "--reporter", "json"], projectDir, env, timeoutMs);
  const turnlensOutcomes = turnlensOutcomesOf(turnlens, projectDir);

  const out = mkdtempSync(join(tmpdir(), "turnlens-vitest-parity-"));
  try {
    const report = join(out, "vitest.json");
    // Vitest's file filters are substrings of the path: each full relative path names one file.
    // `--allowOnly`: Vitest fails a `.only` test when it sees a CI, `turnlens test` runs it.
    const args = [vitestBin, "run", "--allowOnly", "--reporter=json", `--outputFile=${report}`, ...files];
    const vitest = await runCommand(args, projectDir, env, timeoutMs);
    if (!existsSync(report)) throw new Error(`vitestParity: vitest wrote no report\n${describe(vitest)}`);
    const vitestOutcomes = vitestOutcomesOf(JSON.parse(readFileSync(report, "utf8")), projectDir, vitest);
    return { files, turnlens: turnlensOutcomes, vitest: vitestOutcomes, runs: { turnlens, vitest } };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The test files under `paths`, relative to `projectDir`, sorted; node_modules and dot folders skipped. */
export function testFilesUnder(projectDir: string, paths: string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (TEST_FILE.test(entry.name)) found.add(relative(projectDir, path).split(sep).join("/"));
    }
  };
  for (const path of paths) {
    const full = join(projectDir, path);
    if (TEST_FILE.test(full) && existsSync(full)) found.add(relative(projectDir, full).split(sep).join("/"));
    else walk(full);
  }
  return [...found].sort();
}

interface TurnlensSummary {
  files: Array<{ file: string; error?: { message: string }; tests: Array<{ path: string[]; status: string }> }>;
}

function turnlensOutcomesOf(run: ProcessResult, projectDir: string): Outcomes {
  let summary: TurnlensSummary;
  try {
    summary = JSON.parse(run.stdout) as TurnlensSummary;
  } catch {
    throw new Error(`vitestParity: turnlens test printed no JSON report\n${describe(run)}`);
  }
  const outcomes: Outcomes = {};
  for (const file of summary.files) {
    const name = relative(projectDir, file.file).split(sep).join("/");
    // A file that fails before its tests run (it does not load, or a describe throws).
    if (file.error) outcomes[name] = "failed";
    for (const test of file.tests) outcomes[[name, ...test.path].join(" > ")] = outcome(test.status);
  }
  return sorted(outcomes);
}

interface VitestReport {
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }>;
  }>;
}

function vitestOutcomesOf(report: VitestReport, projectDir: string, run: ProcessResult): Outcomes {
  if (!Array.isArray(report.testResults)) throw new Error(`vitestParity: vitest's report has no testResults\n${describe(run)}`);
  const outcomes: Outcomes = {};
  for (const file of report.testResults) {
    const name = relative(projectDir, file.name).split(sep).join("/");
    // Vitest marks a file failed when it fails to load or collect (its message says why).
    if (file.status === "failed" && (file.message || file.assertionResults.length === 0)) outcomes[name] = "failed";
    for (const test of file.assertionResults) outcomes[[name, ...test.ancestorTitles, test.title].join(" > ")] = outcome(test.status);
  }
  return sorted(outcomes);
}

function outcome(status: string): Outcome {
  switch (status) {
    case "passed":
    case "failed":
    case "todo":
    case "skipped":
      return status;
    // Vitest's words for a test that did not run.
    case "pending":
    case "disabled":
      return "skipped";
    default:
      throw new Error(`vitestParity: unknown test status "${status}"`);
  }
}

function sorted(outcomes: Outcomes): Outcomes {
  return Object.fromEntries(Object.entries(outcomes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function describe(run: ProcessResult): string {
  return `$ ${run.command}\nexit code ${run.code}\n--- stdout\n${run.stdout.slice(-4000)}\n--- stderr\n${run.stderr.slice(-4000)}`;
}

async function runCommand(args: string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<ProcessResult> {
  const { code, stdout, stderr } = await runNode(args, cwd, env, timeoutMs);
  return { command: `node ${args.join(" ")}`, code, stdout, stderr };
}
