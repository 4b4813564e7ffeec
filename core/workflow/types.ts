// The workflow API's public types: what a workflow file writes and what its calls resolve to.

import type { Static, TSchema } from "typebox";
import type { JsonValue } from "./json.ts";
import type { Duration } from "./durations.ts";
import type { ToolSpec, WorkflowMessages, WorkflowParticipants } from "./messageTypes.ts";
import type { SandboxRef, SandboxRules, WorkflowSandboxes } from "./sandboxTypes.ts";
import type { EventName, EventSchemas, ReceivedEvent, ReceivedEventOf } from "./eventTypes.ts";

export type { JsonValue, Duration };
export type * from "./messageTypes.ts";
export type * from "./sandboxTypes.ts";
export type { EventData, EventName, EventSchemas, ReceivedEvent, ReceivedEventOf } from "./eventTypes.ts";

/** How a harness is selected: an alias name, an alias with overrides, or a full selection. */
export type RuntimeSelection =
  | string
  | { alias: string; harness?: string; model?: string; effort?: string; placement?: Placement; metered?: boolean }
  | { harness: string; model: string; effort?: string; placement?: Placement; metered?: boolean };

export type Placement = "pane" | "headless";

/** The settings an agent runs at. */
export interface Execution {
  harness: string;
  model: string;
  effort?: string;
  placement: Placement;
  metered?: boolean;
  alias?: string;
  /** Set on the calling session (`wf.agents.caller`), whose model is the operator's and reads "". */
  caller?: boolean;
}

/** What a runtime alias stands for. */
export interface RuntimeAlias {
  harness: string;
  model: string;
  effort?: string;
  placement?: Placement;
  metered?: boolean;
}

export type Skill = { path: string } | { repo: string; skill: string; ref?: string };

export interface AgentSpec {
  key: string;
  runtime: RuntimeSelection;
  instructions?: string;
  skills?: Skill[];
  labels?: Record<string, JsonValue>;
  cwd?: string;
  /** Where a pane agent's pane opens: a new tab, or a split beside another agent's pane. */
  layout?: PaneLayout;
  /** Whether its pane stays once the run is done; the run's `--keep-panes` by default. */
  keepPane?: KeepPane;
  /** The workflow's tools (its `tools`, by name) this agent may call with `wfa tool`. */
  tools?: readonly string[];
  /** Where its host launches it: a sandbox from `wf.sandboxes.open`, or rules of its own (its private sandbox, `agent:<key>`). */
  sandbox?: SandboxRef | SandboxRules;
}

// Panes ------------------------------------------------------------------------------------------

/** The workspace a tab opens in: the run's own, the one the run was started from, or one by name. */
export type PaneWorkspace = "run" | "origin" | { name: string };

export type KeepPane = "never" | "on-failure" | "always";

/** A new tab (`{ session?, workspace?, tab? }`) or a split beside an open agent's pane. */
export type PaneLayout = { session?: string; workspace?: PaneWorkspace; tab?: string } | { beside: string; side: "right" | "below"; share?: number };

/** What the run applies to every pane agent: `awf run --workspace` and `--keep-panes`. */
export interface PanesSetting {
  workspace?: PaneWorkspace;
  keep?: KeepPane;
}

export interface TurnSpec<S extends TSchema | undefined = TSchema | undefined> {
  prompt: string;
  schema?: S;
  label?: string;
  /** One nudge by default; false turns it off; `{ prompt }` words it. */
  nudge?: boolean | { prompt: string };
  /** The turn's own deadline, a duration such as "10m" or milliseconds. */
  timeout?: Duration | number;
}

export interface LoginNeeded {
  harness: string;
  provider?: string;
  /** The command that logs in. */
  run: string;
}

/** How a turn ended. Every turn ends in one of these; none throws. */
export type Outcome<Value = unknown> =
  | { kind: "answered"; value: Value }
  | { kind: "unanswered"; reason: string }
  | { kind: "blocked"; reason: string }
  | { kind: "timed-out"; reason: string }
  | { kind: "failed"; reason: string; retryable: boolean; login?: LoginNeeded }
  | { kind: "cancelled"; reason: string };

export type OutcomeKind = Outcome["kind"];

export type AnswerOf<S> = S extends TSchema ? Static<S> : string;

export interface TurnResult<Value> {
  outcome: Outcome<Value>;
}

