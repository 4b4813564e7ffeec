// Runtime aliases: what `runtime` in wf.agents.open resolves to, and the refusals a real host
// makes before any turn (unknown alias, unlisted effort, headless claude), read from harnesses.ts.

import { effortRefusal, harnessFacts, quoteList, unknownHarness } from "./harnesses.ts";
import type { Execution, RuntimeAlias, RuntimeSelection } from "./types.ts";
import { nearestOr } from "./unknownOptions.ts";

/** The aliases `awf run` installs, and so every test starts from. */
export const DEFAULT_RUNTIMES: Readonly<Record<string, RuntimeAlias>> = {
  claude: { harness: "claude", model: "sonnet" },
  codex: { harness: "codex", model: "gpt-5.6-sol" },
};

/** An alias the run's aliases lack: its own class, so a test's host can fail the test on it (the page: "fails the test too"). */
export class UnknownRuntimeError extends Error {
  constructor(
    readonly agent: string,
    readonly alias: string,
    readonly known: readonly string[],
  ) {
    super(`agent "${agent}": no runtime "${alias}"; ${nearestOr(alias, known, `known: ${quoteList(known)}`)}`);
    this.name = "UnknownRuntimeError";
  }
}

/** The settings a selection stands for; throws an Error naming what is wrong. */
export function resolveRuntime(key: string, selection: RuntimeSelection, aliases: Readonly<Record<string, RuntimeAlias>>): Execution {
  let execution: Execution;
  if (typeof selection === "string" || "alias" in selection) {
    const name = typeof selection === "string" ? selection : selection.alias;
    const alias = aliases[name];
    if (!alias) throw new UnknownRuntimeError(key, name, Object.keys(aliases));
    execution = { placement: "pane", ...alias, alias: name };
    if (typeof selection !== "string") {
      for (const field of ["harness", "model"] as const) {
        const given = selection[field];
        if (given !== undefined && given !== alias[field]) {
          throw new Error(`agent "${key}": runtime "${name}" runs ${field} ${alias[field]}, not ${given}`);
        }
      }
      if (selection.effort !== undefined) execution.effort = selection.effort;
      if (selection.placement !== undefined) execution.placement = selection.placement;
      if (selection.metered !== undefined) execution.metered = selection.metered;
    }
  } else {
    execution = { placement: "pane", ...selection };
  }
  checkExecution(key, execution);
  return execution;
}

/** Throws what a real host refuses before any turn: an unknown harness, an unlisted effort, a placement it lacks. */
export function checkExecution(key: string, execution: Execution): void {
  const harness = harnessFacts(execution.harness);
  if (!harness) throw new Error(`agent "${key}": ${unknownHarness(execution.harness)}`);
  const refusedEffort = execution.effort === undefined ? undefined : effortRefusal(execution.harness, execution.effort);
  if (refusedEffort) throw new Error(`agent "${key}": ${refusedEffort}`);
  if (!harness.placements.includes(execution.placement)) {
    throw new Error(`agent "${key}": ${execution.harness} does not run ${execution.placement}`);
  }
  if (execution.placement === "headless" && harness.headlessNeedsMetered && execution.metered !== true) {
    throw new Error(`agent "${key}": headless ${execution.harness} is metered; set metered: true`);
  }
}

/** The login failure a harness reports, worded as real harnesses word it. */
export function loginFailure(harness: string, provider?: string) {
  const run = `${harness} login`;
  const reason = `${harness} needs a login${provider ? ` to ${provider}` : ""}: run \`${run}\``;
  return { reason, login: { harness, ...(provider ? { provider } : {}), run } };
}
