// testWorkflow: runs a workflow through the real engine with every agent replaced by its script,
// resolving to the run, or rejecting with every mistake of the test itself.

import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { realClocks } from "../workflow/clock.ts";
import { isWorkflow } from "../workflow/define.ts";
import { runWorkflow } from "../workflow/engine.ts";
import { messageOf } from "../workflow/errors.ts";
import { DEFAULT_RUNTIMES } from "../workflow/runtimes.ts";
import type { JsonValue, LogLine, Workflow } from "../workflow/types.ts";
import { callerStack, callSiteOf } from "./callSite.ts";
import { entryKind, type Script } from "./entries.ts";
import { readOptions, OptionsError, type FileTree, type ReadOptions } from "./options.ts";
import { plural, TestWorkflowError } from "./problems.ts";
import { ScriptedDecisions, type DecisionScript } from "./scriptedDecisions.ts";
import { ScriptedHost } from "./scriptedHost.ts";
import { ScriptBook } from "./scripts.ts";
import { StallGuard } from "./stallGuard.ts";
import { TestRun } from "./testRun.ts";
import { attachRunTrace, publishRun, type EntryTrace, type ProblemTrace, type RunTrace, type SourceSite } from "./trace.ts";

/** What any test may share (a helper spreads it into each test's own). */
export interface TestOptions<Args = unknown> {
  /** The args `run` is given; what `prepare` makes of no argv when left out. */
  args?: Args;
  /** The run's id, "test" unless given. */
  id?: string;
  /** Each agent's script, by key or by a pattern such as "verifier-*". */
  agents?: Record<string, Script>;
  /** Each decision's answers, by key or pattern. */
  decisions?: Record<string, DecisionScript>;
  /** Runtime aliases added to, or replacing, `claude` and `codex`. */
  runtimes?: Record<string, { harness: string; model: string; effort?: string; placement?: "pane" | "headless"; metered?: boolean }>;
  /** The run's deadline, a duration such as "5s"; none unless given. */
  timeout?: string;
  /** Real time with nothing starting or ending before the test fails; "2s" by default. */
  stall?: string;
  /** Turns the workflow may start before the test fails; 20 by default. */
  maxTurns?: number;
  /** Files laid out under the run's directory first: a string is contents, an object a folder. */
  files?: FileTree;
  /** Where the agents work instead of a temporary directory; left as it is. */
  cwd?: string;
}

const SCRIPT_OPTIONS = ["agents"] as const;

function entryTraces(options: ReadOptions): EntryTrace[] {
  return options.agents.flatMap((slot) =>
    slot.entries.map((entry, index) => ({
      option: SCRIPT_OPTIONS[0],
      key: slot.key,
      index: slot.isList ? index : null,
      kind: entryKind(entry),
      ...(entry.site ? { site: entry.site } : {}),
    })),
  );
}

async function layOut(tree: FileTree, directory: string): Promise<void> {
  for (const [name, contents] of Object.entries(tree)) {
    const path = join(directory, name);
    if (typeof contents === "string") {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, contents);
    } else {
      await mkdir(path, { recursive: true });
      await layOut(contents, path);
    }
  }
}

