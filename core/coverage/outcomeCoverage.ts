// Outcome coverage: from the run traces of any number of test files, what the tests did in each
// workflow file: per call site (the `agent.run(...)` / `wf.agents.open(...)` / `wf.decide(...)`
// that asked), the tests that reached it and how its turns ended; per agent, the outcome kinds
// the engine can give it against the ones some test gave. The CLI's `--coverage` and the language
// server's workflow views both read it.
import { type DecisionCoverageOutcome, outcomeKindWords } from "../testing/outcomeWords.ts";
import type { OutcomeKind } from "../workflow/types.ts";
import type { DecisionTrace, RunTrace, SourceSite } from "../testing/trace.ts";
import type { FileReport, TestReport } from "../execution/report.ts";
import type { CallSiteKind, WorkflowCallSite } from "./workflowCallSites.ts";

/**
 * Every kind of the engine's `Outcome` (core/workflow/types.ts), in its order. A `Record` over the
 * type, so a kind added to or removed from `Outcome` fails the typecheck here.
 */
const ENGINE_OUTCOMES: Record<OutcomeKind, true> = { answered: true, unanswered: true, blocked: true, "timed-out": true, failed: true, cancelled: true };
export const OUTCOME_KINDS = Object.keys(ENGINE_OUTCOMES) as OutcomeKind[];

/** One test, as the views name it. */
export interface TestRef {
  /** The test file, absolute. */
  file: string;
  /** The runner's id within the file (describe names and name joined with " › "). */
  id: string;
  name: string;
  path: string[];
  /** Where `test(...)` is. */
  location?: SourceSite;
}

/** A turn (or a decision) a test's run asked at a call site. */
export interface ReachedTurn {
  /** The agent's key, or the decision's key. */
  agent: string;
  /** The turn's number among the agent's turns; 0 for a decision. */
  n: number;
  nudge: boolean;
  outcome: string;
  /** The script entry that met it (`answer(...)` / `noAnswer.*()` in the test file). */
  entry?: SourceSite;
}

/** One test's turns at one call site. */
export interface Reach {
  test: TestRef;
  turns: ReachedTurn[];
}

export interface CallCoverage {
  /** Where the call is: its line, and the column of the called name. */
  site: SourceSite;
  kind: CallSiteKind;
  /** The call as written (`verifier.run`), when the workflow's source was read. */
  callee?: string;
  /** Each test that reached the call, in the order of the files and tests given. */
  reached: Reach[];
  /** Turns per outcome, in OUTCOME_KINDS' order, then any other outcome the traces name. */
  outcomes: Array<{ outcome: string; turns: number }>;
}

export interface AgentCoverage {
  key: string;
  /** Where its `wf.agents.open(...)` is; absent when no trace said. */
  openedAt?: SourceSite;
  /** Kinds some test's turn of this agent ended with, in OUTCOME_KINDS' order. */
  given: OutcomeKind[];
  /** Kinds no test gave it. */
  notGiven: OutcomeKind[];
  /** Each test that reached the agent, with its turns (for "add a test": the nearest one is copied). */
  reached: Reach[];
}

export interface WorkflowCoverage {
  /** The workflow's source file, absolute. */
  file: string;
  /** Calls some test reached, then (when the source was read) the ones none reached, by line. */
  calls: CallCoverage[];
  /** Calls in the source that no test reached (a subset of `calls`, with `reached` empty). */
  unreached: CallCoverage[];
  agents: AgentCoverage[];
}

export interface OutcomeCoverage {
  /** By file name. */
  workflows: WorkflowCoverage[];
}

/** The views' input: the reports of each test file's last run. */
export interface CoverageInput {
  reports: readonly FileReport[];
  /** A workflow file's calls found in its source; calls no test reached come from here. */
  callSitesOf?: (workflowFile: string) => WorkflowCallSite[] | undefined;
}

const siteKey = (site: SourceSite) => `${site.file}:${site.line}:${site.column}`;

function testRef(file: string, test: TestReport): TestRef {
  return { file, id: test.id, name: test.name, path: test.path, ...(test.location ? { location: test.location } : {}) };
}

function addReach(reached: Reach[], test: TestRef, turn: ReachedTurn): void {
  let reach = reached.find((each) => each.test.file === test.file && each.test.id === test.id);
  if (!reach) reached.push((reach = { test, turns: [] }));
  reach.turns.push(turn);
}

function decisionOutcome(decision: DecisionTrace): DecisionCoverageOutcome {
  if (decision.answered) return "answered";
  return decision.error !== undefined ? "failed" : "unanswered";
}

