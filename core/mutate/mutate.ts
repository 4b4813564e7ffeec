// Which scripted answers a test's assertions depend on (`turnlens test --mutate`, the editor's
// "Check what this test asserts"): from a passed test's traces, a mutant per change of each
// `agents` entry it met, each rerun alone in the pool's warm workers, in parallel, within a time
// budget per file; a mutant whose test still passed is an answer no assertion noticed.

import { noAnswerKindOf } from "../testing/entries.ts";
import { NO_ANSWER_KINDS, type NoAnswerKind } from "../testing/noAnswerKinds.ts";
import type { ScriptChange } from "../testing/scriptMutation.ts";
import type { RunTrace, SourceSite, TurnTrace } from "../testing/trace.ts";
import { mutantValue, writtenValue } from "./mutantValues.ts";
import type { FileJob, WorkerPool } from "../execution/pool.ts";
import type { FileReport, TestReport } from "../execution/report.ts";

/** A file's mutants start within this time of its first one, unless `--mutate-budget` says otherwise. */
export const DEFAULT_MUTATE_BUDGET_MS = 30_000;

export type MutantResult = "noticed" | "not-noticed" | "not-run";

export interface Mutant {
  file: string;
  /** The test's runner id (its path joined by " › "), which the rerun selects. */
  testId: string;
  /** The 1-based testWorkflow call of the test whose script is changed. */
  call: number;
  /** How many testWorkflow calls the test made (the table names the call when it made more than one). */
  calls: number;
  /** The agent that met the entry (the first, for a glob key). */
  agent: string;
  key: string;
  index: number | null;
  /** Where the entry was written. */
  site?: SourceSite;
  change: ScriptChange;
  /** The change in words: `changed to {summary: ""}`, `changed to noAnswer.failed()`, `dropped from its list`. */
  summary: string;
  result?: MutantResult;
  /** For a noticed mutant, the first line of the failure; for one not run, why. */
  why?: string;
}

/** What `--mutate` found: each mutant with its result, the budget a file had, and the time the mutants took. */
export interface MutationResults {
  budgetMs: number;
  durationMs: number;
  mutants: Mutant[];
}

/** What an answer entry becomes for its noAnswer mutant: a turn that fails, as a crashed harness does. */
const ANSWER_BECOMES: NoAnswerKind = "failed";

/** Every mutant of a file's passed tests, from the baseline's traces (each run numbered by `call`). */
export function listMutants(report: FileReport): Mutant[] {
  return report.tests.filter((test) => test.status === "passed").flatMap((test) => mutantsOfTest(report.file, test));
}

function mutantsOfTest(file: string, test: TestReport): Mutant[] {
  const mutants: Mutant[] = [];
  const seen = new Set<string>();
  const runs = [...test.runs].filter((run) => run.call !== undefined).sort((a, b) => a.call! - b.call!);
  for (const run of runs) {
    for (const turn of run.turns) {
      const match = turn.match;
      if (match?.option !== "agents") continue;
      const id = JSON.stringify([run.call, match.key, match.index]);
      if (seen.has(id)) continue;
      seen.add(id);
      mutants.push(...mutantsOfEntry(file, test, run, turn, runs.length));
    }
  }
  return mutants;
}

function mutantsOfEntry(file: string, test: TestReport, run: RunTrace, first: TurnTrace, calls: number): Mutant[] {
  const { key, index } = first.match!;
  const entry = run.entries.find((candidate) => candidate.option === "agents" && candidate.key === key && candidate.index === index);
  const base = {
    file,
    testId: test.id,
    call: run.call!,
    calls,
    agent: first.agent,
    key,
    index,
    ...(entry?.site ? { site: entry.site } : first.match?.site ? { site: first.match.site } : {}),
  };
  const mutants: Mutant[] = [];
  const noAnswerKind = entry ? noAnswerKindOf(entry.kind) : undefined;
  if (noAnswerKind) {
    // The noAnswer a noAnswer entry becomes: one whose turn ends with another outcome.
    const to = NO_ANSWER_KINDS[noAnswerKind].mutant;
    mutants.push({ ...base, change: { kind: "no-answer", noAnswer: to }, summary: `changed to noAnswer.${NO_ANSWER_KINDS[to].method}()` });
  } else {
    const answered = run.turns.find((turn) => turn.match?.option === "agents" && turn.match.key === key && turn.match.index === index && turn.outcome === "answered");
    if (answered && answered.answer !== undefined) {
      const value = mutantValue(answered.answer, answered.schema);
      if (value !== undefined) mutants.push({ ...base, change: { kind: "value", value }, summary: `changed to ${writtenValue(value)}` });
    }
    mutants.push({ ...base, change: { kind: "no-answer", noAnswer: ANSWER_BECOMES }, summary: `changed to noAnswer.${NO_ANSWER_KINDS[ANSWER_BECOMES].method}()` });
  }
  const listLength = index === null ? 0 : run.entries.filter((candidate) => candidate.option === "agents" && candidate.key === key).length;
  if (listLength > 1) mutants.push({ ...base, change: { kind: "drop" }, summary: "dropped from its list" });
  return mutants;
}

