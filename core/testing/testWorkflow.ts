// testWorkflow: runs a workflow through the real engine with every agent replaced by its script,
// resolving to the run, or rejecting with every mistake of the test itself.

import { nameSchemaMismatches } from "./schemaNaming.ts";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { realClock, realClocks } from "../workflow/clock.ts";
import { isWorkflow } from "../workflow/define.ts";
import { formatDuration } from "../workflow/durations.ts";
import { runWorkflow, type RunControl } from "../workflow/engine.ts";
import { messageOf } from "../workflow/errors.ts";
import { DEFAULT_RUNTIMES } from "../workflow/runtimes.ts";
import type { JsonValue, LogLine, Workflow } from "../workflow/types.ts";
import type { EventSchemas } from "../workflow/eventTypes.ts";
import type { TurnOperation } from "../workflow/host.ts";
import { captureStack, LazySite, PendingSites } from "./callSite.ts";
import { entryKind, isAnswer, lazySiteOf } from "./entries.ts";
import { readOptions, OptionsError, type FileTree, type ReadOptions } from "./options.ts";
import type { OptionsParameter } from "./optionTypes.ts";
import { continueSettings } from "./continueOptions.ts";
import { toInLine } from "../workflow/runLog.ts";
import { plural, TestWorkflowError } from "./problems.ts";
import { ScriptedDecisions } from "./scriptedDecisions.ts";
import { ScriptedHost } from "./scriptedHost.ts";
import { ScriptedCompactions } from "./scriptedCompactions.ts";
import { ScriptedMessages } from "./scriptedMessages.ts";
import { ScriptedParticipants } from "./scriptedParticipants.ts";
import { FakeSandboxes } from "./fakeSandboxes.ts";
import { RunFolder } from "./runFolder.ts";
import { ScriptBook } from "./scripts.ts";
import { mutatedAgents } from "./scriptMutation.ts";
import { ScriptedEvents } from "./scriptedEvents.ts";
import { StallGuard } from "./stallGuard.ts";
import { TestTime } from "./testTime.ts";
import { TestRun } from "./testRun.ts";
import type { Moment } from "../workflow/clock.ts";
import {
  attachRunTrace,
  attachSites,
  isAnyoneListening,
  publishRun,
  type EntryTrace,
  type MomentTrace,
  type ProblemTrace,
  type RunMoments,
  type RunTrace,
  type SourceSite,
  type SpanTrace,
} from "./trace.ts";

/** Its types: the shared options, and args and events by the workflow (optionTypes.ts). */
export type { TestOptions } from "./optionTypes.ts";

const SCRIPT_OPTIONS = ["agents"] as const;

/** A keepAlive with no window lasts this long in a test rather than the hour. */
export const TEST_KEEP_ALIVE_MS = 100;

/** A stall's `sites`: the entries of the turns in flight, where every reporter and the editor place it. */
function sitesOf(sites: SourceSite[]): { sites?: SourceSite[] } {
  return sites.length > 0 ? { sites } : {};
}

function entryTraces(options: ReadOptions, sites: PendingSites): EntryTrace[] {
  const traces: EntryTrace[] = [];
  scriptEntryTraces(traces, SCRIPT_OPTIONS[0], options.agents, sites);
  scriptEntryTraces(traces, "compactions", options.compactions, sites);
  scriptEntryTraces(traces, "messages", options.messages, sites);
  for (const slot of options.participants) traces.push({ option: "participants", key: slot.key, index: null, kind: "function" });
  return traces;
}

