// The agent host of a test: each turn the engine asks is met by the script's entry, and
// answers go through the engine's real result path, so its real validator judges them.

import { schemaMismatchWhy } from "./schemaDifference.ts";
import type { AgentHost, CallCapture, ForkedFrom, HostEnd, OpenedAgent, PanePlacement, TurnOperation } from "../workflow/host.ts";
import { canonicalJson } from "../workflow/json.ts";
import { messageOf } from "../workflow/errors.ts";
import type { Execution, Outcome } from "../workflow/types.ts";
import { NO_ANSWER_KINDS, noAnswerEnd } from "./noAnswerKinds.ts";
import { scriptReply } from "./scriptReply.ts";
import { describe, isAnswer, isNoAnswer, lazySiteOf, type Entry, type NoAnswer } from "./entries.ts";
import { plural, turnProblem } from "./problems.ts";
import { ScriptBook } from "./scripts.ts";
import type { ScriptedCompactions } from "./scriptedCompactions.ts";
import { agentCalls, ScriptedMessages } from "./scriptedMessages.ts";
import { captureCall as captureStackAbove, captureStack, LazySite, PendingSites, siteText } from "./callSite.ts";
import { attachTurnTrace, type MatchTrace, type MomentTrace, type ProblemTrace, type SourceSite, type SpanTrace, type TurnTrace } from "./trace.ts";
import { plainRecord, privateSlot } from "../workflow/plainRecords.ts";
import type { TestTurn, Turn, TurnMessage } from "./turn.ts";
import type { AgentMessage } from "../workflow/messageTypes.ts";

/** What the host tells the test about: mistakes, and activity for the stall guard. */
export interface HostSignals {
  fail(problem: ProblemTrace): void;
  activity(): void;
  /** An operation is about to meet its script (the test's `during` events go now). */
  turnStarting?(operation: TurnOperation): void;
  /** An operation's outcome is recorded. */
  turnSettled?(operation: TurnOperation, outcome: Outcome): void;
  /** A script function is about to read `path` (a turn's cwd): the test's folder is made if it is that. */
  folderUsed?(path: string): void;
}

/** What an agent was opened with, as `run.agentOf(key)` reads it back. */
export interface AgentRecord {
  key: string;
  execution: OpenedAgent["execution"];
  instructions?: string;
  /** The skills' names, as upstream records them (a `{ path }` skill's from its SKILL.md). */
  skills?: string[];
  /** Its pane as the host was given it: a `tab` or a split `beside` another agent, and `front`. */
  pane?: PanePlacement;
  /** The run's `panes` as applied to it: the workspace its tab opens in, and `keep`. */
  panes?: OpenedAgent["panes"];
  /** Why its pane could not go where its layout asked. */
  paneFallback?: string;
  /** Set when its pane was kept once it ended. */
  keptPane?: true;
  /** The session a fork is a copy of: `{ key, turns }`, or `{ caller: true, turns }`. */
  forkedFrom?: ForkedFrom;
  /** Its sandbox, `{ key, provider, spec, domains }`: what a real provider would confine it to. */
  sandbox?: OpenedAgent["sandbox"];
}

/** A model or effort switch, as `run.setsOf(key)` reads it back: the settings after it. */
export interface SetRecord {
  agent: string;
  /** 1-based among the agent's switches. */
  n: number;
  model: string;
  effort?: string;
}

const never = new Promise<never>(() => {});
const ONE_HOP = Promise.resolve();
/** The mistakes that are a refusal of the script's answer, as the engine refuses one: the turn reads `refused`. */
const REFUSALS: ReadonlySet<ProblemTrace["code"]> = new Set(["answer-refused", "schema-mismatch", "result-while-owing"]);

/** A problem's place in its script with the entry's site, read now: only a mistake pays for formatting it. */
function located(at: Partial<ProblemTrace>, entry: Entry): Partial<ProblemTrace> {
  if (at.site) return at;
  const site = entry.site;
  return site ? { ...at, site } : at;
}

/**
 * The host's record of a turn: what the test reads, its trace, and while in flight the entry it
 * met. A class, so its fields are the object's own from the start (one object a turn, kept as
 * long as the turn: traceOfTurn reads its trace and sites).
 */
class TurnRecord {
  /** The entry it met, while it is in flight. */
  entry: Entry | undefined = undefined;
  constructor(
    readonly turn: TestTurn,
    readonly trace: TurnTrace,
    readonly sites: PendingSites,
    /** Its place in the host's `turnMoments`, or -1 when the attempt had not started (no moments). */
    readonly moment: number,
  ) {}
}

