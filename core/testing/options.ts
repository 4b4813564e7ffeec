// testWorkflow's options: every name checked before anything runs (a misspelling is refused with
// the nearest name), each value checked for its kind, and the page's defaults applied.

import { parseDuration } from "../workflow/durations.ts";
import type { RuntimeAlias, Workflow } from "../workflow/types.ts";
import { describe } from "./entries.ts";
import { noSuchOption, suggestName } from "../workflow/unknownOptions.ts";
import { readDecisionScripts } from "./scriptedDecisions.ts";
import { readEventOptions, scriptedAgentKey, type EventOptions } from "./eventOptions.ts";
import { readScripts, ScriptError, type ScriptSlot } from "./scripts.ts";
import { readAgentOptions, type AgentOptions } from "./agentOptions.ts";
import { readContinueOptions, type ContinueOptions } from "./continueOptions.ts";
import { isCertainlyGiven } from "./notKnown.ts";
import type { ProblemTrace } from "./trace.ts";
import { readMessageScripts } from "./scriptedMessages.ts";
import { readParticipantScripts, type ParticipantSlot } from "./scriptedParticipants.ts";

/** The options any test may take, in the page's order. */
export const COMMON_OPTIONS = [
  "args",
  "id",
  "agents",
  "compactions",
  "messages",
  "participants",
  "decisions",
  "allowance",
  "runtimes",
  "caller",
  "timeout",
  "stall",
  "maxTimers",
  "maxTurns",
  "files",
  "cwd",
  "panes",
  "earlier",
  "fromStage",
  "values",
] as const;

/** Only a workflow with events takes these. */
export const EVENT_OPTIONS = ["event", "events"] as const;

/** The names a test may give, for a workflow with events and for one without: made once, not per test. */
const KNOWN_WITHOUT_EVENTS: readonly string[] = [...COMMON_OPTIONS];
const KNOWN_WITH_EVENTS: readonly string[] = [...COMMON_OPTIONS, ...EVENT_OPTIONS].filter((name) => name !== "values");

export const DEFAULT_STALL = "2s";
export const DEFAULT_MAX_TURNS = 20;
export const DEFAULT_MAX_TIMERS = 20;

/** A tree of files: a string is a file's contents, an object a folder. */
export interface FileTree {
  [path: string]: string | FileTree;
}

export interface ReadOptions extends AgentOptions {
  args?: { given: unknown };
  id: string;
  agents: ScriptSlot[];
  /** Each agent's script for the messages that wake it, by key or glob. */
  messages: ScriptSlot[];
  /** Each participant's script, by key. */
  participants: ParticipantSlot[];
  decisions: ReturnType<typeof readDecisionScripts>;
  runtimes: Record<string, RuntimeAlias>;
  timeoutMs?: number;
  stallMs: number;
  maxTurns: number;
  maxTimers: number;
  startEvent?: EventOptions["startEvent"];
  events: EventOptions["events"];
  files?: FileTree;
  cwd?: string;
  /** `earlier`, `fromStage` and `values`: the attempt is a continue, or starts at a stage. */
  continues: ContinueOptions;
}

const NO_IDS: readonly string[] = [];

export class OptionsError extends Error {
  constructor(readonly problems: ProblemTrace[]) {
    super(problems.map((problem) => problem.message).join("\n"));
  }
}

export { suggestName };

/** The words for an option testWorkflow doesn't take, with the name it probably meant. */
export function unknownOption(name: string, known: readonly string[]): { message: string; suggestion?: string } {
  return noSuchOption("testWorkflow", name, known);
}

/** The refusal of an option testWorkflow doesn't take. */
export const unknownOptionProblem = (name: string, known: readonly string[]): ProblemTrace => ({ code: "unknown-option", option: name, ...unknownOption(name, known) });

const invalid = (option: string, message: string): ProblemTrace => ({ code: "option-invalid", option, message });

