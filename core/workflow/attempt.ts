// One attempt of a run: the state every workflow call shares (clocks, host, scopes, stages,
// the first broken rule) and the switch that abandons the workflow when a test gives up on it.

import type { RunClocks } from "./clock.ts";
import type { AgentHost, DecisionProvider } from "./host.ts";
import { CancelReason, Scope } from "./scope.ts";
import type { JsonValue, LogLine, RuntimeAlias, StageOutcome } from "./types.ts";
import { WorkflowRuleError } from "./errors.ts";

export interface StageRecord {
  name: string;
  outcome: StageOutcome;
  attempt: number;
  /** ISO time on the run's clock. */
  started: string;
  /** ISO time it ended. */
  at: string;
  summary?: string;
  reason?: string;
  value?: JsonValue;
}

export interface AttemptSettings {
  runId: string;
  attempt: number;
  cwd: string;
  clocks: RunClocks;
  host: AgentHost;
  decisions: DecisionProvider;
  runtimes: Readonly<Record<string, RuntimeAlias>>;
  /** The run's deadline in milliseconds from its start; none by default. */
  timeoutMs?: number;
  onLog?: (line: LogLine) => void;
}

const never = new Promise<never>(() => {});

export class Attempt {
  readonly root: Scope;
  readonly stages: StageRecord[] = [];
  readonly enteredStages = new Set<string>();
  openStage: string | undefined;
  /** The first workflow-API rule the workflow broke; it fails the attempt even if caught. */
  ruleViolation: WorkflowRuleError | undefined;
  /** Set by wf.stop, so a caught stop still fails the attempt. */
  stopRequested: { reason: string; stage?: string } | undefined;
  /** The stage a throw escaped from, for the ending. */
  failedStage: string | undefined;
  private abandoned = false;
  private operationCount = 0;

  constructor(readonly settings: AttemptSettings) {
    const deadline = settings.clocks.deadline;
    this.root = new Scope(
      undefined,
      deadline,
      settings.timeoutMs === undefined ? {} : { deadlineAt: deadline.now() + settings.timeoutMs },
    );
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

  nextOperationId(): number {
    return ++this.operationCount;
  }

  nowIso(): string {
    return new Date(this.clocks.run.now()).toISOString();
  }

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

  get isAbandoned(): boolean {
    return this.abandoned;
  }

  /** Resolves at once, or never when the attempt was abandoned. */
  unlessAbandoned(): Promise<void> {
    return this.abandoned ? never : Promise.resolve();
  }
}
