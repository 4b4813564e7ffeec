// testWorkflow's option checks at the other time: before the run. The editor's static pass hands
// in what a test file's text makes certain (NotKnown where it cannot tell, entryStandIn for an
// answer(…) or noAnswer.…()) and gets back the refusals the run would make, from the same rules.

import { decisionScriptRefusals } from "./scriptedDecisions.ts";
import { readEventOptions, scriptedAgentKey } from "./eventOptions.ts";
import { valuesWithoutFromStage } from "./continueOptions.ts";
import { isCertainlyAbsent } from "./notKnown.ts";
import { COMMON_OPTIONS, EVENT_OPTIONS, filesWithCwd, unknownOptionProblem } from "./options.ts";
import { messageScriptRefusals } from "./scriptedMessages.ts";
import { participantScriptRefusals } from "./scriptedParticipants.ts";
import { scriptRefusals, type ScriptRefusal } from "./scripts.ts";
import type { ProblemTrace } from "./trace.ts";

/**
 * The names taken before the run: every common option, and `event`/`events`, since the text does
 * not tell whether the workflow declares events (the run refuses them only for one that declares none).
 */
export const OPTIONS_BEFORE_RUN: readonly string[] = [...COMMON_OPTIONS, ...EVENT_OPTIONS];

/**
 * The refusals of testWorkflow's options that need neither the workflow nor the run: each name
 * not taken, each script that is not one, an event naming no turn or an id given twice, `values`
 * without `fromStage`, `files` with `cwd`. A problem has the run's words and data, and a script
 * list's also the `index` of its first wrong item. What depends on the workflow (its stages, its
 * events' schemas) or on how the run words a whole value (an event's shape) waits for the run.
 */
export function problemsBeforeRun(given: Record<string, unknown>): ProblemTrace[] {
  const problems: ProblemTrace[] = [];
  for (const name of Object.keys(given)) {
    if (!OPTIONS_BEFORE_RUN.includes(name)) problems.push(unknownOptionProblem(name, OPTIONS_BEFORE_RUN));
  }
  const refusals = (option: string, found: readonly ScriptRefusal[]) =>
    found.map(({ problem, index }): ProblemTrace => ({ ...problem, option: problem.option ?? option, ...(index !== undefined ? { index } : {}) }));
  problems.push(...refusals("agents", scriptRefusals("agents", given.agents)));
  for (const { message, key } of decisionScriptRefusals(given.decisions)) {
    problems.push({ code: "script-invalid", option: "decisions", message, ...(key !== undefined ? { key } : {}) });
  }
  problems.push(...refusals("compactions", scriptRefusals("compactions", given.compactions, "compaction")));
  problems.push(...refusals("messages", messageScriptRefusals(given.messages)));
  problems.push(...refusals("participants", participantScriptRefusals(given.participants)));
  // On a continue the earlier events' ids are given first; the text does not tell them.
  const agent = scriptedAgentKey(given.agents);
  readEventOptions(undefined, given.event, given.events, problems, {
    ...(agent !== undefined ? { agent } : {}),
    earlierIds: isCertainlyAbsent(given, "earlier") ? [] : undefined,
    continuing: false,
    shapes: false,
  });
  for (const pair of [valuesWithoutFromStage(given), filesWithCwd(given)]) if (pair) problems.push(pair);
  return problems;
}
