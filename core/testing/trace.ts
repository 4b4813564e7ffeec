// The editor trace: where each script entry was written, which entry met each turn, and every
// test mistake as data. Kept apart from the public records so `toEqual` on turns is unaffected.
// Served as `turnlens/trace`; the runner and the language server read runs through it.

import type { MessageRecord } from "../workflow/messageTypes.ts";
import type { Question } from "../workflow/types.ts";
import { privateSlot } from "../workflow/plainRecords.ts";

/** A place in a source file, 1-based line and column, mapped back to the `.ts` source. */
export interface SourceSite {
  file: string;
  line: number;
  column: number;
}

/** The option a script entry was given under. */
export type ScriptOption = "agents" | "decisions" | "compactions" | "messages" | "participants";

/** One scripted entry as the test wrote it. */
export interface EntryTrace {
  option: ScriptOption;
  /** The key under the option: an agent key, a decision key, or a glob such as `verifier-*`. */
  key: string;
  /** Position in a list script, or null for a single entry that meets every turn. */
  index: number | null;
  /** `answer` or `noAnswer.silent` and so on. */
  kind: string;
  /** Where `answer(...)` / `noAnswer.*()` was called. */
  site?: SourceSite;
  /** The schema an `answer(SCHEMA, value)` entry was given (JSON Schema), for the editor's completion and fill fix. */
  schema?: unknown;
}

/** Which entry met a turn. */
export interface MatchTrace {
  option: ScriptOption;
  key: string;
  /** Set when a glob, not the exact key, met the agent. */
  pattern?: string;
  index: number | null;
  nudge: boolean;
  site?: SourceSite;
}

/** A turn as the editor shows it. */
export interface TurnTrace {
  agent: string;
  n: number;
  nudge: boolean;
  label?: string;
  stage?: string;
  prompt: string;
  schema?: unknown;
  outcome: string;
  /** The value or text the script answered, when it answered. */
  answer?: unknown;
  /** The outcome's reason, for a turn that did not answer. */
  reason?: string;
  /** Set when a `noAnswer.…()` entry that says how its turn ends met it: the views never draw that as a failure. */
  scripted?: true;
  /** Why the test refused its script's answer (`answer-refused`, `schema-mismatch`): the views say `refused`, not the engine's `cancelled`. */
  refused?: string;
  match?: MatchTrace;
  /** For a wake: the message that woke the agent (its id among `messages`) and who sent it. */
  cause?: { id: string; from: string };
  /**
   * Where the workflow asked the turn: its `agent.run(...)` call, the first frame of the stack that
   * is the user's (a helper of the workflow's that calls `agent.run` is that site). A nudge keeps
   * its turn's; a wake has the `agent.run` of the turn whose agent sent the message, and none when
   * a participant sent it (docs/language-server.md, "Where a turn was asked").
   */
  askedAt?: SourceSite;
  /** Where the turn's agent was opened: `wf.agents.open(...)`, `agent.fork(...)`, `wf.agents.caller(...)` or `forkCaller`. */
  openedAt?: SourceSite;
}

/** A compaction as the editor shows it, beside the `compactions` entry that met it. */
export interface CompactionTrace {
  agent: string;
  /** 1-based among the agent's compactions. */
  n: number;
  /** The compaction's focus, the prompt the workflow gave it. */
  focus: string;
  outcome: string;
  /** The summary the script answered (`""` for an agent with no compaction script). */
  answer?: string;
  /** The outcome's reason, for a compaction that did not answer. */
  reason?: string;
  /** Set when a `noAnswer.…()` entry that says how its compaction ends met it. */
  scripted?: true;
  /** Absent when no script met it and it answered `""`. */
  match?: MatchTrace;
}

/** A message between agents and participants, as the editor shows it. */
export interface MessageTrace extends MessageRecord {
  /** The `messages` entry that met the wake this message caused. */
  match?: MatchTrace;
  /** For a message an agent sent in a turn: the workflow's call that asked that turn (its `askedAt`). */
  sentAt?: SourceSite;
}

/** One call of a `participants` script: a route that opened to it, or a message it was sent. */
export interface ParticipantEventTrace {
  participant: string;
  kind: "route" | "message";
  /** The route's agent. */
  agent?: string;
  direction?: "both" | "to-participant" | "from-participant";
  purpose?: string;
  /** The message's sender, id and text. */
  from?: string;
  id?: string;
  text?: string;
  /** The `participants` key (or glob) whose script met it. */
  key?: string;
  /** What the script returned (awaited), when it returned something JSON. */
  returned?: unknown;
}