/** Where a run's moments come from: the run clock's time and the attempt's next step (Attempt.moment's two halves). */
export interface MomentSource {
  now(): number;
  step(): number;
}

const shownAs = ({ from, text, asks, answers }: AgentMessage): TurnMessage => ({ from, text, asks, answers });

export class ScriptedHost implements AgentHost {
  readonly turns: TestTurn[] = [];
  readonly traces: TurnTrace[] = [];
  /**
   * When each of `traces` started and ended, by index (the timeline's), as four numbers a turn:
   * started at, its step, ended at, its step (NaN until it ends). Numbers in one list, not three
   * objects and two boxed times a turn, kept until the run ends: a 1,000-turn test's scavenges copied them.
   */
  private readonly turnMoments: number[] = [];
  /** Now, as the timeline orders things; testWorkflow sets it once the attempt starts. */
  moments: MomentSource | undefined;
  readonly agents: AgentRecord[] = [];
  readonly inFlight = new Map<number, TurnOperation>();
  /** Where each agent was opened, by key. */
  private readonly openedAt = new Map<string, CallCapture>();
  readonly sets: SetRecord[] = [];
  private turnsStarted = 0;
  /** Set once the attempt parked (testWorkflow tells it). */
  attemptParked = false;

  constructor(
    private readonly book: ScriptBook,
    private readonly signals: HostSignals,
    private readonly maxTurns: number,
    /** Meets compactions; without it, each answers "". */
    private readonly compactions?: ScriptedCompactions,
    /** Meets the wakes for messages; without it, none is scripted. */
    private readonly messageScripts: ScriptedMessages = new ScriptedMessages(new ScriptBook("messages", [], "message"), (problem) => signals.fail(problem)),
    /** The run's sites (entries', matches', the workflow's calls), written when its trace is read. */
    readonly sites: PendingSites = new PendingSites(),
  ) {}

  /** Set (by testWorkflow) while something listens for runs: only then are the workflow's calls captured. */
  capturesCalls = false;

  /** A test captures the workflow's calls, for the trace's sites, when they will be read; a real run's hosts never do. */
  captureCall(callee: Function): CallCapture | undefined {
    return this.capturesCalls ? captureStackAbove(callee) : undefined;
  }

  opened(agent: OpenedAgent): void {
    if (agent.openedAt) this.openedAt.set(agent.key, agent.openedAt);
    this.agents.push({
      key: agent.key,
      execution: { ...agent.execution },
      ...(agent.instructions !== undefined ? { instructions: agent.instructions } : {}),
      ...(agent.skillNames !== undefined ? { skills: [...agent.skillNames] } : {}),
      ...(agent.pane !== undefined ? { pane: { ...agent.pane } } : {}),
      ...(agent.panes !== undefined ? { panes: { ...agent.panes } } : {}),
      ...(agent.paneFallback !== undefined ? { paneFallback: agent.paneFallback } : {}),
      ...(agent.forkedFrom !== undefined ? { forkedFrom: { ...agent.forkedFrom } } : {}),
      ...(agent.sandbox !== undefined ? { sandbox: structuredClone(agent.sandbox) } : {}),
    });
  }

  /** The page: an alias a run wouldn't know "fails the test too", named where the workflow opened the agent. */
  unknownRuntime(refusal: { agent: string; alias: string; message: string; openedAt?: CallCapture }): void {
    // Captured here when the open's own capture was not taken (no one reads the run's sites): the
    // async stack still holds the workflow's awaiting call.
    const site = (refusal.openedAt as LazySite | undefined)?.site ?? new LazySite(captureStack(this.unknownRuntime, 20), true).site;
    this.signals.fail({
      code: "runtime-unknown",
      message: `${refusal.message}${site ? ` (wf.agents.open at ${siteText(site)})` : ""}; give it in testWorkflow's runtimes, or open the agent with one of those`,
      agent: refusal.agent,
      option: "runtimes",
    });
  }

  switched(agent: string, n: number, execution: Execution): void {
    this.sets.push({ agent, n, model: execution.model, ...(execution.effort !== undefined ? { effort: execution.effort } : {}) });
    this.signals.activity();
  }

  ended(agent: string, end: { reason: string; keptPane?: boolean }): void {
    const record = this.agents.find((candidate) => candidate.key === agent);
    if (record && end.keptPane) record.keptPane = true;
  }

  /** Where the entries the turns in flight met were written, in the order the turns started. */
  inFlightSites(): SourceSite[] {
    return [...this.inFlight.values()].map((operation) => recordOfOperation.get(operation)?.entry?.site).filter((site): site is SourceSite => !!site);
  }