/** Outcome coverage of every workflow the given runs reached. */
export function outcomeCoverage(input: CoverageInput): OutcomeCoverage {
  const calls = new Map<string, { site: SourceSite; kind: CallSiteKind; reached: Reach[] }>();
  const agents = new Map<string, { key: string; file: string; openedAt?: SourceSite; reached: Reach[] }>();
  const call = (site: SourceSite, kind: CallSiteKind) => {
    const key = siteKey(site);
    let found = calls.get(key);
    if (!found) calls.set(key, (found = { site, kind, reached: [] }));
    return found;
  };
  for (const report of input.reports) {
    for (const test of report.tests) {
      const ref = testRef(report.file, test);
      for (const run of test.runs) collectRun(run, ref, call, agents);
    }
  }

  const files = new Set<string>();
  for (const { site } of calls.values()) files.add(site.file);
  for (const agent of agents.values()) files.add(agent.file);
  const workflows: WorkflowCoverage[] = [];
  for (const file of [...files].sort()) {
    const reachedCalls = [...calls.values()].filter((each) => each.site.file === file);
    const written = input.callSitesOf?.(file);
    const covered: CallCoverage[] = [];
    const unreached: CallCoverage[] = [];
    for (const each of reachedCalls) {
      const source = written ? matchWritten(written, each.site) : undefined;
      covered.push({ site: each.site, kind: each.kind, ...(source ? { callee: source.callee } : {}), reached: each.reached, outcomes: outcomeCounts(each.reached) });
    }
    for (const site of written ?? []) {
      if (reachedCalls.some((each) => matchWritten(written ?? [], each.site) === site)) continue;
      unreached.push({ site: { file, line: site.line, column: site.column }, kind: site.kind, callee: site.callee, reached: [], outcomes: [] });
    }
    const byPosition = (left: CallCoverage, right: CallCoverage) => left.site.line - right.site.line || left.site.column - right.site.column;
    const agentViews = [...agents.values()]
      .filter((agent) => agent.file === file)
      .map((agent): AgentCoverage => {
        const seen = new Set(agent.reached.flatMap((reach) => reach.turns.map((turn) => turn.outcome)));
        return {
          key: agent.key,
          ...(agent.openedAt ? { openedAt: agent.openedAt } : {}),
          given: OUTCOME_KINDS.filter((kind) => seen.has(kind)),
          notGiven: OUTCOME_KINDS.filter((kind) => !seen.has(kind)),
          reached: agent.reached,
        };
      })
      .sort((left, right) => (left.openedAt?.line ?? 0) - (right.openedAt?.line ?? 0) || left.key.localeCompare(right.key));
    workflows.push({ file, calls: [...covered, ...unreached].sort(byPosition), unreached: unreached.sort(byPosition), agents: agentViews });
  }
  return { workflows };
}

function collectRun(
  run: RunTrace,
  test: TestRef,
  call: (site: SourceSite, kind: CallSiteKind) => { reached: Reach[] },
  agents: Map<string, { key: string; file: string; openedAt?: SourceSite; reached: Reach[] }>,
): void {
  for (const turn of run.turns) {
    const reached: ReachedTurn = { agent: turn.agent, n: turn.n, nudge: turn.nudge, outcome: turn.outcome, ...(turn.match?.site ? { entry: turn.match.site } : {}) };
    // A wake (a message's, or its reminder) is the receiver's turn: no `.run` of its asked it. Its
    // trace's `askedAt` is the sender's `agent.run` (what caused it, for the timeline), so it is
    // counted at the receiver's open call and in its outcomes, never at the sender's call.
    if (turn.askedAt && turn.cause === undefined) addReach(call(turn.askedAt, "turn").reached, test, reached);
    if (turn.openedAt) addReach(call(turn.openedAt, "open").reached, test, reached);
    const file = turn.openedAt?.file ?? turn.askedAt?.file;
    if (file === undefined) continue;
    // An agent is its key and the call that opened it: the same key opened at another call (another
    // branch of the workflow) is another agent to cover.
    const key = `${file}\0${turn.agent}\0${turn.openedAt ? siteKey(turn.openedAt) : ""}`;
    let agent = agents.get(key);
    if (!agent) agents.set(key, (agent = { key: turn.agent, file, reached: [] }));
    if (!agent.openedAt && turn.openedAt) agent.openedAt = turn.openedAt;
    addReach(agent.reached, test, reached);
  }
  for (const decision of run.decisions) {
    if (!decision.askedAt) continue;
    const reached: ReachedTurn = {
      agent: decision.key,
      n: 0,
      nudge: false,
      outcome: decisionOutcome(decision),
      ...(decision.match?.site ? { entry: decision.match.site } : {}),
    };
    addReach(call(decision.askedAt, "decision").reached, test, reached);
  }
}

/** The written call a trace's site names: the one on its line whose name is nearest its column. */
function matchWritten(written: readonly WorkflowCallSite[], site: SourceSite): WorkflowCallSite | undefined {
  const onLine = written.filter((each) => each.line === site.line);
  return onLine.sort((left, right) => Math.abs(left.column - site.column) - Math.abs(right.column - site.column))[0];
}

function outcomeCounts(reached: readonly Reach[]): Array<{ outcome: string; turns: number }> {
  const counts = new Map<string, number>();
  for (const reach of reached) for (const turn of reach.turns) counts.set(turn.outcome, (counts.get(turn.outcome) ?? 0) + 1);
  const known = OUTCOME_KINDS.filter((kind) => counts.has(kind));
  const others = [...counts.keys()].filter((outcome) => !(OUTCOME_KINDS as string[]).includes(outcome)).sort();
  return [...known, ...others].map((outcome) => ({ outcome, turns: counts.get(outcome) ?? 0 }));
}

/**
 * `in 6 tests: answered 9, no answer 2, timed out 1`, in the words of the one table (outcomeWords.ts),
 * as a test file's hints say `in 3 tests`; `no test` for an unreached call. Within `width`, the
 * first outcome and how many more, then the count of tests alone.
 */
export function callSummary(call: CallCoverage, width = Number.POSITIVE_INFINITY): string {
  const tests = call.reached.length;
  if (tests === 0) return "no test";
  const where = `in ${tests} ${tests === 1 ? "test" : "tests"}`;
  const counts = call.outcomes.map(({ outcome, turns }) => `${outcomeKindWords(outcome, call.kind === "decision")} ${turns}`);
  const candidates = [`${where}: ${counts.join(", ")}`, `${where}: ${counts[0]}, ${counts.length - 1} more`, where];
  return candidates.find((candidate, index) => candidate.length <= width && (index !== 1 || counts.length > 1)) ?? where;
}
