// The runner's tests as rows: a project's files (or none: the repo root), the command's arguments →
// its exact exit code, last line, stdout and stderr. One row is one test; a row of several steps runs
// them in order in the same fresh project. README beside the server's checks: test/server/check/.
import { expect, test } from "bun:test";
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import type { RunSummary } from "../../core/execution/report.ts";
import { type CliResult, FIXTURES, ROOT, runNode, SLOW, withoutAgentOrCi } from "./harness.ts";

const BIN = join(ROOT, "bin", "turnlens.mjs");

/** Stands for the row's fresh project folder in arguments, `cwd` and expected text. */
export const DIR = "<dir>";

/** What a stream must hold: each `has` in it, no `lacks` in it, starting with `startsWith`, matching `matches`. */
export interface TextCheck {
  has?: string[];
  lacks?: string[];
  startsWith?: string;
  matches?: RegExp;
}

/** One run of the command and what it must give. Text compared exactly unless given as a `TextCheck`. */
export interface Step {
  /** The arguments after `turnlens test` (after `turnlens <command>` when `command` is given); `<dir>` is the project. */
  args: string[];
  /** Another command than `test`: `init`, `record`. */
  command?: string;
  /** Where it runs: relative to the project, or absolute; by default the project, or the repo root when the row has none. */
  cwd?: string;
  /** Variables set (or, undefined, unset) for the run, over no agent and no CI and no colors. */
  env?: Record<string, string | undefined>;
  /** Done in the project before this step runs: what files cannot say (a link, a pipe, a commit). */
  before?: (dir: string) => void;
  /** The exact exit code. */
  code: number | null;
  /** The exact last non-empty line of stdout. */
  lastLine?: string;
  stdout?: string | TextCheck;
  stderr?: string | TextCheck;
  /** Checks the table cannot state (a JSON report, the files left), once the ones above held. */
  check?: (result: CliResult, dir: string) => void | Promise<void>;
}

/** A fresh project: `files` written, `copy`'s fixture folder copied first. Without either, the run is in the repo root. */
export interface Project {
  files?: Record<string, string>;
  /** A folder of test/runner/fixtures/ whose files the project starts with. */
  copy?: string;
  /** Done once the files are written, before the first step. */
  setup?: (dir: string) => void;
  /** The test's timeout: SLOW (only a true hang ends it) unless the row needs longer. */
  timeout?: number;
}

/** One step, or several in order in the same project. */
export type Steps = Step | ({ steps: Step[] } & { [key in keyof Step]?: never });

export type CliRow = Project & { name: string } & Steps;

/** Registers each row as a test of its name. */
export function cliTests(rows: CliRow[]): void {
  for (const row of rows) cliTest(row);
}

/** Registers one row as a test, for a test that stands among others. */
export function cliTest(row: CliRow): void {
  test(row.name, () => runRow(row), row.timeout ?? SLOW);
}

/** Runs a row's steps in its project and checks each; the results, in order. */
export async function runRow(row: Project & Steps): Promise<CliResult[]> {
  const steps = "steps" in row ? row.steps : [row];
  return inProject(row, async (dir) => {
    const results: CliResult[] = [];
    for (const step of steps) results.push(await runStep(step, dir));
    return results;
  });
}

/** Runs `body` in a fresh project holding `files` (the repo root, when there are none), removed after. */
export async function inProject<T>(project: Project, body: (dir: string) => Promise<T>): Promise<T> {
  if (project.files === undefined && project.copy === undefined) {
    project.setup?.(ROOT);
    return body(ROOT);
  }
  const dir = mkdtempSync(join(tmpdir(), "turnlens-runner-test-"));
  try {
    if (project.copy !== undefined) cpSync(join(FIXTURES, project.copy), dir, { recursive: true });
    for (const [name, text] of Object.entries(project.files ?? {})) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    project.setup?.(dir);
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs one step in `dir` (the project, or the repo root) and checks what it states; the result, for more checks. */
export async function runStep(step: Step, dir = ROOT): Promise<CliResult> {
  const fill = (text: string) => text.replaceAll(DIR, dir);
  step.before?.(dir);
  const cwd = step.cwd === undefined ? dir : isAbsolute(fill(step.cwd)) ? fill(step.cwd) : join(dir, step.cwd);
  const env = { NO_COLOR: "1", FORCE_COLOR: undefined, ...withoutAgentOrCi(), ...step.env };
  const result = await runNode([BIN, step.command ?? "test", ...step.args.map(fill)], cwd, env);
  const stated: Record<string, unknown> = { code: step.code };
  const found: Record<string, unknown> = { code: result.code };
  if (step.lastLine !== undefined) {
    stated.lastLine = fill(step.lastLine);
    found.lastLine = result.lastLine;
  }
  for (const stream of ["stdout", "stderr"] as const) {
    const check = step[stream];
    if (check === undefined) continue;
    stated[stream] = typeof check === "string" ? fill(check) : statedText(check, fill);
    found[stream] = typeof check === "string" ? result[stream] : foundText(check, fill, result[stream]);
  }
  try {
    expect(found).toEqual(stated);
  } catch (error) {
    // The diff says which check failed; the output's end says why.
    if (error instanceof Error) error.message += `\n\n\`turnlens ${step.command ?? "test"} ${step.args.map(fill).join(" ")}\` in ${cwd}\n${outputTail(result)}`;
    throw error;
  }
  await step.check?.(result, dir);
  return result;
}

function statedText(check: TextCheck, fill: (text: string) => string): Record<string, unknown> {
  const stated: Record<string, unknown> = {};
  if (check.has) stated.has = check.has.map(fill);
  if (check.lacks) stated.lacks = check.lacks.map(fill);
  if (check.startsWith !== undefined) stated.startsWith = fill(check.startsWith);
  if (check.matches) stated.matches = String(check.matches);
  return stated;
}

/** The same shape as `statedText`: each stated piece where the text holds it, what is there instead where it does not. */
function foundText(check: TextCheck, fill: (text: string) => string, text: string): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  if (check.has) found.has = check.has.map(fill).map((piece) => (text.includes(piece) ? piece : `(missing) ${piece}`));
  if (check.lacks) found.lacks = check.lacks.map(fill).map((piece) => (text.includes(piece) ? `(present) ${piece}` : piece));
  if (check.startsWith !== undefined) {
    const start = fill(check.startsWith);
    found.startsWith = text.startsWith(start) ? start : text.slice(0, start.length);
  }
  if (check.matches) found.matches = check.matches.test(text) ? String(check.matches) : `(no match) ${text.slice(0, 2000)}`;
  return found;
}

function outputTail(result: CliResult): string {
  const tail = (text: string) => text.split("\n").slice(-30).join("\n").slice(-4000);
  return `stdout (its end):\n${tail(result.stdout)}\nstderr (its end):\n${tail(result.stderr)}`;
}

/** A json reporter's document on stdout. */
export function reportOf(result: CliResult): RunSummary {
  return JSON.parse(result.stdout) as RunSummary;
}
