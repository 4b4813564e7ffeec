// Runtime aliases and the harness table: what `runtime` in wf.agents.open resolves to, and the
// refusals a real host makes before any turn (unknown alias, unlisted effort, headless claude).

import type { Execution, RuntimeAlias, RuntimeSelection } from "./types.ts";

/** The aliases `awf run` installs, and so every test starts from. */
export const DEFAULT_RUNTIMES: Readonly<Record<string, RuntimeAlias>> = {
  claude: { harness: "claude", model: "sonnet" },
  codex: { harness: "codex", model: "gpt-5.6-sol" },
};

interface HarnessFacts {
  efforts: readonly string[];
  placements: readonly Execution["placement"][];
  /** Headless runs of this harness are metered and must say so. */
  headlessNeedsMetered: boolean;
}

const HARNESSES: Readonly<Record<string, HarnessFacts>> = {
  claude: { efforts: ["low", "medium", "high", "xhigh", "max"], placements: ["pane", "headless"], headlessNeedsMetered: true },
  codex: { efforts: ["minimal", "low", "medium", "high", "xhigh"], placements: ["pane", "headless"], headlessNeedsMetered: false },
  pi: { efforts: ["off", "minimal", "low", "medium", "high"], placements: ["pane", "headless"], headlessNeedsMetered: false },
  cursor: { efforts: [], placements: ["pane", "headless"], headlessNeedsMetered: false },
};

const quoteList = (names: Iterable<string>) => [...names].map((name) => `"${name}"`).join(", ");

/** The settings a selection stands for; throws an Error naming what is wrong. */
export function resolveRuntime(
  key: string,
  selection: RuntimeSelection,
  aliases: Readonly<Record<string, RuntimeAlias>>,
): Execution {
  let execution: Execution;
  if (typeof selection === "string" || "alias" in selection) {
    const name = typeof selection === "string" ? selection : selection.alias;
    const alias = aliases[name];
    if (!alias) throw new Error(`agent "${key}": no runtime "${name}"; known: ${quoteList(Object.keys(aliases))}`);
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
  const harness = HARNESSES[execution.harness];
  if (!harness) throw new Error(`agent "${key}": no harness "${execution.harness}"; known: ${quoteList(Object.keys(HARNESSES))}`);
  if (execution.effort !== undefined && !harness.efforts.includes(execution.effort)) {
    const levels = harness.efforts.length ? `its levels are ${harness.efforts.join(", ")}` : "it has no effort levels";
    throw new Error(`agent "${key}": ${execution.harness} has no effort "${execution.effort}"; ${levels}`);
  }
  if (!harness.placements.includes(execution.placement)) {
    throw new Error(`agent "${key}": ${execution.harness} does not run ${execution.placement}`);
  }
  if (execution.placement === "headless" && harness.headlessNeedsMetered && execution.metered !== true) {
    throw new Error(`agent "${key}": headless ${execution.harness} is metered; set metered: true`);
  }
  return execution;
}

/** The login failure a harness reports, worded as real harnesses word it. */
export function loginFailure(harness: string, provider?: string) {
  const run = `${harness} login`;
  const reason = `${harness} needs a login${provider ? ` to ${provider}` : ""}: run \`${run}\``;
  return { reason, login: { harness, ...(provider ? { provider } : {}), run } };
}
