// One attempt of a run: the state every workflow call shares (clocks, host, scopes, stages,
// the first broken rule) and the switch that abandons the workflow when a test gives up on it.
// Its parts (inbox, sandboxes, continuation) take this state; attemptWithParts.ts joins them.

import { Activity, type IdleState } from "./activity.ts";
import type { Moment, RunClocks } from "./clock.ts";
import type { AgentHost, DecisionProvider, ParticipantHost, SandboxProvider } from "./host.ts";
import { CancelReason, Scope } from "./scope.ts";
import type { TSchema } from "typebox";
import type { EarlierAttempt, RunLine, StageRecord } from "./runLines.ts";
import type { JsonValue, LogLine, RuntimeAlias, TimerRecord } from "./types.ts";
import type { HarnessAllowance, PanesSetting } from "./types.ts";
import { WorkflowRuleError } from "./errors.ts";

export interface AttemptSettings {
  runId: string;
  attempt: number;
  cwd: string;
  /** Told before a folder's path reaches workflow code (`wf.cwd`, a tool's cwd): a test makes its folder then. */
  onCwdUsed?: (path: string) => void;
  clocks: RunClocks;
  host: AgentHost;
  decisions: DecisionProvider;
  runtimes: Readonly<Record<string, RuntimeAlias>>;
  /** The run's deadline in milliseconds from its start; none by default. */
  timeoutMs?: number;
  onLog?: (line: LogLine) => void;
  /** The session the run was started from (`awf run --here`); `here: false` leaves it waiting on the run. */
  caller?: CallerSetting;
  /** `awf run --workspace` and `--keep-panes`: the workspace pane agents' tabs open in, and which panes stay. */
  panes?: PanesSetting;
  /** What `wf.allowance(harness)` reads; every harness reads `{ kind: "none" }` without it. */
  allowance?: (harness: string) => HarnessAllowance | Promise<HarnessAllowance>;
  /** Told when an agent ends before the attempt does (`wf.agents.stop`), so `{key}:ended` can be sent. */
  onAgentEnded?: (key: string, reason: string) => void;
  /** Where messages to participants and the routes that reach them go; without one they are only recorded. */
  participants?: ParticipantHost;
  /** Where sandboxes are made (srt, docker; a test's fake); without one, opening a sandbox rejects. */
  sandboxes?: SandboxProvider;
  /** The events the workflow declares (its `events`). */
  declaredEvents?: Readonly<Record<string, TSchema>>;
  /** How long a keepAlive with no window stays live; an hour unless a test shortens it. */
  defaultKeepAliveMs?: number;
  /** What the earlier attempt left, when this attempt continues it (continues.ts). */
  earlier?: EarlierAttempt;
  /** The stage this attempt starts at (`--from-stage`): it and later stages are redone. */
  fromStage?: string;
  /** Values for the stages before fromStage that have no record (`--values`). */
  values?: Readonly<Record<string, JsonValue | undefined>>;
  /** The stages the workflow declares, in order, each with its result schema (null: it returns nothing). */
  declaredStages?: Readonly<Record<string, TSchema | null>>;
}

/** The calling session: its harness, the model its files show, and whether it is handed to the run. */
export interface CallerSetting {
  harness: string;
  model?: string;
  /** True unless it waits on the run instead (then `wf.agents.caller` answers null). */
  here?: boolean;
}

/** Where a parked attempt stopped: the wait it parked at. */
export interface ParkedAt {
  label: string;
  /** ISO time on the run's clock when it would wake by itself. */
  until?: string;
}

const never = new Promise<never>(() => {});
/** Awaited like any settled promise (one hop): one for every call, not a new one for each (a turn awaits it twice). */
const settled = Promise.resolve();

