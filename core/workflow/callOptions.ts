// What each workflow API call that takes an object takes, declared once: each option's name,
// whether the call needs it, and what it takes. The call's checks are derived from this table, so
// a missing or wrong option is refused at the call in testWorkflow's words, never left to fail
// deeper in the engine as a TypeError of its own.

import { parseDuration } from "./durations.ts";
import { noSuchOption } from "./unknownOptions.ts";

/** One option of a call: what it takes, in words and as a check. */
export interface OptionRule {
  /** The call needs it: missing, it is refused by name. */
  readonly required?: true;
  /** What it takes, as the refusal says it: `… must be <takes>, not 5`. */
  readonly takes: string;
  /** Whether a given value is one; a deeper check may still refuse it (a tool's name, a layout's fields). */
  readonly fits: (value: unknown) => boolean;
}

/** A call's options, in the order its type lists them. */
export type CallRules = Readonly<Record<string, OptionRule>>;

const isText = (value: unknown) => typeof value === "string";
const isName = (value: unknown) => typeof value === "string" && value.trim() !== "";
const isPlainObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);
const isDuration = (value: unknown) =>
  (typeof value === "number" && Number.isFinite(value) && value >= 0) || (typeof value === "string" && parseDuration(value) !== undefined);
const oneOf =
  (...values: readonly unknown[]) =>
  (value: unknown) =>
    values.includes(value);

const TEXT: OptionRule = { takes: "text", fits: isText };
const DURATION: OptionRule = { takes: `a duration such as "5s", or milliseconds`, fits: isDuration };
const LABEL: OptionRule = { takes: "text", fits: isText };
const LABELS: OptionRule = { takes: 'a JSON object such as { team: "infra" }', fits: isPlainObject };
// Which placements a harness runs is its own table's (harnesses.ts), which names the harness.
const PLACEMENT: OptionRule = { takes: `"pane" or "headless"`, fits: isName };
const KEEP_PANE: OptionRule = { takes: `"never", "on-failure" or "always"`, fits: oneOf("never", "on-failure", "always") };
const LAYOUT: OptionRule = { takes: "{ session?, workspace?, tab? } or { beside, side, share? }", fits: isPlainObject };
const PURPOSE: OptionRule = { required: true, takes: "what the ends message each other about, as text", fits: isName };
const EFFORT: OptionRule = { takes: "an effort level's name", fits: isName };
const METERED: OptionRule = { takes: "true or false", fits: oneOf(true, false) };
const KEY = (what: string): OptionRule => ({ required: true, takes: what, fits: isName });

const isFunction = (value: unknown) => typeof value === "function";
const HOOK = (what: string): OptionRule => ({ takes: what, fits: isFunction });

