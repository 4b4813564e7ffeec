// Runs the built `turnlens` command on fixture folders, for the runner's own tests.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HANG_GUARD_MS } from "../hangGuard.ts";

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

/** `turnlens test ...args`, run in `cwd` (the repo root by default), without colors. */
export function turnlens(args: string[], cwd = ROOT): Promise<CliResult> {
  return turnlensCommand(["test", ...args], cwd);
}

/** `turnlens ...args` (any command), run in `cwd` (the repo root by default), without colors. */
export function turnlensCommand(args: string[], cwd = ROOT): Promise<CliResult> {
  return runNode([BIN, ...args], cwd, { NO_COLOR: "1", FORCE_COLOR: "" });
}

/** `node ...args` in `cwd`, with its output collected. */
export function runNode(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
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