/** Runs `workflow` with every agent scripted; rejects only on the test's own mistakes. */
export async function testWorkflow<Args, Result>(
  workflow: Workflow<Args, Result>,
  options?: TestOptions<NoInfer<Args>>,
  ...extra: unknown[]
): Promise<TestRun<Result>> {
  const site = callSiteOf(testWorkflow);
  const stack = callerStack(testWorkflow);
  const startedAt = realClocks.deadline.now();
  const trace: RunTrace = {
    workflow: isWorkflow(workflow) ? workflow.name : "?",
    ...(site ? { site } : {}),
    entries: [],
    turns: [],
    decisions: [],
    problems: [],
    durationMs: 0,
  };
  const reject = (problems: ProblemTrace[]): never => {
    const error = new TestWorkflowError(problems);
    error.stack = `${error.name}: ${error.message}\n${stack.join("\n")}`;
    trace.problems = problems;
    trace.durationMs = realClocks.deadline.now() - startedAt;
    publishRun(trace);
    throw error;
  };
  if (!isWorkflow(workflow)) {
    reject([{ code: "option-invalid", option: "workflow", message: "testWorkflow's first argument must be what defineWorkflow made" }]);
  }
  if (extra.length > 0) {
    reject([{ code: "option-invalid", option: "args", message: "testWorkflow takes (workflow, options); a workflow's args go in options.args" }]);
  }
  let read: ReadOptions;
  try {
    read = readOptions(workflow as Workflow<unknown, unknown>, options);
  } catch (error) {
    if (error instanceof OptionsError) return reject(error.problems);
    throw error;
  }
  trace.entries = entryTraces(read);

  // Synchronous on purpose: the thread-pool round trips of the async calls were most of a one-turn test.
  const temporary = read.cwd === undefined ? mkdtempSync(join(tmpdir(), "turnlens-run-")) : undefined;
  const cwd = read.cwd ?? temporary!;
  try {
    if (read.files) await layOut(read.files, cwd);
    let args: unknown = read.args?.given;
    if (!read.args) {
      try {
        args = workflow.prepare ? await workflow.prepare({ argv: [], cwd }) : null;
      } catch (error) {
        return reject([
          { code: "args-required", option: "args", message: `${workflow.name} needs args: its prepare refused none: ${messageOf(error)}` },
        ]);
      }
    }
    return await runScripted(workflow, read, args, cwd, trace, reject, startedAt);
  } finally {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}

async function runScripted<Args, Result>(
  workflow: Workflow<Args, Result>,
  read: ReadOptions,
  args: unknown,
  cwd: string,
  trace: RunTrace,
  reject: (problems: ProblemTrace[]) => never,
  startedAt: number,
): Promise<TestRun<Result>> {
  const clocks = realClocks;
  const problems: ProblemTrace[] = [];
  const abort = new AbortController();
  const signals = {
    fail(problem: ProblemTrace) {
      problems.push(problem);
      if (problems.length === 1) abort.abort(new Error(problem.message));
    },
    activity: () => guard.poke(),
  };
  const book = new ScriptBook("agents", read.agents);
  const host = new ScriptedHost(book, signals, read.maxTurns);
  const decisions = new ScriptedDecisions(read.decisions, signals);
  const guard = new StallGuard(clocks.deadline, read.stallMs, () => {
    const inFlight = [...host.inFlight.values()].map((operation) => ({ agent: operation.agent, n: operation.n, nudge: operation.nudge }));
    const listed = inFlight.map((turn) => `"${turn.agent}" turn ${turn.n}${turn.nudge ? " (nudge)" : ""}`).join(", ");
    signals.fail({
      code: "stall",
      option: "stall",
      inFlight,
      message: `the run stalled: nothing started or ended for ${read.stallMs} ms; ${inFlight.length ? `in flight: ${listed}` : "no turn in flight"}`,
    });
  });
  const logs: LogLine[] = [];
  let result;
  try {
    result = await runWorkflow(workflow, {
      args,
      runId: read.id,
      attempt: 1,
      cwd,
      clocks,
      host,
      decisions,
      runtimes: { ...DEFAULT_RUNTIMES, ...read.runtimes },
      ...(read.timeoutMs !== undefined ? { timeoutMs: read.timeoutMs } : {}),
      signal: abort.signal,
      onLog: (line: LogLine) => logs.push(line),
    });
  } finally {
    guard.stop();
  }
  trace.turns = host.traces;
  trace.decisions = decisions.traces;
  trace.ending = {
    kind: result.ending.kind,
    ...("reason" in result.ending ? { reason: result.ending.reason } : {}),
    ...("stage" in result.ending && result.ending.stage ? { stage: result.ending.stage } : {}),
  };
  if (problems.length === 0) {
    const leftovers = book.leftovers();
    if (leftovers.length) {
      problems.push(...leftovers);
      if (result.ending.kind === "failed") {
        problems.push({ code: "workflow-threw", message: `the workflow threw: ${result.ending.reason}` });
      }
    }
  }
  if (problems.length) return reject(problems);
  const run = new TestRun<Result>({
    ending: result.ending,
    ...(result.error !== undefined ? { error: result.error } : {}),
    turns: host.turns,
    agents: host.agents,
    decisions: decisions.calls,
    logs,
    stages: result.stages,
  });
  trace.durationMs = realClocks.deadline.now() - startedAt;
  attachRunTrace(run, trace);
  publishRun(trace);
  return run;
}

export type { JsonValue, SourceSite };
export { plural };
