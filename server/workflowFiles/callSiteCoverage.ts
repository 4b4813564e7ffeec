// A workflow call as the editor places it: its receiver and name on its line (`verifier.run`), and
// what the tests did there (how many reached it, how its turns ended) for `turnlens/outcomeCoverage`.
import { OUTCOME_KINDS, type CallCoverage, type Reach } from "../../core/coverage/outcomeCoverage.ts";
import { DECISION_COVERAGE_OUTCOMES, outcomeKindWords } from "../../core/testing/outcomeWords.ts";
import { callNameRange } from "../analysis/ranges.ts";
import type { CallSiteCoverage } from "../protocol.ts";

/** What the tests (all, or those of `tests`, absolute paths) did at a call: where it is, how many reached it, its turns' outcomes. */
export function callSite(call: CallCoverage, lines: readonly string[], tests: Set<string> | undefined): CallSiteCoverage {
  const reached: Reach[] = tests ? call.reached.filter((reach) => tests.has(reach.test.file)) : call.reached;
  const counts = new Map<string, number>();
  for (const reach of reached) for (const turn of reach.turns) counts.set(turn.outcome, (counts.get(turn.outcome) ?? 0) + 1);
  const possible: string[] = call.kind === "decision" ? DECISION_COVERAGE_OUTCOMES : OUTCOME_KINDS;
  const others = [...counts.keys()].filter((outcome) => !possible.includes(outcome)).sort();
  return {
    range: callNameRange(lines, call.site, call.callee),
    kind: call.kind,
    ...(call.callee !== undefined ? { callee: call.callee } : {}),
    tests: reached.length,
    turns: reached.reduce((sum, reach) => sum + reach.turns.length, 0),
    outcomes: [...possible, ...others].map((outcome) => ({ outcome, words: outcomeKindWords(outcome, call.kind === "decision"), turns: counts.get(outcome) ?? 0 })),
  };
}