export interface AgentRef {
  readonly key: string;
  /** The settings the agent runs at now. */
  readonly execution: Execution;
  run<S extends TSchema>(spec: TurnSpec<S> & { schema: S }): Promise<TurnResult<Static<S>>>;
  run(spec: TurnSpec<undefined>): Promise<TurnResult<string>>;
  /** Runs the harness's own compaction, after the agent's earlier operations; answered with the summary. */
  compact(spec: CompactSpec): Promise<Outcome<string>>;
  /** Switches the model or effort later operations run at; answered with the settings now in force. */
  set(spec: SetSpec): Promise<Outcome<Execution>>;
  /** A new agent on a copy of this one's session, taken after its earlier operations. */
  fork(spec: ForkSpec): Promise<AgentRef>;
}

export interface CompactSpec {
  /** The compaction's focus: what the summary keeps. */
  prompt: string;
  /** Names the compaction; given again with the same prompt, it is the same compaction. */
  id?: string;
  timeout?: Duration | number;
}

export interface SetSpec {
  model?: string;
  effort?: string;
  /** Names the switch; given again with the same settings, it is the same switch. */
  id?: string;
}

export interface ForkSpec {
  key: string;
  placement?: Placement;
  metered?: boolean;
  effort?: string;
  instructions?: string;
  labels?: Record<string, JsonValue>;
  layout?: PaneLayout;
  keepPane?: KeepPane;
}

export interface Agents {
  /** Opens an agent, or returns the one already open under `key` when nothing given conflicts. */
  open(spec: AgentSpec): Promise<AgentRef>;
  /** Ends an agent early: its running turn settles `cancelled`. False when it was not open, or already stopped. */
  stop(key: string, reason?: string): boolean;
  /** The session `awf run --here` was typed in, driven as agent `key`; null when the run has none. */
  caller(spec: { key: string }): Promise<AgentRef | null>;
  /** A new agent on a copy of the session that started the run, on the model its files show; null when there is none. */
  forkCaller(spec: ForkSpec): Promise<AgentRef | null>;
}

// Allowance --------------------------------------------------------------------------------------

/** One limit window of a harness's plan, such as its 5-hour or weekly window. */
export interface AllowanceWindow {
  /** The window as the harness names it: "5h", "week", … */
  name: string;
  /** The share of the window still left, from 0 to 1. */
  left: number;
  /** ISO time the window starts again, when known. */
  resets?: string;
}

/** What is left of a harness's plan: `none` where there is no data, else each window. */
export type HarnessAllowance = { kind: "none" } | { kind: "plan"; windows: AllowanceWindow[] };

export interface ParallelOptions {
  /** At most this many items at once; all by default. */
  concurrency?: number;
  /** A deadline for the whole fan-out, a duration from now; only ever shortens the enclosing one. */
  deadline?: Duration | number;
  label?: string;
}

export interface StageOptions<S extends TSchema> {
  result: S;
  summary?: (value: Static<S>) => string;
}

// Decisions ------------------------------------------------------------------------------------

/** `Options` are the options as `choice` was given them, so an answer's option is typed by their names. */
export interface ChoiceQuestion<Options extends Record<string, string | null> = Record<string, string | null>> {
  kind: "choice";
  instructions: string;
  options: Options;
}
/** `Levels` are the level names as `score` was given them: a tuple where written inline, so a test's level index is typed by them. */
export interface ScoreQuestion<Levels extends readonly string[] = readonly string[]> {
  kind: "score";
  instructions: string;
  /** Lowest first. */
  levels: Levels;
}
export interface YesNoQuestion {
  kind: "yes-no";
  instructions: string;
  criteria?: string;
}
export type Question = ChoiceQuestion | ScoreQuestion | YesNoQuestion;

export interface ChoiceAnswer<Option extends string = string> {
  choice: Option;
  probabilities: Record<Option, number>;
}
export interface ScoreAnswer {
  /** Index of the most likely level, lowest on ties. */
  level: number;
  /** Probability-weighted level index. */
  expected: number;
  probabilities: number[];
}
export interface YesNoAnswer {
  yes: boolean;
  /** Probability of yes. */
  probability: number;
}

export type AnswerFor<Q> = Q extends ChoiceQuestion ? ChoiceAnswer<Extract<keyof Q["options"], string>> : Q extends ScoreQuestion ? ScoreAnswer : YesNoAnswer;

export interface DecisionSpec<Questions extends Record<string, Question>> {
  key: string;
  questions: Questions;
  /** What the decision is about, passed to the model. */
  state?: JsonValue;
  /** The decision model's alias; `jev` by default. */
  model?: string;
  deadline?: Duration | number;
}

export interface DecisionRecord {
  key: string;
  model: string;
  provider: string;
}

export interface Decision<Questions extends Record<string, Question>> {
  answers: { [Id in keyof Questions]: AnswerFor<Questions[Id]> };
  record: DecisionRecord;
}