function scriptEntryTraces(traces: EntryTrace[], option: EntryTrace["option"], slots: ReadOptions["agents"], sites: PendingSites): void {
  for (const slot of slots) {
    slot.entries.forEach((entry, index) => {
      const trace: EntryTrace = { option, key: slot.key, index: slot.isList ? index : null, kind: entryKind(entry) };
      // The editor completes and fills an answer's value from its schema, also for an entry no turn reached.
      if (isAnswer(entry) && entry.schema !== undefined) trace.schema = entry.schema;
      // Its site is written when the trace is read (formatting a stack is dear, and most runs are never read).
      const site = lazySiteOf(entry);
      if (site) sites.add(trace, "site", site);
      traces.push(trace);
    });
  }
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
export async function testWorkflow<Args, Result, Events extends EventSchemas = {}>(
  workflow: Workflow<Args, Result, Events>,
  // Options are required where args are; a JS caller's third argument is refused below.
  ...given: OptionsParameter<NoInfer<Args>, NoInfer<Events>>
): Promise<TestRun<Result>> {
  const [options, ...extra] = given as unknown[];
  // One capture gives both the call's site and the stack a rejection shows, each formatted only when read.
  const stack = captureStack(testWorkflow, Math.max(Error.stackTraceLimit, 20));
  const startedAt = realClocks.deadline.now();
  const sites = new PendingSites();
  const trace: RunTrace = {
    workflow: isWorkflow(workflow) ? workflow.name : "?",
    entries: [],
    turns: [],
    compactions: [],
    decisions: [],
    problems: [],
    durationMs: 0,
  };
  sites.add(trace, "site", new LazySite(stack, false));
  attachSites(trace, sites);
  const reject = (problems: ProblemTrace[]): never => {
    const error = new TestWorkflowError(problems);
    error.stack = `${error.name}: ${error.message}\n${(stack.stack ?? "").split("\n").slice(1).join("\n")}`;
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
  // Only under `turnlens test --mutate` (scriptMutation.ts): this call numbered, maybe one entry changed.
  const mutated = mutatedAgents(read.agents, trace);
  if (mutated) read = { ...read, agents: mutated };
  trace.entries = entryTraces(read, sites);

  // Without a cwd, the run's folder is made only once something may touch it (runFolder.ts): a
  // mkdir and rm were most of a one-turn test that touches no file.
  const temporary = read.cwd === undefined ? new RunFolder() : undefined;
  const cwd = read.cwd ?? temporary!.path;
  const useFolder = (path: string) => temporary?.use(path);
  try {
    if (read.files) {
      useFolder(cwd);
      await layOut(read.files, cwd);
    }
    let args: unknown = read.args?.given;
    if (!read.args) {
      try {
        if (workflow.prepare) useFolder(cwd);
        args = workflow.prepare ? await workflow.prepare({ argv: [], cwd }) : null;
      } catch (error) {
        return reject([{ code: "args-required", option: "args", message: `${workflow.name} needs args: its prepare refused none: ${messageOf(error)}` }]);
      }
    }
    return await runScripted(workflow, read, args, cwd, useFolder, trace, reject, startedAt, sites);
  } finally {
    temporary?.remove();
  }
}

async function runScripted<Args, Result>(
  workflow: Workflow<Args, Result>,
  read: ReadOptions,
  args: unknown,
  cwd: string,
  useFolder: (path: string) => void,
  trace: RunTrace,
  reject: (problems: ProblemTrace[]) => never,
  startedAt: number,
  sites: PendingSites,
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
    folderUsed: useFolder,
  };
  const events = new ScriptedEvents(read.events, signals.fail);
  const time = new TestTime(realClock.now(), read.maxTimers, events, () => guard.poke());
  const clocks = { run: time.clock, deadline: realClock };
  const runStart = time.clock.now();
  let control: RunControl | undefined;
  const book = new ScriptBook("agents", read.agents);
  const compactions = new ScriptedCompactions(new ScriptBook("compactions", read.compactions, "compaction"), signals.fail, useFolder);
  const messageScripts = new ScriptedMessages(new ScriptBook("messages", read.messages, "message"), signals.fail);
  const participants = new ScriptedParticipants(read.participants, signals.fail, () => guard.poke());
  // Sandboxes in a test confine nothing: the run keeps what each agent was given.
  const sandboxes = new FakeSandboxes();
  const host = new ScriptedHost(book, signals, read.maxTurns, compactions, messageScripts, sites);
  // A capture costs about a turn's engine work: taken only for a run whose trace a listener will read.
  host.capturesCalls = isAnyoneListening();
  const decisions = new ScriptedDecisions(read.decisions, signals, host.sites);
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
      ...sitesOf(host.inFlightSites()),
      message: `the run stalled: nothing started or ended for ${read.stallMs} ms; ${inFlight.length ? `in flight: ${listed}` : "no turn in flight"}${keepAliveHint()}`,
    });
  });
  // A keep-alive window runs on real time: one longer than `stall` is what a stalled idle run waits in.
  const keepAliveHint = () => {
    const keep = control?.attempt.inbox.keepAlive;
    if (!keep || control!.attempt.activity.isBusy || keep.windowMs < read.stallMs) return "";
    return `; it waits live in a keepAlive window of ${formatDuration(keep.windowMs)}, which stays on real time in a test: give keepAlive a shorter window, or none (100 ms)`;
  };
  const logs: LogLine[] = [];
  let result;
  try {
    result = await runWorkflow(workflow, {
      args,
      runId: read.id,
      attempt: 1,
      ...continueSettings(read, time.clock.now()),
      cwd,
      onCwdUsed: useFolder,
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
      sandboxes,
      onStart: (started) => {
        control = started;
        const attempt = started.attempt;
        compactions.moment = decisions.moment = () => attempt.moment();
        host.moments = { now: () => attempt.clocks.run.now(), step: () => attempt.nextStep() };
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
  const sentAt = control?.messages.sentAt ?? [];
  trace.messages = (control?.messages.records ?? []).map((message, index) => {
    const match = messageScripts.matches.get(message.id);
    const traced = { ...message, ...(match ? { match } : {}) };
    const at = sentAt[index];
    if (at) host.sites.add(traced, "sentAt", at);
    return traced;
  });
  trace.participants = participants.traces;
  if (control) trace.moments = runMoments(control, runStart, host, compactions, decisions);
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
  if (problems.length) {
    await nameSchemaMismatches(problems);
    return reject(problems);
  }
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
    events: (control?.attempt.inbox.lines ?? []).map((event) => toInLine(event, control!.attempt.inbox.arrivedAfter.get(event))),
    emits: control?.attempt.inbox.emits ?? [],
    runLines: control?.attempt.runLog ?? [],
    messages: control?.messages.records ?? [],
    sandboxes: sandboxes.records,
  });
  trace.durationMs = realClocks.deadline.now() - startedAt;
  attachRunTrace(run, trace);
  publishRun(trace);
  return run;
}

/** When each thing of the run happened, relative to its start on the virtual clock (trace.ts's RunMoments). */
function runMoments(control: RunControl, start: number, host: ScriptedHost, compactions: ScriptedCompactions, decisions: ScriptedDecisions): RunMoments {
  const relative = (moment: Moment): MomentTrace => ({ at: moment.at - start, step: moment.step });
  const span = (started: Moment, ended: Moment | undefined): SpanTrace =>
    ended ? { started: relative(started), ended: relative(ended) } : { started: relative(started) };
  const { attempt, messages } = control;
  const moments: RunMoments = {
    start: new Date(start).toISOString(),
    turns: host.turnSpans(start),
    compactions: compactions.moments.map((moment) => span(moment.started, moment.ended)),
    decisions: decisions.moments.map((moment) => span(moment.asked, moment.ended)),
    messages: messages.moments.map((moment) => ({ ...span(moment.sent, moment.ended), ...(moment.reached ? { reached: relative(moment.reached) } : {}) })),
    // A continue's timers carried from the earlier attempt were set before this one began: they have no moments here.
    timers: attempt.timers.flatMap((timer) => {
      const moment = attempt.timerMoments.get(timer);
      return moment ? [{ label: timer.label, kind: timer.kind, due: Date.parse(timer.due) - start, state: timer.state, ...span(moment.set, moment.ended) }] : [];
    }),
    events: attempt.inbox.lines.flatMap((line) => {
      const at = attempt.inbox.moments.get(line.eventId);
      return at ? [{ name: line.name, eventId: line.eventId, at: relative(at) }] : [];
    }),
    ended: relative(attempt.moment()),
  };
  const parked = attempt.parkedAt;
  if (parked && attempt.parkedMoment) {
    moments.parked = { label: parked.label, ...(parked.until !== undefined ? { until: Date.parse(parked.until) - start } : {}), at: relative(attempt.parkedMoment) };
  }
  return moments;
}

export type { JsonValue, SourceSite };
export { plural };
