// `turnlens record <run folder> --workflow <file> [--out <file>] [--force] [--check] [--json]`:
// writes a test that replays a run from its run.jsonl/in.jsonl, or with --check reports where a
// replay against the current workflow parts from the run (docs/record.md).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { describeParting, partings, type Parting } from "./recordCheck.ts";
import { readRunFolder, recordedRun, RecordError } from "./recordedRun.ts";
import { loadWorkflow, replay } from "./recordReplay.ts";
import { testSource } from "./recordSource.ts";

export const RECORD_USAGE = `Usage: turnlens record <run folder> --workflow <file> [--out <file>] [--force]
       turnlens record <run folder> --workflow <file> --check

Writes a test that replays a run: the folder's run.jsonl and in.jsonl (what a run wrote, or a
test's run.run and run.events) give the args, the id, each agent's answers in order and the
events; the test asserts the turns and the run's value or ending as the replay gave them.

Options:
      --workflow <file>  the workflow file the run ran (needed)
      --out <file>       the test file to write (default: <run folder's name>.test.ts next to
                         the workflow)
      --force            overwrite the test file when it exists
      --check            write nothing: replay the run against the workflow as it is now and
                         report each turn where they part (exit 1 when they do)
      --json             print the result as one JSON document
  -h, --help             print this help

Exit code: 0 written (or, with --check, the run replays), 1 the run does not replay or cannot
be read, 2 on a usage error.`;

export interface RecordOptions {
  folder: string;
  workflow: string;
  out?: string;
  force: boolean;
  check: boolean;
  json: boolean;
}

/** What a record or a check came to, as --json prints it and the editor's command reads it. */
export interface RecordResult {
  ok: boolean;
  /** The test file written. */
  written?: string;
  /** The turns the run had (and the replay met, when it replays). */
  turns: number;
  events: number;
  /** The decision keys the run's provider answered. */
  decisions: number;
  /** Where the replay parts from the run, each as one line naming the turn. */
  partings: string[];
  /** Why nothing could be done: an unreadable folder or workflow, a file in the way. */
  error?: string;
}

export class RecordUsageError extends Error {}

export function parseRecordArgs(args: readonly string[]): RecordOptions | "help" {
  const options: Partial<RecordOptions> & { force: boolean; check: boolean; json: boolean } = { force: false, check: false, json: false };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = () => {
      const given = eq > 0 ? arg.slice(eq + 1) : args[++index];
      if (given === undefined || given === "") throw new RecordUsageError(`${flag} needs a file`);
      return given;
    };
    if (flag === "-h" || flag === "--help") return "help";
    else if (flag === "--workflow") options.workflow = value();
    else if (flag === "--out") options.out = value();
    else if (flag === "--force") options.force = true;
    else if (flag === "--check") options.check = true;
    else if (flag === "--json") options.json = true;
    else if (arg.startsWith("-")) throw new RecordUsageError(`unknown option: ${arg}`);
    else if (options.folder === undefined) options.folder = arg;
    else throw new RecordUsageError(`record takes one run folder; also given: ${arg}`);
  }
  if (options.folder === undefined) throw new RecordUsageError("record needs a run folder: the folder that holds the run's run.jsonl");
  if (options.workflow === undefined) throw new RecordUsageError("record needs --workflow <file>: the workflow file the run ran");
  if (options.check && options.out !== undefined) throw new RecordUsageError("--check writes nothing: it takes no --out");
  return options as RecordOptions;
}

/** The import specifier of `target` from a file in `fromFolder`: relative, posix, without its extension. */
export function importSpecifier(fromFolder: string, target: string): string {
  const path = relative(fromFolder, target)
    .split(sep)
    .join("/")
    .replace(/\.(ts|mts|tsx|js|mjs)$/, "");
  return path.startsWith(".") ? path : `./${path}`;
}

/** Records (or checks) one run folder against a workflow file; never throws for a bad folder or workflow. */
export async function record(options: RecordOptions, cwd = process.cwd()): Promise<RecordResult> {
  const folder = resolve(cwd, options.folder);
  const workflowFile = resolve(cwd, options.workflow);
  const failed = (error: string): RecordResult => ({ ok: false, turns: 0, events: 0, decisions: 0, partings: [], error });
  try {
    if (!existsSync(workflowFile)) return failed(`no such workflow file: ${options.workflow}`);
    const out = options.check ? undefined : resolve(cwd, options.out ?? `${dirname(workflowFile)}/${basename(folder)}.test.ts`);
    if (out && existsSync(out) && !options.force) return failed(`${relative(cwd, out) || out} exists; give --force to overwrite it, or --out another file`);
    const { runLines, inLines } = readRunFolder(folder);
    const recorded = recordedRun(runLines, inLines, relative(cwd, `${folder}/run.jsonl`));
    const loaded = await loadWorkflow(workflowFile);
    const replayed = await replay(loaded, recorded);
    const found: Parting[] = partings(recorded, replayed);
    const result: RecordResult = {
      ok: found.length === 0,
      turns: recorded.operations.length,
      events: recorded.events.length,
      decisions: recorded.decisions.length,
      partings: found.map(describeParting),
    };
    if (!result.ok || !out || !replayed.run) return result;
    const run = replayed.run;
    const source = testSource({
      recorded,
      workflowImport: importSpecifier(dirname(out), workflowFile),
      workflowExport: loaded.exportName,
      workflowName: loaded.workflow.name,
      schemaNames: loaded.schemaNames,
      ending: run.ending,
      turns: run.turns.map((turn) => `${turn.agent}#${turn.n}${turn.nudge ? " nudge" : ""} ${turn.outcome}`),
      from: relative(dirname(out), folder).split(sep).join("/") || ".",
      participants: replayed.participants,
    });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, source);
    return { ...result, written: out };
  } catch (error) {
    if (error instanceof RecordError) return failed(error.message);
    throw error;
  }
}

/** The result as the terminal shows it. */
export function formatRecord(result: RecordResult, options: RecordOptions, cwd = process.cwd()): string {
  if (result.error) return `✗ ${result.error}\n`;
  const shown = (file: string) => (relative(cwd, file).startsWith("..") ? file : relative(cwd, file));
  const decisions = result.decisions ? `, ${result.decisions} decision${result.decisions === 1 ? "" : "s"}` : "";
  const counts = `${result.turns} turn${result.turns === 1 ? "" : "s"}, ${result.events} event${result.events === 1 ? "" : "s"}${decisions}`;
  if (result.ok && result.written) return `✓ wrote ${shown(result.written)} (${counts})\n`;
  if (result.ok) return `✓ ${options.folder} replays against ${options.workflow}: ${counts}, the same\n`;
  const head = `✗ ${options.folder} does not replay against ${options.workflow}${options.check ? "" : "; nothing written"}:`;
  return `${head}\n${result.partings.map((line) => `  ${line}\n`).join("")}`;
}

export async function recordCommand(args: string[], out: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  let options: RecordOptions;
  try {
    const parsed = parseRecordArgs(args);
    if (parsed === "help") {
      out.stdout.write(`${RECORD_USAGE}\n`);
      return 0;
    }
    options = parsed;
  } catch (error) {
    if (error instanceof RecordUsageError) {
      out.stderr.write(`${error.message}\n\n${RECORD_USAGE}\n`);
      return 2;
    }
    throw error;
  }
  const result = await record(options);
  if (options.json) out.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else (result.ok ? out.stdout : out.stderr).write(formatRecord(result, options));
  return result.ok ? 0 : 1;
}