/** The sentence the CLI and the editor show for a mutant no assertion noticed. */
export function uncheckedSentence(mutant: Mutant): string {
  const whose = mutant.index === null ? `${mutant.agent}'s answer` : `${mutant.agent}'s answer ${mutant.index + 1}`;
  return `no assertion of this test depends on ${whose} (${mutant.summary}, the test still passed)`;
}

export interface MutantRunOptions {
  /** How many mutants run at once (the pool's size). */
  concurrency: number;
  /** Each file's mutants start within this time of its first; the others are not run (budget). */
  budgetMs: number;
  /** A mutant's test timeout: the run's, cut to ten times the baseline test's time plus 2 s. */
  timeoutMs: number;
  /** Each baseline test's duration, by file and id, for the mutant's timeout. */
  baselineMs?: (mutant: Mutant) => number | undefined;
  /** What the job carries besides (an editor's texts). */
  job?: Partial<FileJob>;
  /** The session's id, so each worker bundles a file once for its mutants (mutantBundles.ts). */
  session?: string;
  /** Called as each mutant settles. */
  onResult?: (mutant: Mutant) => void;
  signal?: AbortSignal;
  /** The clock the budget is measured on. */
  now?: () => number;
}

/** Runs the mutants (their `result` and `why` are set); those past their file's budget are `not-run`. */
export async function runMutants(pool: WorkerPool, mutants: Mutant[], options: MutantRunOptions): Promise<void> {
  const now = options.now ?? (() => performance.now());
  const firstStart = new Map<string, number>();
  let next = 0;
  // The first mutant of each parallel lane starts before any budget is checked (they start together,
  // in one tick): a budget shorter than a mutant still runs one per worker, and says so.
  let firstWave = true;
  const worker = async () => {
    while (next < mutants.length) {
      const mutant = mutants[next++]!;
      const started = firstStart.get(mutant.file);
      if (options.signal?.aborted) {
        settle(mutant, "not-run", "cancelled");
        continue;
      }
      if (!firstWave && started !== undefined && now() - started > options.budgetMs) {
        settle(mutant, "not-run", "budget");
        continue;
      }
      if (started === undefined) firstStart.set(mutant.file, now());
      const baseline = options.baselineMs?.(mutant);
      const timeoutMs = baseline === undefined ? options.timeoutMs : Math.min(options.timeoutMs, Math.ceil(baseline * 10) + 2000);
      // A signal of its own, so the caller's does not gather a listener per mutant.
      const own = new AbortController();
      const onAbort = () => own.abort(options.signal?.reason);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const result = await pool.run(
        {
          ...options.job,
          file: mutant.file,
          timeoutMs,
          onlyIds: [mutant.testId],
          traces: false,
          mutation: {
            change: { call: mutant.call, key: mutant.key, index: mutant.index, to: mutant.change },
            ...(options.session !== undefined ? { session: options.session } : {}),
          },
        },
        own.signal,
      );
      options.signal?.removeEventListener("abort", onAbort);
      const test = result?.report.tests.find((candidate) => candidate.id === mutant.testId);
      if (!result) settle(mutant, "not-run", "cancelled");
      else if (!test) settle(mutant, "noticed", firstLine(result.report.error?.message ?? "the test did not run"));
      else if (test.status === "passed") settle(mutant, "not-noticed");
      else if (test.status === "failed") settle(mutant, "noticed", firstLine(test.error?.message ?? "failed"));
      else settle(mutant, "not-run", `the test was ${test.status}`);
    }
  };
  const settle = (mutant: Mutant, result: MutantResult, why?: string) => {
    mutant.result = result;
    if (why !== undefined) mutant.why = why;
    options.onResult?.(mutant);
  };
  const lanes = Array.from({ length: Math.max(1, Math.min(options.concurrency, mutants.length)) }, worker);
  firstWave = false;
  await Promise.all(lanes);
}

function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim() !== "") ?? text;
}

/** A file's score: mutants noticed of those run. */
export function scoreOf(mutants: readonly Mutant[]): { noticed: number; run: number; notRun: number } {
  const noticed = mutants.filter((mutant) => mutant.result === "noticed").length;
  const notRun = mutants.filter((mutant) => mutant.result === "not-run").length;
  return { noticed, run: mutants.length - notRun, notRun };
}