/** The refusal of `files` and `cwd` given together, when both certainly are (notKnown.ts). */
export function filesWithCwd(given: Record<string, unknown>): ProblemTrace | undefined {
  if (!isCertainlyGiven(given, "files") || !isCertainlyGiven(given, "cwd")) return undefined;
  return invalid("files", `testWorkflow takes "files" or "cwd", not both: files are laid out in a directory the test makes`);
}

export function readOptions(workflow: Workflow<unknown, unknown>, options: unknown): ReadOptions {
  if (options === undefined || options === null) options = {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new OptionsError([invalid("options", `testWorkflow's options must be an object, not ${describe(options)}`)]);
  }
  const given = options as Record<string, unknown>;
  const hasEvents = "events" in workflow && (workflow as { events?: unknown }).events !== undefined;
  const known = hasEvents ? KNOWN_WITH_EVENTS : KNOWN_WITHOUT_EVENTS;
  const problems: ProblemTrace[] = [];
  // Only unknown names need sorting (their problems are listed by name); a test's own are all known.
  const unknown = Object.keys(given).filter((name) => !known.includes(name));
  for (const name of unknown.sort()) {
    if ((EVENT_OPTIONS as readonly string[]).includes(name)) {
      problems.push({ code: "unknown-option", option: name, message: `testWorkflow takes "${name}" only for a workflow with events; ${workflow.name} declares none` });
      continue;
    }
    problems.push(unknownOptionProblem(name, known));
  }
  if (problems.length) throw new OptionsError(problems);

  const duration = (name: string, fallback?: string): number | undefined => {
    const value = given[name] ?? fallback;
    if (value === undefined) return undefined;
    const parsed = typeof value === "string" ? parseDuration(value) : undefined;
    if (parsed === undefined) problems.push(invalid(name, `testWorkflow's "${name}" must be a duration such as "5s", not ${describe(value)}`));
    return parsed;
  };
  const timeoutMs = duration("timeout");
  const stallMs = duration("stall", DEFAULT_STALL) ?? 2_000;
  const maxTurns = given.maxTurns ?? DEFAULT_MAX_TURNS;
  if (typeof maxTurns !== "number" || !Number.isInteger(maxTurns) || maxTurns < 0) {
    problems.push(invalid("maxTurns", `testWorkflow's "maxTurns" must be a whole number of turns, not ${describe(maxTurns)}`));
  }
  const maxTimers = given.maxTimers ?? DEFAULT_MAX_TIMERS;
  if (typeof maxTimers !== "number" || !Number.isInteger(maxTimers) || maxTimers < 0) {
    problems.push(invalid("maxTimers", `testWorkflow's "maxTimers" must be a whole number of timers, not ${describe(maxTimers)}`));
  }
  const continues = readContinueOptions(workflow, given, problems);
  const agent = scriptedAgentKey(given.agents);
  const eventContext: Parameters<typeof readEventOptions>[4] = {
    earlierIds: continues.earlier?.events.map((event) => event.eventId) ?? NO_IDS,
    continuing: given.earlier !== undefined,
  };
  if (agent !== undefined) eventContext.agent = agent;
  const eventOptions = readEventOptions(workflow, given.event, given.events, problems, eventContext);
  if (given.id !== undefined && (typeof given.id !== "string" || given.id === "")) {
    problems.push(invalid("id", `testWorkflow's "id" must be a run id such as "test", not ${describe(given.id)}`));
  }
  const both = filesWithCwd(given);
  if (both) problems.push(both);
  if (given.cwd !== undefined && typeof given.cwd !== "string") {
    problems.push(invalid("cwd", `testWorkflow's "cwd" must be a directory's path, not ${describe(given.cwd)}`));
  }
  // Read once into plain data, then checked: what is laid out is what was checked, whatever a getter
  // or a Proxy in the tree would answer on a second read.
  const filesGiven = given.files;
  const files = filesGiven === undefined ? undefined : readFileTree(filesGiven, "", problems);
  const runtimes = readRuntimes(given.runtimes, problems);
  const agentOptions = readAgentOptions(given, problems);
  let agents: ScriptSlot[] = [];
  let decisions: ReadOptions["decisions"] = [];
  try {
    agents = readScripts("agents", given.agents);
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    problems.push(error.problem);
  }
  let messages: ScriptSlot[] = [];
  let participants: ParticipantSlot[] = [];
  try {
    messages = readMessageScripts(given.messages);
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    problems.push(error.problem);
  }
  try {
    participants = readParticipantScripts(given.participants);
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    problems.push(error.problem);
  }
  try {
    decisions = readDecisionScripts(given.decisions);
  } catch (error) {
    problems.push({ code: "script-invalid", option: "decisions", message: (error as Error).message });
  }
  if (problems.length) throw new OptionsError(problems);
  // The fields every call has, in one literal, then the ones it may have: a literal of optional
  // spreads cost ~20 µs a testWorkflow call (each field after a spread is added the slow way).
  const read: ReadOptions = {
    id: (given.id as string | undefined) ?? "test",
    agents,
    messages,
    participants,
    decisions,
    runtimes,
    compactions: agentOptions.compactions,
    allowance: agentOptions.allowance,
    panes: agentOptions.panes,
    stallMs,
    maxTurns: maxTurns as number,
    maxTimers: maxTimers as number,
    events: eventOptions.events,
    continues,
  };
  if ("args" in given) read.args = { given: given.args };
  if (agentOptions.caller) read.caller = agentOptions.caller;
  if (timeoutMs !== undefined) read.timeoutMs = timeoutMs;
  if (eventOptions.startEvent) read.startEvent = eventOptions.startEvent;
  if (files !== undefined) read.files = files;
  if (given.cwd !== undefined) read.cwd = given.cwd as string;
  return read;
}