  settle(operation: TurnOperation, outcome: Outcome): void {
    if (operation.kind === "compact") {
      this.inFlight.delete(operation.id);
      this.compactions?.settle(operation, outcome);
      this.signals.activity();
      return;
    }
    this.inFlight.delete(operation.id);
    const record = recordOfOperation.get(operation);
    if (record) record.entry = undefined;
    // A turn still awaiting a reply when the attempt parked keeps saying so: the engine recorded no end for it.
    if (record && record.moment >= 0 && this.moments) {
      this.turnMoments[record.moment + 2] = this.moments.now();
      this.turnMoments[record.moment + 3] = this.moments.step();
    }
    if (record && !(this.attemptParked && record.turn.outcome === "awaiting-reply")) {
      record.turn.outcome = outcome.kind;
      record.trace.outcome = outcome.kind;
      if (outcome.kind !== "answered") record.trace.reason = outcome.reason;
    }
    this.signals.turnSettled?.(operation, outcome);
    this.signals.activity();
  }

  async run(operation: TurnOperation): Promise<HostEnd> {
    this.signals.activity();
    this.inFlight.set(operation.id, operation);
    // Compactions are not turns: they take no turn number, count toward no maxTurns, and have scripts of their own.
    if (operation.kind === "compact") {
      if (this.compactions) return this.compactions.run(operation);
      operation.submit("");
      return { kind: "submitted" };
    }
    // A wake for a message is no turn the workflow started: maxTurns does not count it.
    const isWake = operation.kind === "message";
    if (!operation.nudge && !isWake && ++this.turnsStarted > this.maxTurns) {
      this.signals.fail(
        turnProblem("max-turns", operation, `the run started more than ${plural(this.maxTurns, "turn")} (maxTurns)`, {
          option: "maxTurns",
        }),
      );
      return never;
    }
    const record = this.record(operation);
    this.signals.turnStarting?.(operation);
    if (isWake) {
      return this.messageScripts.meet(operation, this.turnFor(operation, record), record.trace, (entry, at) => this.noAnswer(operation, record, entry, at));
    }
    const found = this.book.find(operation.agent);
    if (!found.found) {
      return this.fail(
        turnProblem(found.code, operation, found.why, {
          option: "agents",
          ...(found.patterns ? { patterns: found.patterns } : {}),
        }),
      );
    }
    const walked = this.book.entryFor(operation.agent, found.slot, found.pattern, operation.n);
    if (!walked) {
      const sites = found.slot.entries.map((entry) => entry.site).filter((site): site is SourceSite => !!site);
      return this.fail(
        turnProblem("list-exhausted", operation, `its script${found.pattern ? ` ("${found.pattern}")` : ""} has ${plural(found.slot.entries.length, "turn")}`, {
          key: found.slot.key,
          ...(found.pattern ? { pattern: found.pattern } : {}),
          index: operation.n - 1,
          sites,
          ...(sites.length ? { site: sites[sites.length - 1]! } : {}),
        }),
      );
    }
    const entry = walked.entry;
    const pattern = found.pattern;
    const match = new AgentsMatch(found.slot.key, pattern, walked.index, operation.nudge);
    // The entry's site is written when the trace is read; a problem reads it at once (located).
    const site = lazySiteOf(entry);
    if (site) this.sites.add(match, "site", site);
    record.trace.match = match;
    return this.meet(operation, record, entry, match);
  }

