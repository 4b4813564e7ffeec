// `turnlens record`'s replay: loads the workflow file through the tests' own bundler, names its
// schemas by its exported consts, and runs the recorded answers through testWorkflow, keeping every
// turn the replay met even when the run is refused (a new turn, a turn no longer asked).
import { unlink, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TSchema } from "typebox";
import { canonicalJson, type JsonValue } from "../workflow/json.ts";
import { isWorkflow } from "../workflow/define.ts";
import type { Workflow } from "../workflow/types.ts";
import type * as Testing from "../testing/index.ts";
import type * as Trace from "../testing/trace.ts";
import type { Entry } from "../testing/entries.ts";
import { NO_ANSWER_KIND_RECORDED_AS, NO_ANSWER_KINDS } from "../testing/noAnswerKinds.ts";
import type { ProblemTrace } from "../testing/trace.ts";
import type { TestRun } from "../testing/testRun.ts";
import type { Turn } from "../testing/turn.ts";
import { importModule } from "../execution/importModule.ts";
import { bundlePathFor, bundleTestFile } from "../execution/transform.ts";
import { RecordError, type RecordedEnd, type RecordedRun, type RecordedTurn } from "./recordedRun.ts";

type TestingModule = typeof Testing;
type TraceModule = typeof Trace;

export interface LoadedWorkflow {
  workflow: Workflow<unknown, unknown>;
  /** The export's name that holds the workflow: `default`, or a named one. */
  exportName: string;
  /** Each exported schema's name, by its canonical JSON. */
  schemaNames: Map<string, string>;
  /** The exported schema objects, by canonical JSON: the replay answers with the workflow's own. */
  schemas: Map<string, TSchema>;
  testing: TestingModule;
  /** The served trace module, whose `traceOfRun` names the participants a replay reached. */
  trace: TraceModule;
}

/** Imports the workflow file (and the served testing API, the same one a test gets) through the tests' bundler. */
export async function loadWorkflow(file: string): Promise<LoadedWorkflow> {
  const entry = join(dirname(file), `__turnlens_record__.ts`);
  const stem = `./${basename(file, extname(file))}`;
  const source = `export * as workflowModule from ${JSON.stringify(stem)};\nexport * as testing from "agentswf/testing";\nexport * as trace from "turnlens/trace";\n`;
  const outfile = bundlePathFor(entry);
  let loaded: { workflowModule: Record<string, unknown>; testing: TestingModule; trace: TraceModule };
  try {
    const bundle = await bundleTestFile(entry, outfile, source);
    await writeFile(outfile, bundle.code);
    loaded = (await importModule(pathToFileURL(outfile).href)) as typeof loaded;
  } catch (error) {
    throw new RecordError(`${file} could not be loaded: ${(error as Error).message}`);
  } finally {
    await unlink(outfile).catch(() => {});
  }
  const exported = Object.entries(loaded.workflowModule);
  const found = exported.find(([name, value]) => name === "default" && isWorkflow(value)) ?? exported.find(([, value]) => isWorkflow(value));
  if (!found) throw new RecordError(`${file} exports no workflow: a workflow file exports what defineWorkflow made`);
  const schemaNames = new Map<string, string>();
  const schemas = new Map<string, TSchema>();
  for (const [name, value] of exported) {
    if (name === "default" || typeof value !== "object" || value === null || isWorkflow(value)) continue;
    let canonical: string;
    try {
      canonical = canonicalJson(value);
    } catch {
      continue;
    }
    if (!schemaNames.has(canonical)) {
      schemaNames.set(canonical, name);
      schemas.set(canonical, value as TSchema);
    }
  }
  return { workflow: found[1] as Workflow<unknown, unknown>, exportName: found[0], schemaNames, schemas, testing: loaded.testing, trace: loaded.trace };
}

/** A turn the replay met, as the check compares it. */
export interface MetTurn {
  agent: string;
  n: number;
  nudge: boolean;
  prompt: string;
  schema?: string;
}

export interface Replay {
  run?: TestRun<unknown>;
  problems: ProblemTrace[];
  /** Every turn the replay's scripts met, in order, whether or not the run was refused. */
  met: MetTurn[];
  /** The workflow threw or failed for a reason other than the test's scripts. */
  error?: unknown;
  /** Each participant the replay opened a route to or messaged, in order: the written test scripts them silent. */
  participants: string[];
}

