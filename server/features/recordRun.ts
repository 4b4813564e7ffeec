// The `turnlens.recordRun` command: `turnlens record` on a run folder, in a child process of its own
// (a workflow's code runs in the replay, and must never take the server down), answered with the
// RecordResult its --json prints: the test written, or where the run parts from the workflow.
import { fork } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { turnlensRoot } from "../../core/runner/paths.ts";
import type { RecordResult } from "../../core/runner/record.ts";

/** The command's one argument: the run folder, the workflow file, and optionally the test file or `check`. */
export interface RecordRunArguments {
  /** A path or a file URI. */
  folder: string;
  workflow: string;
  out?: string;
  force?: boolean;
  check?: boolean;
}

/** A replay that takes longer than this is stopped: a recorded run's turns take no time. */
const RECORD_TIMEOUT_MS = 120_000;

const pathOf = (given: string) => (given.startsWith("file:") ? fileURLToPath(given) : given);

/** Reads the command's argument, throwing an error that names what is wrong with it. */
export function readRecordArguments(given: unknown): RecordRunArguments {
  if (typeof given !== "object" || given === null) throw new Error("turnlens.recordRun takes [{ folder, workflow, out?, force?, check? }]");
  const { folder, workflow, out, force, check } = given as Record<string, unknown>;
  if (typeof folder !== "string" || folder === "") throw new Error("turnlens.recordRun needs folder: the run folder that holds run.jsonl");
  if (typeof workflow !== "string" || workflow === "") throw new Error("turnlens.recordRun needs workflow: the workflow file the run ran");
  if (out !== undefined && typeof out !== "string") throw new Error("turnlens.recordRun's out must be a path");
  return {
    folder: pathOf(folder),
    workflow: pathOf(workflow),
    ...(typeof out === "string" ? { out: pathOf(out) } : {}),
    ...(force === true ? { force: true } : {}),
    ...(check === true ? { check: true } : {}),
  };
}

/** Runs `turnlens record … --json` and resolves to what it printed. */
export function recordRun(args: RecordRunArguments): Promise<RecordResult> {
  const argv = ["record", args.folder, "--workflow", args.workflow, "--json"];
  if (args.out) argv.push("--out", args.out);
  if (args.force) argv.push("--force");
  if (args.check) argv.push("--check");
  return new Promise((resolve) => {
    const child = fork(join(turnlensRoot(), "bin", "turnlens.mjs"), argv, { cwd: dirname(args.workflow), silent: true, timeout: RECORD_TIMEOUT_MS });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => (stdout += chunk));
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    const failed = (error: string): RecordResult => ({ ok: false, turns: 0, events: 0, partings: [], error });
    child.on("error", (error) => resolve(failed(`turnlens record could not start: ${error.message}`)));
    child.on("close", (code, signal) => {
      try {
        resolve(JSON.parse(stdout) as RecordResult);
      } catch {
        resolve(failed(signal ? `turnlens record was stopped (${signal})` : stderr.trim().split("\n")[0] || `turnlens record exited with ${code}`));
      }
    });
  });
}
