// The test's own mistakes: each a ProblemTrace with a code and data, worded in the house style
// (`agent "<key>" turn <n>: <why>. It was asked: <first line>`), thrown together as one Error.

import { firstLine } from "../workflow/json.ts";
import { attachProblems, type ProblemTrace } from "./trace.ts";

export interface TurnIdentity {
  agent: string;
  n: number;
  nudge: boolean;
  prompt: string;
}

/** A problem about one turn; `withPrompt` adds the `It was asked:` suffix. */
export function turnProblem(code: ProblemTrace["code"], turn: TurnIdentity, why: string, extra: Partial<ProblemTrace> = {}, withPrompt = true): ProblemTrace {
  const head = `agent "${turn.agent}" turn ${turn.n}${turn.nudge ? " (nudge)" : ""}: ${why}`;
  return {
    code,
    message: withPrompt ? `${head}. It was asked: ${firstLine(turn.prompt)}` : head,
    agent: turn.agent,
    turn: turn.n,
    nudge: turn.nudge,
    prompt: turn.prompt,
    ...extra,
  };
}

export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
export { quoted } from "../workflow/unknownOptions.ts";

/** What testWorkflow rejects with: every problem, one per line. */
export class TestWorkflowError extends Error {
  readonly code: string;
  constructor(readonly problems: ProblemTrace[]) {
    super(problems.map((problem) => problem.message).join("\n"));
    this.name = "TestWorkflowError";
    this.code = problems[0]?.code ?? "test-failed";
    attachProblems(this, problems);
  }
}
