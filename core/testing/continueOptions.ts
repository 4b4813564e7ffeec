// Reads testWorkflow's `earlier`, `fromStage` and `values`: the stages, in.jsonl and run.jsonl lines
// an earlier attempt left (checked by the engine's readers), where the attempt starts, and the page's refusals.

import type { AttemptSettings } from "../workflow/attempt.ts";
import { whyNotJson, type JsonValue } from "../workflow/json.ts";
import { fromInLine, LogLineError, readInLines, readRunLines } from "../workflow/runLog.ts";
import type { EarlierAttempt, InLine, RunLine, StageRecord } from "../workflow/runLines.ts";
import type { Workflow } from "../workflow/types.ts";
import { describe } from "./entries.ts";
import { quoted } from "./problems.ts";
import { isCertainlyAbsent, isCertainlyGiven } from "./notKnown.ts";
import type { ProblemTrace } from "./trace.ts";

/** What a test's `earlier` gives: each value a stage recorded, or undefined for one that returns nothing. */
export interface EarlierOption {
  stages?: Record<string, JsonValue | undefined>;
  events?: readonly InLine[];
  run?: readonly RunLine[];
}

export interface ContinueOptions {
  earlier?: { stages: Record<string, JsonValue | undefined>; runLines: RunLine[]; events: InLine[] };
  fromStage?: string;
  values?: Record<string, JsonValue | undefined>;
}

const STAGE_NAME = /^[a-z][a-z0-9-]*$/;

/** The refusal of `values` without `fromStage`, when values certainly are given and fromStage certainly is not (notKnown.ts). */
export function valuesWithoutFromStage(given: Record<string, unknown>): ProblemTrace | undefined {
  if (!isCertainlyGiven(given, "values") || !isCertainlyAbsent(given, "fromStage")) return undefined;
  return invalid("values", "values give the stages before fromStage: give fromStage too");
}
const EARLIER_FIELDS = ["stages", "events", "run"];

const invalid = (option: string, message: string): ProblemTrace => ({ code: "option-invalid", option, message });
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function readContinueOptions(workflow: Workflow<unknown, unknown>, given: Record<string, unknown>, problems: ProblemTrace[]): ContinueOptions {
  const read: ContinueOptions = {};
  const declared = workflow.stages;
  const hasEvents = workflow.events !== undefined;
  const stageNamed = (option: string, name: string, where: string): boolean => {
    if (!STAGE_NAME.test(name)) {
      problems.push(invalid(option, `${where}: "${name}" is not a stage's name: lowercase letters, digits and '-'`));
      return false;
    }
    if (declared && !(name in declared)) {
      problems.push(invalid(option, `${where}: ${workflow.name} has no stage "${name}"; its stages are ${quoted(Object.keys(declared))}`));
      return false;
    }
    return true;
  };
  /** Checks a stage value as the stage's own result would: JSON, and fitting a declared schema. */
  const stageValues = (option: string, value: unknown, only?: (name: string) => string | undefined) => {
    if (!isPlainObject(value)) {
      problems.push(invalid(option, `testWorkflow's "${option}" must map each stage's name to its value, not ${describe(value)}`));
      return undefined;
    }
    const values: Record<string, JsonValue | undefined> = {};
    for (const [name, stageValue] of Object.entries(value)) {
      const where = `${option}["${name}"]`;
      if (!stageNamed(option, name, option)) continue;
      const outside = only?.(name);
      if (outside) {
        problems.push(invalid(option, `${where}: ${outside}`));
        continue;
      }
      const why = stageValue === undefined ? undefined : whyNotJson(stageValue);
      if (why) {
        problems.push(invalid(option, `${where} is not JSON: ${why.replace(/^\$/, "the value")}`));
        continue;
      }
      // Whether a value fits its stage is the run's to check, as the stage is entered, for `values`
      // (as `--values`) and earlier records alike: one that doesn't fit fails the attempt there,
      // declared stages or not, as a continue over a record from before a schema change does.
      values[name] = stageValue === undefined ? undefined : (JSON.parse(JSON.stringify(stageValue)) as JsonValue);
    }
    return values;
  };

  if (given.earlier !== undefined) {
    const earlier = given.earlier;
    if (!isPlainObject(earlier)) {
      problems.push(invalid("earlier", `testWorkflow's "earlier" must be { stages?, events?, run? }, not ${describe(earlier)}`));
    } else {
      for (const field of Object.keys(earlier)) {
        if (!EARLIER_FIELDS.includes(field)) problems.push(invalid("earlier", `testWorkflow's "earlier" takes ${quoted(EARLIER_FIELDS)}, not "${field}"`));
      }
      const stages = earlier.stages === undefined ? {} : stageValues("earlier.stages", earlier.stages);
      const events = readLines("earlier.events", earlier.events, readInLines, problems);
      const runLines = readLines("earlier.run", earlier.run, readRunLines, problems);
      if (events && runLines) problems.push(...eventsTheRunTook(runLines, events));
      if (stages && events && runLines) read.earlier = { stages, events, runLines };
    }
  }

  if (given.fromStage !== undefined) {
    const fromStage = given.fromStage;
    if (typeof fromStage !== "string") {
      problems.push(invalid("fromStage", `testWorkflow's "fromStage" must be a stage's name, not ${describe(fromStage)}`));
    } else if (stageNamed("fromStage", fromStage, "fromStage")) {
      if (hasEvents && given.earlier === undefined) {
        problems.push(invalid("fromStage", `a workflow with events takes "fromStage" only with "earlier", as awf run takes --from-stage only with --continue`));
      } else read.fromStage = fromStage;
    }
  }

  if (given.values !== undefined) {
    const alone = valuesWithoutFromStage(given);
    if (alone) {
      problems.push(alone);
    } else if (typeof given.fromStage === "string") {
      const fromStage = given.fromStage;
      const order = declared ? Object.keys(declared) : undefined;
      const before = (name: string) =>
        name === fromStage
          ? `stage ${name} is fromStage, which the attempt runs; values give the stages before it`
          : order && order.indexOf(name) > order.indexOf(fromStage)
            ? `stage ${name} comes after fromStage "${fromStage}"; values give the stages before it`
            : undefined;
      const values = stageValues("values", given.values, before);
      if (values) read.values = values;
    }
  }
  return read;
}

