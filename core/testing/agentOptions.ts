// testWorkflow's options about agents beyond their turns: `compactions`, `caller`, `allowance` and
// `panes`, each checked with a message naming the option, and their defaults from the page.

import { whyNotAllowance } from "../workflow/allowance.ts";
import type { CallerSetting } from "../workflow/attempt.ts";
import { harnessFacts, quoteList, HARNESSES } from "../workflow/harnesses.ts";
import { nearestOr } from "../workflow/unknownOptions.ts";
import { checkPanesSetting } from "../workflow/panes.ts";
import type { HarnessAllowance, PanesSetting } from "../workflow/types.ts";
import { describe } from "./entries.ts";
import { readScripts, ScriptError, type ScriptSlot } from "./scripts.ts";
import type { ProblemTrace } from "./trace.ts";

export interface AgentOptions {
  /** Each agent's compaction scripts; an agent with none answers "" to every compaction. */
  compactions: ScriptSlot[];
  /** The calling session; none by default, so `caller` and `forkCaller` answer null. */
  caller?: CallerSetting;
  /** What `wf.allowance` reads per harness; every harness reads `none` by default. */
  allowance: Record<string, HarnessAllowance>;
  /** The run's workspace and `keep: "never"` by default. */
  panes: PanesSetting;
}

const invalid = (option: string, message: string): ProblemTrace => ({ code: "option-invalid", option, message });
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function readAgentOptions(given: Record<string, unknown>, problems: ProblemTrace[]): AgentOptions {
  let compactions: ScriptSlot[] = [];
  try {
    compactions = readScripts("compactions", given.compactions, "compaction");
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    problems.push(error.problem);
  }
  const caller = readCaller(given.caller, problems);
  return {
    compactions,
    ...(caller ? { caller } : {}),
    allowance: readAllowance(given.allowance, problems),
    panes: readPanes(given.panes, problems),
  };
}

function readCaller(value: unknown, problems: ProblemTrace[]): CallerSetting | undefined {
  if (value === undefined) return undefined;
  const shape = `testWorkflow's "caller" must be { harness, model?, here? }, not ${describe(value)}`;
  if (!isObject(value)) return void problems.push(invalid("caller", shape));
  const { harness, model, here, ...extra } = value;
  if (Object.keys(extra).length) return void problems.push(invalid("caller", shape));
  if (typeof harness !== "string" || !harnessFacts(harness)) {
    return void problems.push(invalid("caller", `caller.harness must be a harness, ${quoteList(Object.keys(HARNESSES))}; not ${describe(harness)}`));
  }
  if (model !== undefined && (typeof model !== "string" || model === "")) {
    return void problems.push(invalid("caller", `caller.model must be the model its files show, not ${describe(model)}`));
  }
  if (here !== undefined && typeof here !== "boolean") {
    return void problems.push(invalid("caller", `caller.here must be true or false, not ${describe(here)}`));
  }
  return { harness, ...(model !== undefined ? { model } : {}), here: here ?? true };
}

function readAllowance(value: unknown, problems: ProblemTrace[]): Record<string, HarnessAllowance> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    problems.push(invalid("allowance", `testWorkflow's "allowance" must map a harness to its HarnessAllowance, not ${describe(value)}`));
    return {};
  }
  for (const [harness, allowance] of Object.entries(value)) {
    if (!harnessFacts(harness)) {
      const known = Object.keys(HARNESSES);
      problems.push(invalid("allowance", `allowance names no harness "${harness}"; ${nearestOr(harness, known, `known: ${quoteList(known)}`)}`));
      continue;
    }
    const why = whyNotAllowance(allowance);
    if (why) problems.push(invalid("allowance", `allowance["${harness}"] is no HarnessAllowance: ${why}`));
  }
  return value as Record<string, HarnessAllowance>;
}

function readPanes(value: unknown, problems: ProblemTrace[]): PanesSetting {
  if (value === undefined) return {};
  if (!isObject(value) || Object.keys(value).some((name) => name !== "workspace" && name !== "keep")) {
    problems.push(invalid("panes", `testWorkflow's "panes" must be { workspace?, keep? }, not ${describe(value)}`));
    return {};
  }
  try {
    checkPanesSetting(value as PanesSetting);
  } catch (error) {
    problems.push(invalid("panes", (error as Error).message));
  }
  return value as PanesSetting;
}
