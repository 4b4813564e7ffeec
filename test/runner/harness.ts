// Runs the built `turnlens` command on fixture folders, for the runner's own tests.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HANG_GUARD_MS } from "../hangGuard.ts";
import { WorkerPool } from "../../core/execution/pool.ts";
import { TREE_VARIABLE, taggedPids, withTag } from "../../core/execution/processTree.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
export const FIXTURES = join(ROOT, "test", "runner", "fixtures");
const BIN = join(ROOT, "bin", "turnlens.mjs");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last non-empty line of stdout. */
  lastLine: string;
}

/**
 * The variables by which std-env tells a coding agent or a CI runs the command, unset: the runner's
 * tests see the reporters a person gets, and snapshots written as on a laptop, unless a test sets one
 * (docs/runner.md, Reporters; .ci/run sets CI=true, under which no snapshot is written).
 */
export function withoutAgentOrCi(): Record<string, string | undefined> {
  const unset = ["AI_AGENT", "CLAUDECODE", "CLAUDE_CODE", "REPL_ID", "GEMINI_CLI", "CODEX_SANDBOX", "CODEX_THREAD_ID", "OPENCODE", "AUGMENT_AGENT"];
  unset.push("GOOSE_PROVIDER", "JUNIE_DATA", "JUNIE_SHIM_PATH", "COPILOT_AGENT", "COPILOT_CLI", "CURSOR_AGENT", "GITHUB_ACTIONS", "CI");
  const env: Record<string, string | undefined> = Object.fromEntries(unset.map((name) => [name, undefined]));
  if (/devin/.test(process.env.EDITOR ?? "")) env.EDITOR = undefined;
  if (/kiro/.test(process.env.TERM_PROGRAM ?? "")) env.TERM_PROGRAM = undefined;
  const path = process.env.PATH ?? "";
  if (/\.pi[\\/]agent/.test(path))
    env.PATH = path
      .split(":")
      .filter((entry) => !/\.pi[\\/]agent/.test(entry))
      .join(":");
  return env;
}

/** `turnlens test ...args`, run in `cwd` (the repo root by default), without colors, as no agent and no CI. */
export function turnlens(args: string[], cwd = ROOT, env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runNode([BIN, "test", ...args], cwd, { NO_COLOR: "1", FORCE_COLOR: undefined, ...withoutAgentOrCi(), ...env });
}

/** `turnlens test ...args` started, not awaited, with every process of its tree tagged `tag`. */
export function startTurnlens(args: string[], tag: string): ChildProcess {
  return spawn(process.execPath, [BIN, "test", ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, ...withoutAgentOrCi(), [TREE_VARIABLE]: withTag(process.env[TREE_VARIABLE], tag) },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** A tag no other run carries, for counting a run's processes by their environment. */
export function freshTag(): string {
  return `leak-check-${process.pid}-${Math.random().toString(36).slice(2)}`;
}

/** The command lines of the live processes carrying `tag` (zombies, already dead, are left out). */
export function taggedCommands(tag: string): string[] {
  return taggedPids(tag).flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return [];
      return [readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim()];
    } catch {
      return [];
    }
  });
}

/** Resolves once `condition` holds, looking again every 50 ms (the test's own timeout bounds it). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** `turnlens ...args` (any command), run in `cwd` (the repo root by default), without colors. */
export function turnlensCommand(args: string[], cwd = ROOT): Promise<CliResult> {
  return runNode([BIN, ...args], cwd, { NO_COLOR: "1", FORCE_COLOR: undefined, ...withoutAgentOrCi() });
}

/**
 * `node ...args` in `cwd`, with its output collected. With `timeoutMs`, a child still running then is
 * killed and the promise rejects, naming the command (a guard against a hang, not a budget).
 */
export function runNode(args: string[], cwd: string, env: Record<string, string | undefined> = {}, timeoutMs?: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill("SIGKILL");
            reject(new Error(`\`node ${args.join(" ")}\` did not finish within ${Math.round(timeoutMs / 1000)}s\n${stderr.slice(-4000)}`));
          }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const lines = stdout.split("\n").filter((line) => line.trim() !== "");
      resolve({ code, stdout, stderr, lastLine: lines.at(-1) ?? "" });
    });
  });
}

/** A fixture folder path, relative to the repo root. */
export function fixture(name: string): string {
  return join("test", "runner", "fixtures", name);
}

/** Writes `files` into a fresh folder outside the repo (nothing installed there). */
export function tempProject(files: Record<string, string>): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "turnlens-runner-test-"));
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Tests that spawn the CLI wait for it to exit: only a true hang ends them. */
export const SLOW = HANG_GUARD_MS;

/** Runs `body` with a pool of one quiet worker, stopped after. */
export async function withOnePool<T>(body: (pool: WorkerPool) => Promise<T>): Promise<T> {
  const pool = new WorkerPool({ size: () => 1, log: () => {} });
  try {
    return await body(pool);
  } finally {
    pool.stop();
  }
}
