// Finding and walking scripts: an exact key wins over a glob, two matching globs fail, a single
// entry meets every turn, a list meets one turn each and must be walked to its end.

import { describe, isEntry, type Entry } from "./entries.ts";
import { isObjectValue, isOpaque, mayHoldMore } from "./notKnown.ts";
import { plural, quoted } from "./problems.ts";
import type { ProblemTrace, ScriptOption, SourceSite } from "./trace.ts";

export interface ScriptSlot {
  key: string;
  entries: readonly Entry[];
  isList: boolean;
  glob?: RegExp;
}

export type Found<Slot = ScriptSlot> =
  | { found: true; slot: Slot; pattern?: string }
  | { found: false; code: "no-scripts" | "agent-unscripted" | "glob-conflict"; why: string; patterns?: string[] };

/** Glob keys: `*` is any run of characters, everything else literal, anchored at both ends. */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

/** What one entry of an option's list meets: a turn, (for `compactions`) a compaction, or (for `messages`) a message that wakes. */
export type ScriptUnit = "turn" | "compaction" | "message";

/** How a problem names one key's script: `agents["writer"]`. */
export const scriptLabel = (option: string, key: string): string => `${option}[${JSON.stringify(key)}]`;

/** The words for a script given as an empty list. */
export const emptyScriptList = (label: string, unit: ScriptUnit): string => `${label} is an empty list; a list has an entry per ${unit}`;

/** The words for an `agents` or `compactions` script that is not an entry (`written`: the value as `describe` words it). */
const notAnEntryScript = (label: string, written: string): string => `${label} must be answer(…), noAnswer.…() or a list of them, not ${written}`;

/** A refusal of an option's scripts, with (for a list) the position of its first item that is wrong, where the editor points. */
export interface ScriptRefusal {
  problem: ProblemTrace;
  index?: number;
}

/**
 * Every refusal of one option's scripts (`agents`, `compactions`): the map's, or each key's. The
 * run throws the first (readScripts); the editor shows them all before the run, the values it
 * cannot tell being NotKnown (notKnown.ts) and left alone.
 */
export function scriptRefusals(option: ScriptOption, map: unknown, unit: ScriptUnit = "turn"): ScriptRefusal[] {
  if (map === undefined) return [];
  const isObject = isObjectValue(map);
  if (isObject === undefined) return [];
  if (!isObject) return [{ problem: scriptError("script-invalid", `${option} must map a key to a script, not ${describe(map)}`).problem }];
  return Object.entries(map as Record<string, unknown>).flatMap(([key, script]) => {
    const label = scriptLabel(option, key);
    if (Array.isArray(script)) {
      if (script.length === 0) return [{ problem: scriptError("script-empty-list", emptyScriptList(label, unit), key, option).problem }];
      // By position, so a hole (read as undefined) is refused too.
      const bad = script.findIndex((entry) => isEntryValue(entry) === false);
      return bad >= 0 ? [{ problem: scriptError("script-invalid", notAnEntryScript(label, describe(script)), key, option).problem, index: bad }] : [];
    }
    return isEntryValue(script) === false ? [{ problem: scriptError("script-invalid", notAnEntryScript(label, describe(script)), key, option).problem }] : [];
  });
}

/** Whether a value is an entry; undefined when the text cannot tell (a name, a call, an object a spread may give a brand). */
export function isEntryValue(value: unknown): boolean | undefined {
  if (isEntry(value)) return true;
  return isOpaque(value) || mayHoldMore(value) ? undefined : false;
}

/** Checks one option's scripts (`agents`, `compactions`), throwing the TypeError a bad value deserves. */
export function readScripts(option: ScriptOption, map: unknown, unit: ScriptUnit = "turn"): ScriptSlot[] {
  const [refused] = scriptRefusals(option, map, unit);
  if (refused) throw new ScriptError(refused.problem);
  if (map === undefined) return [];
  return Object.entries(map as Record<string, unknown>).map(([key, script]) => ({
    key,
    entries: Array.isArray(script) ? (script as Entry[]) : [script as Entry],
    isList: Array.isArray(script),
    ...(key.includes("*") ? { glob: globToRegExp(key) } : {}),
  }));
}

export class ScriptError extends TypeError {
  constructor(readonly problem: ProblemTrace) {
    super(problem.message);
  }
}

function scriptError(code: ProblemTrace["code"], message: string, key?: string, option: ScriptOption = "agents"): ScriptError {
  return new ScriptError({ code, message, ...(key !== undefined ? { key, option } : {}) });
}