/** The table: each call by the name its refusals use. */
export const CALL_OPTIONS = {
  // `name` is checked before the rest, since every other refusal names the workflow by it.
  defineWorkflow: {
    name: { required: true, takes: "letters, digits, '.', '_' and '-'", fits: isName },
    description: { required: true, takes: "what the workflow does, as text", fits: isName },
    whenToUse: TEXT,
    version: TEXT,
    prepare: HOOK("a function from { argv, cwd } to the workflow's args"),
    run: { required: true, takes: "a run(wf, args) function", fits: isFunction },
    id: HOOK("a function from the args to the run's id"),
    events: { takes: "a map of each event's name to its schema", fits: isPlainObject },
    starts: { takes: "a list of the events that start a run", fits: Array.isArray },
    tools: { takes: "a map of each tool's name to { description, input, run }", fits: isPlainObject },
    stages: { takes: "a map of each stage's name to its result schema, or null", fits: isPlainObject },
    present: HOOK("a function from the value and the ending to text"),
    report: HOOK("a function from the value and the ending to text"),
  },
  tool: {
    description: { required: true, takes: "what the tool does, as text", fits: isName },
    input: { required: true, takes: "the tool's input schema", fits: isPlainObject },
    run: { required: true, takes: "a run(input, context) function", fits: isFunction },
  },
  "wf.agents.open": {
    key: KEY("an agent's key, as text"),
    runtime: {
      required: true,
      takes: `a runtime alias such as "claude", or { harness, model }`,
      fits: (value) => isName(value) || isPlainObject(value),
    },
    instructions: TEXT,
    skills: { takes: "a list of { path } or { repo, skill, ref? }", fits: Array.isArray },
    labels: LABELS,
    cwd: { takes: "a directory's path", fits: isName },
    layout: LAYOUT,
    keepPane: KEEP_PANE,
    tools: { takes: "a list of the workflow's tool names", fits: Array.isArray },
    // sandboxes.ts words a sandbox that is none, as it does a sandbox's rules.
    sandbox: { takes: "a sandbox from wf.sandboxes.open, or sandbox rules { read?, write?, network? }", fits: () => true },
  },
  // A runtime written out in full, and an alias with overrides (told apart by `alias`).
  runtime: {
    harness: { required: true, takes: 'a harness\'s name, such as "claude"', fits: isName },
    model: { required: true, takes: "a model's name", fits: isName },
    effort: EFFORT,
    placement: PLACEMENT,
    metered: METERED,
  },
  "runtime alias": {
    alias: { required: true, takes: 'a runtime alias\'s name, such as "claude"', fits: isName },
    harness: { takes: "the alias's harness", fits: isName },
    model: { takes: "the alias's model", fits: isName },
    effort: EFFORT,
    placement: PLACEMENT,
    metered: METERED,
  },
  "agent.run": {
    prompt: { required: true, takes: "the turn's prompt, as text", fits: isText },
    schema: { takes: "a TypeBox schema such as Type.Object({ … })", fits: isPlainObject },
    label: LABEL,
    nudge: { takes: "true, false or { prompt }", fits: (value) => typeof value === "boolean" || isPlainObject(value) },
    timeout: DURATION,
  },
  nudge: {
    prompt: { required: true, takes: "the nudge's words, as text", fits: isText },
  },
  "agent.compact": {
    prompt: { required: true, takes: "the compaction's focus, as text", fits: isText },
    id: { takes: "text", fits: isName },
    timeout: DURATION,
  },
  "agent.set": {
    model: { takes: "a model's name", fits: isName },
    effort: { takes: "an effort level's name", fits: isText },
    id: { takes: "text", fits: isName },
  },
  "agent.fork": {
    key: KEY("the fork's key, new to the run"),
    placement: PLACEMENT,
    metered: METERED,
    effort: EFFORT,
    instructions: TEXT,
    labels: LABELS,
    layout: LAYOUT,
    keepPane: KEEP_PANE,
  },
  "wf.agents.caller": {
    key: KEY("the key to drive the calling session under"),
  },
  "wf.stage": {
    result: { required: true, takes: "the stage value's TypeBox schema", fits: isPlainObject },
    summary: { takes: "a function from the stage's value to text", fits: (value) => typeof value === "function" },
  },
  "wf.parallel": {
    concurrency: { takes: "a whole number of items at once, at least 1", fits: (value) => Number.isInteger(value) && (value as number) >= 1 },
    deadline: DURATION,
    label: LABEL,
  },
  wait: {
    label: LABEL,
  },
  "wf.events.wait": {
    label: LABEL,
    until: { takes: `a Date, an ISO time or a duration such as "2d"`, fits: (value) => value instanceof Date || isText(value) || typeof value === "number" },
  },
  "wf.emit": {
    eventId: { takes: "an event id, as text", fits: isName },
  },
  "wf.keepAlive": {
    window: { takes: `a duration such as "5s"`, fits: isText },
    onTimeout: { takes: "{ compact: { key }, prompt }", fits: isPlainObject },
  },
  onTimeout: {
    compact: { required: true, takes: "{ key }, the agent to compact", fits: isPlainObject },
    prompt: { required: true, takes: "the compaction's focus, as text", fits: isText },
  },
  "wf.messages.allow": {
    from: { required: true, takes: "an agent or a participant, by ref or key", fits: () => true },
    to: { required: true, takes: "an agent or a participant, by ref or key", fits: () => true },
    purpose: PURPOSE,
  },
  "wf.messages.allow between": {
    between: { required: true, takes: "two ends, [a, b], each an agent or a participant", fits: (value) => Array.isArray(value) && value.length === 2 },
    purpose: PURPOSE,
  },
  "wf.participants.connect": {
    key: KEY("a participant's key, as text"),
    labels: LABELS,
  },
  "wf.decide": {
    key: KEY("the decision's key, as text"),
    questions: { required: true, takes: "the questions by id, each built by choice, score or yesNo", fits: isPlainObject },
    state: { takes: "JSON", fits: () => true },
    model: { takes: "a model's name", fits: isName },
    deadline: DURATION,
  },
} satisfies Record<string, CallRules>;

export type CallName = keyof typeof CALL_OPTIONS;

/** A value as a refusal quotes it, as testWorkflow's own refusals do (core/testing/entries.ts's describe): JSON where it can be, else what it is. */
export function shown(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "a function";
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "symbol") return value.toString();
  if (value instanceof Date) return `the Date ${Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString()}`;
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 80 ? `${text.slice(0, 80)}…` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** The shape a call takes, from its table: `{ key, runtime, instructions?, … }`. */
export function shapeOf(rules: CallRules): string {
  return `{ ${Object.entries(rules)
    .map(([name, rule]) => (rule.required ? name : `${name}?`))
    .join(", ")} }`;
}

// Each call's option names and rules as lists, made once: every turn's `agent.run` is checked, and
// listing them per call was a few arrays a turn.
const ruleLists = new Map<CallName, { names: string[]; entries: Array<[string, CallRules[string]]> }>();
function listsOf(call: CallName, rules: CallRules): { names: string[]; entries: Array<[string, CallRules[string]]> } {
  let lists = ruleLists.get(call);
  if (!lists) ruleLists.set(call, (lists = { names: Object.keys(rules), entries: Object.entries(rules) }));
  return lists;
}

/**
 * Throws a TypeError into the workflow for the first thing `given` gets wrong by `rules`: not an
 * object at all, a name the call doesn't take (with the nearest it does), a needed option missing,
 * or an option whose value isn't what it takes. `subject` is the call as its refusals name it
 * (`wf.agents.open`, `agent "a": run`); `optional` says the whole object may be left out.
 */
export function checkOptions(subject: string, call: CallName, given: unknown, optional = false): void {
  const rules: CallRules = CALL_OPTIONS[call];
  if (given === undefined && optional) return;
  if (!isPlainObject(given)) throw new TypeError(`${subject} takes ${shapeOf(rules)}, not ${shown(given)}`);
  const object = given as Record<string, unknown>;
  const { names, entries } = listsOf(call, rules);
  for (const name of Object.keys(object)) {
    if (!names.includes(name)) throw new TypeError(noSuchOption(subject, name, names).message);
  }
  for (const [name, rule] of entries) {
    const value = object[name];
    if (value === undefined) {
      if (rule.required) throw new TypeError(`${subject} needs "${name}": ${rule.takes}`);
      continue;
    }
    if (!rule.fits(value)) throw new TypeError(`${subject}'s "${name}" must be ${rule.takes}, not ${shown(value)}`);
  }
}