// Stages and endings ---------------------------------------------------------------------------

export type StageOutcome = "succeeded" | "stopped" | "failed";

export interface StageSummary {
  name: string;
  outcome: StageOutcome;
  attempt: number;
  /** Ran in this attempt, reused from an earlier one, or given (`values`). */
  source: "ran" | "reused" | "provided";
  summary?: string;
  reason?: string;
  value?: JsonValue;
}

/** How an attempt ended: what `present` and `report` get, and `run.ending` in a test. */
export type Ending<Result = JsonValue> =
  | { kind: "completed"; value: Result; stages: StageSummary[] }
  /** Nothing left but waits: the attempt ended, and a continue resumes it at `until` or on an event. */
  | { kind: "parked"; label: string; until?: string; reason: string; stages: StageSummary[]; continue: string }
  | {
      kind: "stopped" | "failed" | "timed-out" | "cancelled";
      stage?: string;
      reason: string;
      stages: StageSummary[];
      /** The command that goes on from here. */
      continue: string;
    };

// Time and events ------------------------------------------------------------------------------

export interface WaitOptions {
  /** What the run is waiting for, as a parked ending and `run.timers` name it. */
  label?: string;
}

/** A timer a wait ran on the run's clock, as `run.timers` lists it. */
export interface TimerRecord {
  label: string;
  /** ISO time it is due, on the run's clock. */
  due: string;
  state: "fired" | "cancelled" | "pending";
  /** What made it: a sleep or waitUntil (`timer`), an event wait's `until`, a question's `until`. */
  kind: "timer" | "event" | "question" | "keep-alive";
}

export interface EventWaitOptions extends WaitOptions {
  /** When to stop waiting: a Date, an ISO time, or a duration from now such as "2d". */
  until?: Date | string;
}

export type EventWaitResult<Event extends ReceivedEvent<string, unknown> = ReceivedEvent> = ({ kind: "event" } & Event) | { kind: "timeout"; until: string };

/** Another workflow's run: "workflow/id" or { workflow, id }. */
export type EventRef = string | { workflow: string; id: string };

/** An event this run sent another run with wf.emit. */
export interface EmitRecord {
  ref: string;
  name: string;
  data: JsonValue;
  eventId?: string;
}

export interface KeepAliveOptions {
  /** How long the run stays live for an event once nothing else is left; an hour by default (100 ms in a test). */
  window?: Duration;
  /** Compacts an agent when a window passes with no event, before the run parks. */
  onTimeout?: { compact: { key: string }; prompt: string };
}

/** `Events` is the workflow's declared events (their schemas, by name); `any` where they aren't known. */
// biome-ignore lint/suspicious/noExplicitAny: undeclared events are untyped, as on the reference page
export interface WorkflowEvents<Events = any> {
  /**
   * Waits for the next event of a name (or any of several), taking the oldest one not yet taken;
   * with `until`, resolves `{ kind: "timeout" }` once that time passes.
   */
  wait<Name extends EventName<Events>>(names: Name | readonly Name[], options?: EventWaitOptions): Promise<EventWaitResult<ReceivedEventOf<Events, Name>>>;
}

// The context --------------------------------------------------------------------------------

export interface LogLine {
  message: string;
  fields?: Record<string, JsonValue>;
}

/** What `run` is given. `Events` is the workflow's declared events, which type `event` and `events.wait`. */
// biome-ignore lint/suspicious/noExplicitAny: undeclared events are untyped, as on the reference page
export interface WorkflowContext<Events = any> {
  /** The run's id, the same across attempts. */
  readonly runId: string;
  /** 1-based attempt number. */
  readonly attempt: number;
  /** Where agents work unless opened elsewhere. */
  readonly cwd: string;
  readonly agents: Agents;
  /** What is left of a harness's plan; `{ kind: "none" }` where there is no data. */
  allowance(harness: string): Promise<HarnessAllowance>;
  /** The run's clock: real in a run, virtual in a test. */
  now(): Date;
  log(message: string, fields?: Record<string, JsonValue>): void;
  parallel<Item, Result>(items: readonly Item[], work: (item: Item, index: number) => Promise<Result>, options?: ParallelOptions): Promise<Result[]>;
  stage<Result>(name: string, work: () => Promise<Result>): Promise<Result>;
  stage<S extends TSchema>(name: string, options: StageOptions<S>, work: () => Promise<Static<S>>): Promise<Static<S>>;
  /** Ends the attempt `stopped`; inside a stage, that stage is recorded stopped. */
  stop(reason: string): never;
  decide<Questions extends Record<string, Question>>(spec: DecisionSpec<Questions>): Promise<Decision<Questions>>;
  /** The same as `decide`, under the name agentswf's first API gave it. */
  readonly decisions: { decide: WorkflowContext["decide"] };
  /** Waits for a duration on the run's clock (a timer; the run parks if nothing else is left). */
  sleep(duration: Duration | number, options?: WaitOptions): Promise<void>;
  /** Waits until a time on the run's clock: a Date, an ISO time, or a duration from now. */
  waitUntil(time: Date | string, options?: WaitOptions): Promise<void>;
  /** The event that started or woke this attempt; null without one. */
  readonly event: ReceivedEventOf<Events> | null;
  readonly events: WorkflowEvents<Events>;
  /** Sends an event to another workflow's run. */
  emit(ref: EventRef, name: string, data: JsonValue, options?: { eventId?: string }): Promise<void>;
  /** Keeps the run live for a window when only event waits are left, rather than parking at once. */
  keepAlive(options?: KeepAliveOptions): void;
  /** The routes agents and participants message each other along. */
  readonly messages: WorkflowMessages;
  /** Sessions the engine did not start, such as a coordinator, that agents message. */
  readonly participants: WorkflowParticipants;
  /** Sandboxes agents share; an agent's own is its `sandbox` rules. */
  readonly sandboxes: WorkflowSandboxes;
}