/** A decision as the editor shows it, beside the `decisions` script that met it. */
export interface DecisionTrace {
  key: string;
  /** What the workflow asked, by question id: the editor completes a `decisions` script's answers from them. */
  questions?: Record<string, Question>;
  match?: MatchTrace;
  answered: boolean;
  /** Per question id, what the workflow got and its probability: an option, a level's name, `yes` or `no`. */
  answers?: Record<string, { answer: string; probability: number }>;
  /** The message of the Error its script gave, which made `wf.decide` reject. */
  error?: string;
  /** Where the workflow called `wf.decide(...)` (or `wf.decisions.decide`). */
  askedAt?: SourceSite;
}

/** Machine-readable codes of the test's own mistakes. */
export type ProblemCode =
  | "unknown-option"
  | "option-invalid"
  | "script-invalid"
  | "script-empty-list"
  | "no-scripts"
  | "agent-unscripted"
  | "glob-conflict"
  | "list-exhausted"
  | "entry-never-reached"
  | "list-never-asked"
  | "schema-mismatch"
  | "answer-refused"
  | "script-threw"
  | "script-returned-nothing"
  | "script-returned-entry"
  | "interrupted-not-caller"
  | "compaction-not-text"
  | "compaction-interrupted"
  | "stall"
  | "max-turns"
  | "args-required"
  | "decision-unscripted"
  | "decision-script-threw"
  | "decision-unasked-question"
  | "decision-wrong-kind"
  | "decision-refused"
  | "fake-client-script-invalid"
  | "fake-client-script-threw"
  | "fake-client-no-rest"
  | "workflow-threw"
  | "runtime-unknown"
  | "message-unscripted"
  | "message-script-threw"
  | "message-script-returned"
  | "participant-unscripted"
  | "participant-script-threw"
  | "result-while-owing"
  | "event-refused"
  | "event-never-sent"
  | "event-id-reused";

/** One mistake of the test, beside its human message. */
export interface ProblemTrace {
  code: ProblemCode;
  message: string;
  agent?: string;
  decision?: string;
  turn?: number;
  /** The compaction's number, for a problem about one compaction (then `prompt` is its focus). */
  compaction?: number;
  /** The message's number among those that woke the agent, for a problem about a wake (then `prompt` is the message). */
  wake?: number;
  /** Who sent the message a problem is about. */
  from?: string;
  /** The participant a problem is about. */
  participant?: string;
  nudge?: boolean;
  prompt?: string;
  /** The script key or glob involved. */
  key?: string;
  pattern?: string;
  /** Both globs of a glob conflict. */
  patterns?: string[];
  index?: number | null;
  /** The entry site the problem is about (the entry that met the turn, or the one never reached). */
  site?: SourceSite;
  /** Where a script threw, for `script-threw`. */
  thrownAt?: SourceSite;
  /** Every entry site involved, for problems about a whole list. */
  sites?: SourceSite[];
  /** For `schema-mismatch`: the turn's schema in full ("text" for a text turn), and the script's. */
  expectedSchema?: unknown;
  actualSchema?: unknown;
  /** For `schema-mismatch`: each schema's name in the source (the export, such as `NOTE`), where the runner could tell. */
  expectedName?: string;
  actualName?: string;
  /** The validator's instance path of a refused answer, such as `/summary`. */
  path?: string;
  option?: string;
  suggestion?: string;
  /** Turns that were in flight, for a stall. */
  inFlight?: Array<{ agent: string; n: number; nudge: boolean }>;
}

/**
 * A moment on the run's virtual clock: milliseconds since the run started, and its step, which
 * orders moments of the same time (a test's clock stands still until the run idles on a timer).
 */
export interface MomentTrace {
  at: number;
  step: number;
}

/** When one thing of the trace started and ended; `ended` is absent for what never ended (a parked turn). */
export interface SpanTrace {
  started: MomentTrace;
  ended?: MomentTrace;
}

/**
 * When each traced thing happened, by index into the trace's lists (`turns[i]` ↔ `moments.turns[i]`),
 * plus the timers, events and parking no list holds: what the run timeline (timeline.ts) reads.
 * Kept apart so the lists compare as they always did.
 */
export interface RunMoments {
  /** The run's clock when it started, as an ISO time. */
  start: string;
  turns: SpanTrace[];
  compactions: SpanTrace[];
  decisions: SpanTrace[];
  /** `started` is when it was sent; `reached`, when its recipient was shown it (or a participant was handed it). */
  messages: Array<SpanTrace & { reached?: MomentTrace }>;
  /** Each timer the run's waits set: when it was set and ended, its due time (ms since the start) and how it ended. */
  timers: Array<SpanTrace & { label: string; kind: "timer" | "event" | "question" | "keep-alive"; due: number; state: "fired" | "cancelled" | "pending" }>;
  /** Each event the run was sent, in the order received (the start event, scripted events, participants' replies). */
  events: Array<{ name: string; eventId: string; at: MomentTrace }>;
  /** Set when the attempt parked: at which wait, and until when (ms since the start) it would wake by itself. */
  parked?: { label: string; until?: number; at: MomentTrace };
  /** When the run ended. */
  ended: MomentTrace;
}

