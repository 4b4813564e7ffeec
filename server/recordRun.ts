// The `turnlens.recordRun` command: `turnlens record` on a run folder, in a process of its own
// started as core starts a worker (a workflow's code runs in the replay, and must never take the
// server down; its process group is killed past a time limit), answered with the RecordResult its
// --json prints: the test written, or where the run parts from the workflow.
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { turnlensRoot } from "../core/execution/paths.ts";
import { killWorkerTree } from "../core/execution/processTree.ts";
import { forkWorker } from "../core/execution/workerProcess.ts";
import { RECORD_TIMEOUT_MS } from "./limits.ts";
import type { Timer } from "./scheduler.ts";
import type { RecordResult } from "../core/record/record.ts";
import type { RecordRunArguments, RecordRunResult } from "./protocol.ts";

// The wire's type is core's result: a change to either is a type error here.
const sameShape = (result: RecordResult): RecordRunResult => result;

const pathOf = (given: string) => (given.startsWith("file:") ? fileURLToPath(given) : resolve(given));

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

/** Runs `turnlens record … --json` and resolves to what it printed; `timer` stops one that takes too long. */
export function recordRun(args: RecordRunArguments, timer: Timer): Promise<RecordRunResult> {
  const argv = ["record", args.folder, "--workflow", args.workflow, "--json"];
  if (args.out) argv.push("--out", args.out);
  if (args.force) argv.push("--force");
  if (args.check) argv.push("--check");
  return new Promise((settle) => {
    // The paths are absolute (readRecordArguments): the CLI runs in the server's own folder.
    // dist/cli.mjs, not bin/: the .vsix ships dist/ alone.
    const child = forkWorker({ entry: join(turnlensRoot(), "dist", "cli.mjs"), args: argv });
    let stopped = false;
    const limit = timer.setTimeout(() => {
      stopped = true;
      if (child.pid !== undefined) killWorkerTree(child.pid);
    }, RECORD_TIMEOUT_MS);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => (stdout += chunk));
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    const failed = (error: string): RecordResult => ({ ok: false, turns: 0, events: 0, decisions: 0, partings: [], error });
    child.on("error", (error) => settle(failed(`turnlens record could not start: ${error.message}`)));
    child.on("close", (code, signal) => {
      timer.clearTimeout(limit);
      if (stopped) return settle(failed(`turnlens record took more than ${RECORD_TIMEOUT_MS / 1000} s and was stopped`));
      try {
        settle(sameShape(JSON.parse(stdout) as RecordResult));
      } catch {
        settle(failed(signal ? `turnlens record was stopped (${signal})` : stderr.trim().split("\n")[0] || `turnlens record exited with ${code}`));
      }
    });
  });
}