export interface PrepareInput {
  argv: string[];
  cwd: string;
}

/** What a workflow's `prepare` is: the command line after `--` to args, or a throw that refuses it. */
export type PrepareFunction<Args> = (input: PrepareInput) => Args | Promise<Args>;

/** A defined workflow's `prepare`, as a test calls it: `cwd` may be left out (the process's), and it returns what the written one does. */
export type PrepareCall<Returned> = (input: { argv: string[]; cwd?: string }) => Returned;

/** A workflow spec with a `prepare`, which returns `Returned` (its args, or a promise of them). */
export type PreparedSpec<Returned, Result, Events extends EventSchemas> = Omit<WorkflowSpec<Awaited<Returned>, Result, Events>, "prepare"> & {
  prepare: (input: PrepareInput) => Returned;
};

/**
 * What defineWorkflow returns for a spec with a `prepare`: a `Workflow` whose `prepare` is typed as
 * written (a synchronous one returns its args, not a promise), so a test calls it as the page does.
 */
export type PreparedWorkflow<Returned, Result, Events extends EventSchemas> = Omit<Workflow<Awaited<Returned>, Result, Events>, "prepare"> & {
  readonly prepare: PrepareCall<Returned>;
};

/** `Events` is what `events` declares, inferred by defineWorkflow; `any` where it isn't known. */
// biome-ignore lint/suspicious/noExplicitAny: undeclared events are untyped, as on the reference page
export interface WorkflowSpec<Args, Result, Events extends EventSchemas = any> {
  /** Letters, digits, `.`, `_` and `-`; it names the run's folder. */
  name: string;
  description: string;
  whenToUse?: string;
  version?: string;
  /** Turns the command line after `--` into args; throws to refuse it. */
  prepare?: (input: PrepareInput) => Args | Promise<Args>;
  run: (wf: WorkflowContext<Events>, args: Args) => Promise<Result>;
  /** Names a run from its args (a ticket key, a release tag) when it is started without an id. */
  id?: (args: Args) => string;
  /** The events a run takes, by name, each with the schema its data must fit. */
  events?: Events;
  /** Which declared events may start a run. */
  starts?: readonly NoInfer<keyof Events & string>[];
  /** Tools agents may call (`wfa tool`), by name; `wf.agents.open({ tools })` grants them. */
  // biome-ignore lint/suspicious/noExplicitAny: each tool has its own input and output types
  tools?: Record<string, ToolSpec<any, any>>;
  /**
   * The stages, in the order the run enters them, each with its result schema (null for a stage
   * that returns nothing). Optional: it lets a run started at a stage list every value it needs.
   */
  stages?: Record<string, TSchema | null>;
  present?: (value: Result, ending: Ending<Result>) => string | undefined;
  report?: (value: Result | undefined, ending: Ending<Result>) => string | undefined;
}

export const WORKFLOW_KIND = "turnlens.workflow/v1";

/** What defineWorkflow made. Written without `Events`, its events' names and data aren't checked. */
// biome-ignore lint/suspicious/noExplicitAny: undeclared events are untyped, as on the reference page
export interface Workflow<Args = JsonValue, Result = JsonValue, Events extends EventSchemas = any> extends WorkflowSpec<Args, Result, Events> {
  readonly kind: typeof WORKFLOW_KIND;
}