export class Attempt {
  readonly root: Scope;
  readonly stages: StageRecord[] = [];
  readonly enteredStages = new Set<string>();
  openStage: string | undefined;
  /** Records the open stage as the attempt ends around it (stages.ts installs it while one is open). */
  closeOpenStage: ((outcome: "stopped" | "failed", reason?: string) => void) | undefined;
  /** The first workflow-API rule the workflow broke; it fails the attempt even if caught. */
  ruleViolation: WorkflowRuleError | undefined;
  /** Set by wf.stop, so a caught stop still fails the attempt. */
  stopRequested: { reason: string; stage?: string } | undefined;
  /** The stage a throw escaped from, for the ending. */
  failedStage: string | undefined;
  private abandoned = false;
  private operationCount = 0;
  /** Counts the workflow's waits in call order, so a continue can match them to the earlier attempt's. */
  waitSequence = 0;
  readonly timers: TimerRecord[] = [];
  /** When each of `timers` this attempt set was set and ended: the timeline's (a test compares `timers` whole). */
  readonly timerMoments = new Map<TimerRecord, { set: Moment; ended?: Moment }>();
  /** When the attempt parked. */
  parkedMoment: Moment | undefined;
  private steps = 0;
  /** What the attempt settled, in order: the lines it adds to run.jsonl. */
  readonly runLog: RunLine[] = [];
  readonly activity: Activity;
  /** Set when the attempt parked. */
  parkedAt: ParkedAt | undefined;
  private readonly parkListeners: Array<(at: ParkedAt) => void> = [];
  /** Called when the run is idle; the engine installs it (see idle.ts). */
  idleHandler: (state: IdleState) => void = () => {};

  constructor(readonly settings: AttemptSettings) {
    this.activity = new Activity((state) => this.idleHandler(state));
    const deadline = settings.clocks.deadline;
    this.root = new Scope(undefined, deadline, settings.timeoutMs === undefined ? {} : { deadlineAt: deadline.now() + settings.timeoutMs });
  }

  get clocks() {
    return this.settings.clocks;
  }
  get host() {
    return this.settings.host;
  }
  get cwd() {
    return this.settings.cwd;
  }
  get runtimes() {
    return this.settings.runtimes;
  }

  /** Now, as the timeline orders things: the run clock's time and the next step. */
  moment(): Moment {
    return { at: this.clocks.run.now(), step: ++this.steps };
  }

  /** The next step alone: for a recorder that keeps its moments as numbers (the test host's turns). */
  nextStep(): number {
    return ++this.steps;
  }

  nextOperationId(): number {
    return ++this.operationCount;
  }

  nowIso(): string {
    // Every operation logs the time; a test's virtual clock rarely moves between them.
    const now = this.clocks.run.now();
    if (now !== this.isoAt) {
      this.isoAt = now;
      this.iso = new Date(now).toISOString();
    }
    return this.iso;
  }
  private isoAt = Number.NaN;
  private iso = "";

  /** Records a broken rule (the first one wins) and returns the error to throw. */
  violate(message: string): WorkflowRuleError {
    const error = new WorkflowRuleError(message);
    this.ruleViolation ??= error;
    return error;
  }

  /** Gives up on the workflow: its pending calls never settle, so no loop of its outlives the test. */
  abandon(reason: string): void {
    this.abandoned = true;
    this.root.cancel(new CancelReason("cancelled", reason));
  }

  /** Ends the attempt at a wait: nothing pending settles, and the run's ending is `parked`. */
  park(at: ParkedAt): void {
    if (this.abandoned) return;
    this.parkedAt = at;
    this.parkedMoment = this.moment();
    this.activity.stop();
    this.abandon("the attempt parked");
    for (const listener of this.parkListeners.splice(0)) listener(at);
  }

  onPark(listener: (at: ParkedAt) => void): void {
    this.parkListeners.push(listener);
  }

  get isAbandoned(): boolean {
    return this.abandoned;
  }

  /** Resolves at once, or never when the attempt was abandoned. */
  unlessAbandoned(): Promise<void> {
    return this.abandoned ? never : settled;
  }
}