  /** `match`: the script entry that met the turn, which says where a problem of it is (placeOf). */
  private async meet(operation: TurnOperation, record: TurnRecord, entry: Entry, match: MatchTrace): Promise<HostEnd> {
    record.entry = entry;
    if (isNoAnswer(entry)) return this.noAnswer(operation, record, entry, placeOf(match), entry);
    if (!isAnswer(entry)) return this.fail(turnProblem("script-invalid", operation, `its script is not an entry: ${describe(entry)}`, located(placeOf(match), entry)));
    // The same schema object (the usual case: the test imports the workflow's) needs no comparing.
    if (entry.schema !== operation.schema && canonicalJson(entry.schema ?? null) !== canonicalJson(operation.schema ?? null)) {
      return this.fail(
        turnProblem("schema-mismatch", operation, schemaMismatchWhy({ expectedSchema: operation.schema, actualSchema: entry.schema }), {
          ...located(placeOf(match), entry),
          expectedSchema: operation.schema ?? "text",
          actualSchema: entry.schema ?? "text",
        }),
        record,
      );
    }
    let value: unknown;
    if (entry.respond) {
      const reply = await scriptReply(
        entry,
        () => this.turnFor(operation, record),
        () => operation.signal,
      );
      if (reply.kind === "cancelled") return { kind: "cancelled", reason: "the engine cancelled the turn" };
      if (reply.kind === "no-answer") return this.noAnswer(operation, record, reply.entry, placeOf(match), entry);
      if (reply.kind === "mistake") {
        return this.fail(turnProblem(reply.code, operation, reply.why, { ...located(placeOf(match), entry), ...(reply.thrownAt ? { thrownAt: reply.thrownAt } : {}) }));
      }
      value = reply.value;
    } else {
      // A value: the one hop awaiting scriptReply's settled promise took, without the call (what
      // runs around the turn sees the same order).
      await ONE_HOP;
      value = entry.value;
    }
    let raw: string;
    if (operation.schema === undefined) {
      if (typeof value !== "string") {
        return this.fail(
          turnProblem("answer-refused", operation, `the turn asks for text; its script answered ${describe(value)}`, located(placeOf(match), entry), false),
          record,
        );
      }
      raw = value;
    } else {
      try {
        raw = JSON.stringify(value) ?? "undefined";
      } catch (error) {
        return this.fail(turnProblem("answer-refused", operation, `its script's answer is not JSON: ${messageOf(error)}`, located(placeOf(match), entry), false), record);
      }
    }
    // The engine refuses a result while the agent owes a reply it was shown; so does the test, by name.
    const owed = operation.owes?.() ?? [];
    if (owed.length && !operation.signal.aborted) {
      return this.fail(
        turnProblem("result-while-owing", operation, `it returned a result while it owes "${owed[0]}" a reply`, { ...located(placeOf(match), entry), from: owed[0]! }),
        record,
      );
    }
    const verdict = operation.submit(raw);
    if (!verdict.accepted) {
      if (operation.signal.aborted) return { kind: "cancelled", reason: "the engine cancelled the turn" };
      return this.fail(
        turnProblem(
          "answer-refused",
          operation,
          `the schema refused its script's answer: ${verdict.error}`,
          {
            ...located(placeOf(match), entry),
            ...(verdict.path ? { path: verdict.path } : {}),
            expectedSchema: operation.schema,
          },
          false,
        ),
        record,
      );
    }
    record.trace.answer = verdict.value;
    return { kind: "submitted" };
  }

  /** `siteOf`: the entry whose site a problem names (the one the script gave, when a function returned `entry`). */
  private noAnswer(operation: TurnOperation, record: TurnRecord, entry: NoAnswer, at: Partial<ProblemTrace>, siteOf: Entry = entry): Promise<HostEnd> | HostEnd {
    const ended = noAnswerEnd(operation, entry, "turn");
    const trace = record.trace;
    if (ended) {
      if (NO_ANSWER_KINDS[entry.kind].scriptsItsEnd) trace.scripted = true;
      return ended;
    }
    // Interrupted: the operator stops the calling session's turn in its pane; no other agent has an operator.
    if (operation.execution.caller) {
      trace.scripted = true;
      return { kind: "cancelled", reason: "the operator interrupted the turn" };
    }
    return this.fail(turnProblem("interrupted-not-caller", operation, "only the calling session can be interrupted by the operator", located(at, siteOf), false));
  }

  /** `record`: the turn whose script's answer the problem refuses, when it is a refusal. */
  private fail(problem: ProblemTrace, record?: TurnRecord): Promise<never> {
    // The turn whose script's answer was refused reads `refused`, with why, in every view.
    if (record && REFUSALS.has(problem.code)) record.trace.refused = problem.message;
    this.signals.fail(problem);
    return never;
  }

  private record(operation: TurnOperation): TurnRecord {
    const turn = new RecordedTurn(operation);
    const trace = new TracedTurn(operation);
    const sites = this.sites;
    if (operation.askedAt) sites.add(trace, "askedAt", operation.askedAt);
    const openedAt = this.openedAt.get(operation.agent);
    if (openedAt) sites.add(trace, "openedAt", openedAt);
    let moment = -1;
    const moments = this.moments;
    if (moments) {
      const numbers = this.turnMoments;
      moment = numbers.length;
      numbers.push(moments.now(), moments.step(), Number.NaN, Number.NaN);
    }
    const record = new TurnRecord(turn, trace, sites, moment);
    attachTurnTrace(turn, record);
    this.turns.push(turn);
    this.traces.push(trace);
    recordOfOperation.put(operation, record);
    return record;
  }