/** What answers one operation of a turn (the turn or its nudge), as the recorded end was. */
function replyFor(testing: TestingModule, end: RecordedEnd | undefined): unknown {
  if (!end) return testing.noAnswer.failed("not in the recorded run");
  if (end.end === "answered") return end.answer;
  const { method, defaultReason } = NO_ANSWER_KINDS[NO_ANSWER_KIND_RECORDED_AS[end.end]];
  return defaultReason === undefined ? testing.noAnswer[method]() : testing.noAnswer[method](end.reason);
}

/**
 * A participant as the replay has it: one that says nothing. Its routes open and what it is sent
 * is delivered, as in the run; what it said in the run (a message that woke an agent, a reply
 * event) is not in the recorded answers, and recordedRun refuses it by name. What it answered an
 * agent inside that agent's turn is in the turn's recorded answer already.
 */
export const SILENT_PARTICIPANT = "() => undefined";
const silentParticipant = () => undefined;

/** The options a replay of `recorded` runs with: the recorded answers, args, id and events, every participant silent. */
export function replayOptions(loaded: LoadedWorkflow, recorded: RecordedRun, met: MetTurn[]): Record<string, unknown> {
  const { testing } = loaded;
  const agents: Record<string, Entry[]> = {};
  for (const turn of recorded.turns) {
    const schema = schemaFor(loaded, turn);
    const respond = (asked: Turn) => {
      met.push({
        agent: asked.agent,
        n: asked.n,
        nudge: asked.nudge,
        prompt: asked.prompt,
        ...(asked.schema !== undefined ? { schema: canonicalJson(asked.schema) } : {}),
      });
      return replyFor(testing, turn.ends.find((end) => end.nudge === asked.nudge) ?? turn.ends[0]);
    };
    const entry = schema === undefined ? testing.answer(respond as never) : testing.answer(schema, respond as never);
    (agents[turn.agent] ??= [])[turn.n - 1] = entry;
  }
  return {
    ...(recorded.args !== undefined ? { args: recorded.args } : {}),
    ...(recorded.id !== undefined ? { id: recorded.id } : {}),
    agents,
    // Which participants the run connected is not in its lines: a glob stands for any of them.
    participants: { "*": silentParticipant },
    ...(recorded.startEvent ? { event: startEventOption(recorded) } : {}),
    ...(recorded.events.length
      ? { events: recorded.events.map((event, index) => ({ [event.when]: event.turn, name: event.name, data: event.data, ...eventIdOption(event.eventId, index) })) }
      : {}),
    ...(recorded.decisions.length ? { decisions: decisionsOption(recorded) } : {}),
  };
}

/** The decisions script: each key's recorded distributions, or an Error with the provider's message. */
export function decisionsOption(recorded: RecordedRun): Record<string, Record<string, JsonValue> | Error> {
  return Object.fromEntries(recorded.decisions.map((decision) => [decision.key, decision.error !== undefined ? new Error(decision.error) : (decision.answers ?? {})]));
}

export function startEventOption(recorded: RecordedRun): { name: string; data: JsonValue; eventId?: string } | undefined {
  const start = recorded.startEvent;
  if (!start) return undefined;
  return { name: start.name, data: start.data, ...(start.eventId !== "awf.start" ? { eventId: start.eventId } : {}) };
}

/** A test's nth event is `awf.test.<n>` by default: any other id is given. */
export function eventIdOption(eventId: string, index: number): { eventId?: string } {
  return eventId === `awf.test.${index + 1}` ? {} : { eventId };
}

/** The schema a turn's entry names: the workflow's export, else the recorded JSON Schema itself. */
function schemaFor(loaded: LoadedWorkflow, turn: RecordedTurn): TSchema | undefined {
  if (turn.schema === undefined) return undefined;
  return loaded.schemas.get(canonicalJson(turn.schema)) ?? (turn.schema as unknown as TSchema);
}

/** Runs the recorded answers against the workflow. */
export async function replay(loaded: LoadedWorkflow, recorded: RecordedRun): Promise<Replay> {
  const met: MetTurn[] = [];
  const options = replayOptions(loaded, recorded, met);
  try {
    const run = await loaded.testing.testWorkflow(loaded.workflow as never, options as never);
    const reached = loaded.trace.traceOfRun(run)?.participants ?? [];
    return { run: run as TestRun<unknown>, problems: [], met, participants: [...new Set(reached.map((event) => event.participant))] };
  } catch (error) {
    const problems = (error as { problems?: ProblemTrace[] }).problems;
    if (Array.isArray(problems)) return { problems, met, participants: [] };
    return { problems: [], met, error, participants: [] };
  }
}
