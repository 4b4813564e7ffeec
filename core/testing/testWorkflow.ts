// testWorkflow: runs a workflow through the real engine with every agent replaced by its script,
// resolving to the run, or rejecting with every mistake of the test itself.

import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { realClock, realClocks } from "../workflow/clock.ts";
import { isWorkflow } from "../workflow/define.ts";
import { runWorkflow, type RunControl } from "../workflow/engine.ts";
import { messageOf } from "../workflow/errors.ts";
import { DEFAULT_RUNTIMES } from "../workflow/runtimes.ts";
import type { HarnessAllowance, JsonValue, LogLine, PanesSetting, Workflow } from "../workflow/types.ts";
import type { TurnOperation } from "../workflow/host.ts";
import { callerStack, callSiteOf } from "./callSite.ts";
import { entryKind, type Script } from "./entries.ts";
import { readOptions, OptionsError, type FileTree, type ReadOptions } from "./options.ts";
import { continueSettings, type EarlierOption } from "./continueOptions.ts";
import { toInLine } from "../workflow/runLog.ts";
import { plural, TestWorkflowError } from "./problems.ts";
import { ScriptedDecisions, type DecisionScript } from "./scriptedDecisions.ts";
import { ScriptedHost } from "./scriptedHost.ts";
import { ScriptedCompactions } from "./scriptedCompactions.ts";
import { ScriptedMessages, type MessageScript } from "./scriptedMessages.ts";
import { ScriptedParticipants, type ParticipantScript } from "./scriptedParticipants.ts";
import { ScriptBook } from "./scripts.ts";
import { ScriptedEvents } from "./scriptedEvents.ts";
import { StallGuard } from "./stallGuard.ts";
import { TestTime } from "./testTime.ts";
import { TestRun } from "./testRun.ts";
import { attachRunTrace, publishRun, type EntryTrace, type ProblemTrace, type RunTrace, type SourceSite } from "./trace.ts";

/** What any test may share (a helper spreads it into each test's own): bare, it gives no args, so it fits every workflow's. */
export interface TestOptions<Args = never> {
  /** The args `run` is given; what `prepare` makes of no argv when left out. */
  args?: Args;
  /** The run's id, "test" unless given. */
  id?: string;
  /** Each agent's script, by key or by a pattern such as "verifier-*". */
  agents?: Record<string, Script>;
  /** Each agent's compactions, by key or pattern: a summary's text, a noAnswer, or a list; "" without one. */
  compactions?: Record<string, Script>;
  /** Each agent's script for a message that wakes it, by key or pattern: `(message) => …`, or a list, one per message. */
  messages?: Record<string, MessageScript>;
  /** Each participant's script, by key: `(event) => …`, called with each route to it and each message it is sent. */
  participants?: Record<string, ParticipantScript>;
  /** Each decision's answers, by key or pattern. */
  decisions?: Record<string, DecisionScript>;
  /** What `wf.allowance(harness)` reads, per harness; every harness reads `{ kind: "none" }` without it. */
  allowance?: Record<string, HarnessAllowance>;
  /** The session the run is started from; without it, `wf.agents.caller` and `forkCaller` answer null. */
  caller?: { harness: string; model?: string; here?: boolean };
  /** `awf run --workspace` and `--keep-panes`: the run's workspace and no pane kept by default. */
  panes?: PanesSetting;
  /** Runtime aliases added to, or replacing, `claude` and `codex`. */
  runtimes?: Record<string, { harness: string; model: string; effort?: string; placement?: "pane" | "headless"; metered?: boolean }>;
  /** The run's deadline, a duration such as "5s"; none unless given. */
  timeout?: string;
  /** Real time with nothing starting or ending before the test fails; "2s" by default. */
  stall?: string;
  /** Turns the workflow may start before the test fails; 20 by default. */
  maxTurns?: number;
  /** Timers the virtual clock skips to before the run parks instead; 20 by default. */
  maxTimers?: number;
  /** For a workflow with events: the event that starts the run. */
  event?: { name: string; data?: unknown; eventId?: string };
  /** For a workflow with events: events sent while (`during`) or after (`after`) an agent's nth turn, in order. */
  events?: Array<({ during: string } | { after: string }) & { name: string; data?: unknown; eventId?: string }>;
  /** Files laid out under the run's directory first: a string is contents, an object a folder. */
  files?: FileTree;
  /** Where the agents work instead of a temporary directory; left as it is. */
  cwd?: string;
  /** What an earlier attempt left (its stage values, in.jsonl and run.jsonl lines): the test is its continue. */
  earlier?: EarlierOption;
  /** The stage the attempt starts at, as `--from-stage`: it and later stages are redone. */
  fromStage?: string;
  /** Values for the stages before fromStage that have no record, as `--values`; never for a workflow with events. */
  values?: Record<string, JsonValue | undefined>;
}

const SCRIPT_OPTIONS = ["agents"] as const;

/** A keepAlive with no window lasts this long in a test rather than the hour. */
export const TEST_KEEP_ALIVE_MS = 100;