function readRuntimes(value: unknown, problems: ProblemTrace[]): Record<string, RuntimeAlias> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(invalid("runtimes", `testWorkflow's "runtimes" must map an alias to { harness, model }, not ${describe(value)}`));
    return {};
  }
  for (const [name, alias] of Object.entries(value)) {
    const fields = alias as Partial<RuntimeAlias> | null;
    if (typeof fields !== "object" || fields === null || typeof fields.harness !== "string" || typeof fields.model !== "string") {
      problems.push(invalid("runtimes", `runtimes[${JSON.stringify(name)}] must be { harness, model, effort? }, not ${describe(alias)}`));
    }
  }
  return value as Record<string, RuntimeAlias>;
}

/**
 * A plain copy of a `files` tree, each name and value read exactly once, with a problem for each
 * path outside the run's directory and each value that is neither contents nor a folder.
 */
function readFileTree(tree: unknown, prefix: string, problems: ProblemTrace[]): FileTree {
  if (typeof tree !== "object" || tree === null || Array.isArray(tree)) {
    problems.push(invalid("files", `testWorkflow's "files" must map paths to contents or folders, not ${describe(tree)}`));
    return {};
  }
  const copy: Array<[string, string | FileTree]> = [];
  for (const [name, contents] of Object.entries(tree)) {
    const path = `${prefix}${name}`;
    const parts = name.split(/[\\/]/);
    if (name.startsWith("/") || /^[A-Za-z]:/.test(name) || parts.includes("..") || name === "") {
      problems.push(invalid("files", `files path "${path}" is outside the run's directory`));
    } else if (typeof contents === "object" && contents !== null && !Array.isArray(contents)) {
      copy.push([name, readFileTree(contents, `${path}/`, problems)]);
    } else if (typeof contents !== "string") {
      problems.push(invalid("files", `files["${path}"] must be a file's contents or a folder, not ${describe(contents)}`));
    } else {
      copy.push([name, contents]);
    }
  }
  // fromEntries defines each name as its own property, "__proto__" included.
  return Object.fromEntries(copy);
}