/** Everything one `testWorkflow` call did, for the editor. */
export interface RunTrace {
  workflow: string;
  /** Where `testWorkflow(...)` was called. */
  site?: SourceSite;
  entries: EntryTrace[];
  turns: TurnTrace[];
  /** Every compaction the run asked, in the order they started. */
  compactions: CompactionTrace[];
  decisions: DecisionTrace[];
  problems: ProblemTrace[];
  ending?: { kind: string; reason?: string; stage?: string };
  /** Each scripted event of the `events` option, and whether and when it was sent. */
  events?: Array<{ index: number; name: string; eventId: string; when: "during" | "after"; agent: string; n: number; sent: boolean; at?: string }>;
  /** Every message the run carried, in the order sent, and how each ended. */
  messages?: MessageTrace[];
  /** Every call of a `participants` script, in order. */
  participants?: ParticipantEventTrace[];
  /** When each thing happened on the run's virtual clock; absent for a run refused before it started. */
  moments?: RunMoments;
  /** Real time the run took, in milliseconds. */
  durationMs: number;
  /** Only under `turnlens test --mutate`: the call's 1-based place among its test's testWorkflow calls, in the order they were made. */
  call?: number;
}

/** @internal Sites a run captured, written into its traces once they are read (callSite.ts's PendingSites). */
export interface LazySites {
  resolve(): void;
}

type RunListener = (trace: RunTrace) => void;
const runListeners = new Set<RunListener>();

/** Calls `listener` with the trace of every `testWorkflow` call that settles, passed or failed. */
export function subscribeToRuns(listener: RunListener): () => void {
  runListeners.add(listener);
  return () => runListeners.delete(listener);
}

/**
 * @internal Whether anything listens for runs now (the language server, `turnlens test`'s json
 * reporter): testWorkflow captures the workflow's call sites only then, so a run nobody reads the
 * sites of (`turnlens test`'s pretty and junit reporters, a plain script) pays nothing for them.
 */
export function isAnyoneListening(): boolean {
  return runListeners.size > 0;
}

/** @internal called by testWorkflow once a run has settled. */
export function publishRun(trace: RunTrace): void {
  if (runListeners.size === 0) return;
  runSites.get(trace)?.resolve();
  for (const listener of runListeners) {
    try {
      listener(trace);
    } catch {
      // A listener's failure must not change the test's result.
    }
  }
}

/** What a recorded turn carries for traceOfTurn: its trace, and the run's sites written when it is read. */
type TurnTraceRecord = { trace: TurnTrace; sites?: LazySites };

/** Each recorded turn's trace record, as a private field on the turn (plainRecords.ts's privateSlot). */
const turnTraces = privateSlot<TurnTraceRecord>();
const runTraces = new WeakMap<object, RunTrace>();
const runSites = new WeakMap<RunTrace, LazySites>();
const errorProblems = new WeakMap<object, ProblemTrace[]>();

/** @internal `record` is the host's own record of the turn (one object, no copy), its `sites` the run's. */
export function attachTurnTrace(turn: object, record: TurnTraceRecord): void {
  turnTraces.put(turn, record);
}
/** @internal The sites a run's traces get when read. */
export function attachSites(trace: RunTrace, sites: LazySites): void {
  runSites.set(trace, sites);
}
/** @internal */
export function attachRunTrace(run: object, trace: RunTrace): void {
  runTraces.set(run, trace);
}
/** @internal */
export function attachProblems(error: object, problems: ProblemTrace[]): void {
  errorProblems.set(error, problems);
}

/** The trace of one recorded turn (`run.turns[i]`), or undefined for anything else. */
export function traceOfTurn(turn: object): TurnTrace | undefined {
  const record = typeof turn === "object" && turn !== null ? turnTraces.get(turn) : undefined;
  record?.sites?.resolve();
  return record?.trace;
}

/** The trace of a settled run (what `testWorkflow` resolved to). */
export function traceOfRun(run: object): RunTrace | undefined {
  const trace = runTraces.get(run);
  if (trace) runSites.get(trace)?.resolve();
  return trace;
}

/** The problems behind an error `testWorkflow` rejected with, or undefined for any other error. */
export function problemsOf(error: unknown): ProblemTrace[] | undefined {
  return typeof error === "object" && error !== null ? errorProblems.get(error) : undefined;
}