/** Finds the script of `name` among slots, by exact key first, then by exactly one glob. */
export function findSlot<Slot extends { key: string; glob?: RegExp }>(slots: readonly Slot[], name: string, noun: string): Found<Slot> {
  const exact = slots.find((slot) => !slot.glob && slot.key === name);
  if (exact) return { found: true, slot: exact };
  const globs = slots.filter((slot) => slot.glob?.test(name));
  if (globs.length === 1) return { found: true, slot: globs[0]!, pattern: globs[0]!.key };
  if (globs.length > 1) {
    const patterns = globs.map((slot) => slot.key);
    return {
      found: false,
      code: "glob-conflict",
      patterns,
      why: `it matches ${patterns.map((pattern) => `"${pattern}"`).join(" and ")}; give it a script of its own`,
    };
  }
  if (slots.length === 0) return { found: false, code: "no-scripts", why: `no ${noun} is scripted` };
  return { found: false, code: "agent-unscripted", why: `no script for it; scripted: ${quoted(slots.map((slot) => slot.key))}` };
}

interface Reached {
  slot: ScriptSlot;
  pattern?: string;
  n: number;
}

/** One option's scripts for a run, remembering how far each agent walked its list. */
export class ScriptBook {
  private readonly reached = new Map<string, Reached>();
  /** The slot each agent found, by name: the slots never change in a run, and an agent is looked up every turn. */
  private readonly foundSlots = new Map<string, Found>();

  constructor(
    readonly option: ScriptOption,
    readonly slots: readonly ScriptSlot[],
    /** What each list entry meets; the leftovers' wording says it. */
    readonly unit: ScriptUnit = "turn",
  ) {}

  find(agent: string): Found {
    const known = this.foundSlots.get(agent);
    if (known) return known;
    const found = findSlot(this.slots, agent, "agent");
    // Only a slot found is kept: a refusal's lists go into a problem, which should have its own.
    if (found.found) this.foundSlots.set(agent, found);
    return found;
  }

  /** The entry for turn `n` of `agent` under `slot`, or undefined past a list's end. */
  entryFor(agent: string, slot: ScriptSlot, pattern: string | undefined, n: number): { entry: Entry; index: number | null } | undefined {
    const previous = this.reached.get(agent);
    // The same slot again (every turn but an agent's first): the walk goes on in the record it has.
    if (previous && previous.slot === slot && previous.pattern === pattern) previous.n = Math.max(previous.n, n);
    else this.reached.set(agent, { slot, ...(pattern !== undefined ? { pattern } : {}), n: Math.max(previous?.n ?? 0, n) });
    if (!slot.isList) return { entry: slot.entries[0]!, index: null };
    const entry = slot.entries[n - 1];
    return entry ? { entry, index: n - 1 } : undefined;
  }

  /** Lists walked short of their end, and lists nobody walked. Single entries are never leftovers. */
  leftovers(): ProblemTrace[] {
    const problems: ProblemTrace[] = [];
    const met = new Set<ScriptSlot>();
    const unit = this.unit;
    const its = unit === "turn" ? "its script" : unit === "message" ? "its messages script" : `its ${unit} script`;
    // A message is not asked for: it wakes the agent.
    const walked = (n: number) => (unit === "message" ? `was woken by ${plural(n, unit)}` : `was asked ${plural(n, unit)}`);
    const option = this.option !== "agents" ? { option: this.option } : {};
    for (const [agent, { slot, pattern, n }] of this.reached) {
      met.add(slot);
      if (!slot.isList || n >= slot.entries.length) continue;
      const unreached = slot.entries.slice(n);
      problems.push({
        code: "entry-never-reached",
        message: `agent "${agent}" ${walked(n)}; ${its}${pattern ? ` ("${pattern}")` : ""} has ${slot.entries.length}`,
        ...option,
        agent,
        key: slot.key,
        ...(pattern ? { pattern } : {}),
        index: n,
        ...siteFields(unreached),
      });
    }
    for (const slot of this.slots) {
      if (!slot.isList || met.has(slot)) continue;
      const has = plural(slot.entries.length, unit);
      const forWhat = unit === "turn" ? "" : ` for a ${unit}`;
      const asked = unit === "message" ? "woken by a message" : `asked${forWhat}`;
      problems.push({
        code: "list-never-asked",
        message: slot.glob ? `no agent matching "${slot.key}" was ${asked}; ${its} has ${has}` : `agent "${slot.key}" was never ${asked}; ${its} has ${has}`,
        ...option,
        ...(slot.glob ? { pattern: slot.key } : { agent: slot.key }),
        key: slot.key,
        index: 0,
        ...siteFields(slot.entries),
      });
    }
    return problems;
  }
}

function siteFields(entries: readonly Entry[]): { site?: SourceSite; sites?: SourceSite[] } {
  const sites = entries.map((entry) => entry.site).filter((site): site is SourceSite => site !== undefined);
  return sites.length ? { site: sites[0]!, sites } : {};
}