  /** When each of `traces` started and ended, by index, as the trace's moments have them: times since `start`. */
  turnSpans(start: number): SpanTrace[] {
    const numbers = this.turnMoments;
    const spans: SpanTrace[] = [];
    for (let index = 0; index < numbers.length; index += 4) {
      const endedStep = numbers[index + 3]!;
      const ended = Number.isNaN(endedStep) ? undefined : new MomentOfTrace(numbers[index + 2]! - start, endedStep);
      spans.push(new SpanOfTrace(new MomentOfTrace(numbers[index]! - start, numbers[index + 1]!), ended));
    }
    return spans;
  }

  private turnFor(operation: TurnOperation, record: TurnRecord): Turn {
    const signals = this.signals;
    return {
      agent: operation.agent,
      n: operation.n,
      nudge: operation.nudge,
      prompt: operation.prompt,
      ...(operation.schema !== undefined ? { schema: operation.schema } : {}),
      ...(operation.label !== undefined ? { label: operation.label } : {}),
      ...(operation.stage !== undefined ? { stage: operation.stage } : {}),
      // A getter: the script may write there, so the test's folder is made once it asks.
      get cwd() {
        signals.folderUsed?.(operation.cwd);
        return operation.cwd;
      },
      model: operation.execution.model,
      ...(operation.execution.effort !== undefined ? { effort: operation.execution.effort } : {}),
      messages: (operation.messages ?? []).map(shownAs),
      ...(operation.cause ? { cause: shownAs(operation.cause) } : {}),
      signal: operation.signal,
      ...agentCalls(operation, record, () => this.signals.activity()),
    };
  }
}

/**
 * Each turn's record, as a private field on its operation (plainRecords.ts's privateSlot): found
 * again when the engine settles the operation, without a map entry made and dropped per turn.
 */
const recordOfOperation = privateSlot<TurnRecord>();

/** Where in its script a turn's problem is, from the entry that met it: made only for a problem. */
function placeOf(match: MatchTrace): Partial<ProblemTrace> {
  const at: Partial<ProblemTrace> = { key: match.key };
  if (match.pattern) at.pattern = match.pattern;
  at.index = match.index;
  return at;
}

/** The messages an operation showed, as a turn records them. */
const shownMessages = (messages: AgentMessage[] | undefined): TurnMessage[] => (messages === undefined || messages.length === 0 ? [] : messages.map(shownAs));

// A turn's records are made by constructors of plain objects (plainRecords.ts), field by field in
// the order a test always saw them: a run keeps them until it ends, and as literals they were
// backing stores grown per turn and, pretenured, what made a long test's young collections copy
// twice what it kept.

/** What both records of a turn say first, in this order: who was asked what, and how. */
function writeAsked(record: TestTurn | TurnTrace, operation: TurnOperation): void {
  const { schema, label, stage } = operation;
  record.agent = operation.agent;
  record.n = operation.n;
  record.nudge = operation.nudge;
  record.prompt = operation.prompt;
  if (schema !== undefined) record.schema = schema;
  if (label !== undefined) record.label = label;
  if (stage !== undefined) record.stage = stage;
}

/** A turn as the test reads it (`run.turns`). */
const RecordedTurn = plainRecord(function (this: TestTurn, operation: TurnOperation) {
  const { cause, execution } = operation;
  writeAsked(this, operation);
  this.cwd = operation.cwd;
  this.model = execution.model;
  if (execution.effort !== undefined) this.effort = execution.effort;
  if (cause) this.cause = shownAs(cause);
  this.messages = shownMessages(operation.messages);
  this.outcome = "cancelled";
});

/** A turn as the editor shows it, before it meets its script (`match`, `answer` and the rest come after). */
const TracedTurn = plainRecord(function (this: TurnTrace, operation: TurnOperation) {
  const cause = operation.cause;
  writeAsked(this, operation);
  if (cause) this.cause = { id: cause.id, from: cause.from };
  this.outcome = "cancelled";
});

/** The `agents` entry that met a turn. */
const AgentsMatch = plainRecord(function (this: MatchTrace, key: string, pattern: string | undefined, index: number | null, nudge: boolean) {
  this.option = "agents";
  this.key = key;
  if (pattern) this.pattern = pattern;
  this.index = index;
  this.nudge = nudge;
});

/** A moment of the trace's timeline, `at` relative to the run's start. */
const MomentOfTrace = plainRecord(function (this: MomentTrace, at: number, step: number) {
  this.at = at;
  this.step = step;
});

/** When a turn started and, unless it never did, ended. */
const SpanOfTrace = plainRecord(function (this: SpanTrace, started: MomentTrace, ended: MomentTrace | undefined) {
  this.started = started;
  if (ended) this.ended = ended;
});