function entryTraces(options: ReadOptions): EntryTrace[] {
  return [
    ...scriptEntryTraces(SCRIPT_OPTIONS[0], options.agents),
    ...scriptEntryTraces("compactions", options.compactions),
    ...scriptEntryTraces("messages", options.messages),
    ...options.participants.map((slot): EntryTrace => ({ option: "participants", key: slot.key, index: null, kind: "function" })),
  ];
}

function scriptEntryTraces(option: EntryTrace["option"], slots: ReadOptions["agents"]): EntryTrace[] {
  return slots.flatMap((slot) =>
    slot.entries.map((entry, index) => ({
      option,
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
    compactions: [],
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
  const problems: ProblemTrace[] = [];
  const abort = new AbortController();
  const signals = {
    fail(problem: ProblemTrace) {
      problems.push(problem);
      if (problems.length === 1) abort.abort(new Error(problem.message));
    },
    activity: () => guard.poke(),
    turnStarting: (operation: TurnOperation) => events.turnStarting(operation),
    turnSettled: (operation: TurnOperation) => events.turnEnded(operation),
  };
  const events = new ScriptedEvents(read.events, signals.fail);
  const time = new TestTime(realClock.now(), read.maxTimers, events, () => guard.poke());
  const clocks = { run: time.clock, deadline: realClock };
  let control: RunControl | undefined;
  const book = new ScriptBook("agents", read.agents);
  const compactions = new ScriptedCompactions(new ScriptBook("compactions", read.compactions, "compaction"), signals.fail);
  const messageScripts = new ScriptedMessages(new ScriptBook("messages", read.messages, "message"), signals.fail);
  const participants = new ScriptedParticipants(read.participants, signals.fail, () => guard.poke());
  const host = new ScriptedHost(book, signals, read.maxTurns, compactions, messageScripts);
  const decisions = new ScriptedDecisions(read.decisions, signals);
  const guard = new StallGuard(clocks.deadline, read.stallMs, () => {
    const operations = [...host.inFlight.values()];
    const inFlight = operations.map((operation) => ({ agent: operation.agent, n: operation.n, nudge: operation.nudge }));
    const listed = operations
      .map((operation) =>
        operation.kind === "message"
          ? `"${operation.agent}" woken by a message${operation.nudge ? " (reminder)" : ""}`
          : `"${operation.agent}" ${operation.kind === "compact" ? "compaction" : "turn"} ${operation.n}${operation.nudge ? " (nudge)" : ""}`,
      )
      .join(", ");
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
      ...continueSettings(read, time.clock.now()),
      cwd,
      clocks,
      host,
      decisions,
      runtimes: { ...DEFAULT_RUNTIMES, ...read.runtimes },
      ...(read.timeoutMs !== undefined ? { timeoutMs: read.timeoutMs } : {}),
      signal: abort.signal,
      onLog: (line: LogLine) => logs.push(line),
      ...(read.caller ? { caller: read.caller } : {}),
      panes: read.panes,
      allowance: (harness: string) => read.allowance[harness] ?? { kind: "none" },
      idlePolicy: time.policy,
      defaultKeepAliveMs: TEST_KEEP_ALIVE_MS,
      ...(read.startEvent ? { startEvent: read.startEvent } : {}),
      participants,
      onStart: (started) => {
        control = started;
        events.connect(started);
        participants.connect(started);
        started.attempt.onPark(() => (host.attemptParked = true));
      },
    });
  } finally {
    guard.stop();
  }
  trace.turns = host.traces;
  trace.compactions = compactions.traces;
  trace.decisions = decisions.traces;
  trace.ending = {
    kind: result.ending.kind,
    ...("reason" in result.ending ? { reason: result.ending.reason } : {}),
    ...("stage" in result.ending && result.ending.stage ? { stage: result.ending.stage } : {}),
  };
  trace.events = events.traces;
  trace.messages = (control?.attempt.messages.records ?? []).map((message) => {
    const match = messageScripts.matches.get(message.id);
    return { ...message, ...(match ? { match } : {}) };
  });
  trace.participants = participants.traces;
  if (problems.length === 0) problems.push(...events.unsent(result.ending));
  if (problems.length === 0) {
    const leftovers = [...book.leftovers(), ...compactions.leftovers(), ...messageScripts.leftovers()];
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
    compactions: compactions.records,
    sets: host.sets,
    decisions: decisions.calls,
    logs,
    stages: result.stages,
    timers: control?.attempt.timers ?? [],
    events: (control?.attempt.inbox.lines ?? []).map(toInLine),
    emits: control?.attempt.inbox.emits ?? [],
    runLines: control?.attempt.runLog ?? [],
    messages: control?.attempt.messages.records ?? [],
  });
  trace.durationMs = realClocks.deadline.now() - startedAt;
  attachRunTrace(run, trace);
  publishRun(trace);
  return run;
}

export type { JsonValue, SourceSite };
export { plural };