function readLines<Line>(option: string, value: unknown, reader: (input: unknown, file: string) => Line[], problems: ProblemTrace[]): Line[] | undefined {
  if (value === undefined) return [];
  try {
    return reader(value, option);
  } catch (error) {
    if (!(error instanceof LogLineError)) throw error;
    problems.push(invalid("earlier", error.message));
    return undefined;
  }
}

/** Each event a wait line says it took must be among the earlier events. */
function eventsTheRunTook(runLines: readonly RunLine[], events: readonly InLine[]): ProblemTrace[] {
  const ids = new Set(events.map((event) => event.eventId));
  const problems: ProblemTrace[] = [];
  runLines.forEach((line, index) => {
    if (line.kind === "wait" && line.took !== "timeout" && !ids.has(line.took.eventId)) {
      problems.push(invalid("earlier", `earlier.run line ${index + 1}: wait ${line.wait} took event "${line.took.eventId}", which earlier.events does not have`));
    }
  });
  return problems;
}

/** The run options `earlier`, `fromStage` and `values` become. */
export function continueSettings(read: { continues: ContinueOptions }, beginsAt: number): Pick<AttemptSettings, "earlier" | "fromStage" | "values"> {
  const { earlier, fromStage, values } = read.continues;
  return {
    ...(earlier ? { earlier: earlierAttempt(earlier, beginsAt) } : {}),
    ...(fromStage !== undefined ? { fromStage } : {}),
    ...(values ? { values } : {}),
  };
}

/**
 * The engine's view of `earlier`: each given stage value as a succeeded record of attempt 1, one
 * second apart in the order given and ending as this attempt begins (agentswf wrote them the same way).
 */
export function earlierAttempt(earlier: NonNullable<ContinueOptions["earlier"]>, beginsAt: number): EarlierAttempt {
  const names = Object.keys(earlier.stages);
  const stages: StageRecord[] = names.map((name, index) => {
    const started = beginsAt - (names.length - index) * 1_000;
    const value = earlier.stages[name];
    return {
      name,
      outcome: "succeeded",
      attempt: 1,
      started: new Date(started).toISOString(),
      at: new Date(started + 1_000).toISOString(),
      ...(value !== undefined ? { value } : {}),
    };
  });
  return { stages, runLines: earlier.runLines, events: earlier.events.map(fromInLine) };
}
