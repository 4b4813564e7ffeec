// The workflow API's public types: what a workflow file writes and what its calls resolve to.

import type { Static, TSchema } from "typebox";
import type { JsonValue } from "./json.ts";
import type { Duration } from "./durations.ts";

export type { JsonValue, Duration };

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
}

export interface Agents {
  /** Opens an agent, or returns the one already open under `key` when nothing given conflicts. */
  open(spec: AgentSpec): Promise<AgentRef>;
}

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

export interface ChoiceQuestion {
  kind: "choice";
  instructions: string;
  options: Record<string, string | null>;
}
export interface ScoreQuestion {
  kind: "score";
  instructions: string;
  /** Lowest first. */
  levels: string[];
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

export type AnswerFor<Q> = Q extends ChoiceQuestion
  ? ChoiceAnswer<Extract<keyof Q["options"], string>>
  : Q extends ScoreQuestion
    ? ScoreAnswer
    : YesNoAnswer;

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
  source: "ran" | "reused";
  summary?: string;
  reason?: string;
  value?: JsonValue;
}

/** How an attempt ended: what `present` and `report` get, and `run.ending` in a test. */
export type Ending<Result = JsonValue> =
  | { kind: "completed"; value: Result; stages: StageSummary[] }
  | {
      kind: "stopped" | "failed" | "timed-out" | "cancelled";
      stage?: string;
      reason: string;
      stages: StageSummary[];
      /** The command that goes on from here. */
      continue: string;
    };

// The context --------------------------------------------------------------------------------

export interface LogLine {
  message: string;
  fields?: Record<string, JsonValue>;
}

export interface WorkflowContext {
  /** The run's id, the same across attempts. */
  readonly runId: string;
  /** 1-based attempt number. */
  readonly attempt: number;
  /** Where agents work unless opened elsewhere. */
  readonly cwd: string;
  readonly agents: Agents;
  /** The run's clock: real in a run, virtual in a test. */
  now(): Date;
  log(message: string, fields?: Record<string, JsonValue>): void;
  parallel<Item, Result>(
    items: readonly Item[],
    work: (item: Item, index: number) => Promise<Result>,
    options?: ParallelOptions,
  ): Promise<Result[]>;
  stage<Result>(name: string, work: () => Promise<Result>): Promise<Result>;
  stage<S extends TSchema>(name: string, options: StageOptions<S>, work: () => Promise<Static<S>>): Promise<Static<S>>;
  /** Ends the attempt `stopped`; inside a stage, that stage is recorded stopped. */
  stop(reason: string): never;
  decide<Questions extends Record<string, Question>>(spec: DecisionSpec<Questions>): Promise<Decision<Questions>>;
  /** The same as `decide`, under the name agentswf's first API gave it. */
  readonly decisions: { decide: WorkflowContext["decide"] };
}

export interface PrepareInput {
  argv: string[];
  cwd: string;
}

export interface WorkflowSpec<Args, Result> {
  /** Letters, digits, `.`, `_` and `-`; it names the run's folder. */
  name: string;
  description: string;
  whenToUse?: string;
  version?: string;
  /** Turns the command line after `--` into args; throws to refuse it. */
  prepare?: (input: PrepareInput) => Args | Promise<Args>;
  run: (wf: WorkflowContext, args: Args) => Promise<Result>;
  present?: (value: Result, ending: Ending<Result>) => string | undefined;
  report?: (value: Result | undefined, ending: Ending<Result>) => string | undefined;
}

export const WORKFLOW_KIND = "turnlens.workflow/v1";

export interface Workflow<Args = JsonValue, Result = JsonValue> extends WorkflowSpec<Args, Result> {
  readonly kind: typeof WORKFLOW_KIND;
}
