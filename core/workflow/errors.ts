// Errors the engine throws into workflow code, each with a stable `code`.

/** Thrown by wf.stop: unwinds the workflow so the attempt ends `stopped`. */
export class StopSignal extends Error {
  readonly code = "stopped";
  constructor(
    readonly reason: string,
    readonly stage: string | undefined,
  ) {
    super(`the workflow stopped: ${reason}`);
    this.name = "StopSignal";
  }
}

/** A wait with no outcome value (parallel, decide) outlived its deadline. */
export class DeadlineExceededError extends Error {
  readonly code = "deadline-exceeded";
  constructor(
    message: string,
    readonly runDeadline: boolean,
  ) {
    super(message);
    this.name = "DeadlineExceededError";
  }
}

/** The decision provider failed or gave an answer the engine refuses. */
export class DecisionError extends Error {
  readonly code = "decision-failed";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DecisionError";
  }
}

/** A rule of the workflow API was broken (stage naming, nesting, reopen conflicts...). */
export class WorkflowRuleError extends Error {
  readonly code = "workflow-rule";
  constructor(message: string) {
    super(message);
    this.name = "WorkflowRuleError";
  }
}

/** A wait on time or events ended because its scope was cancelled (a sibling failed, the attempt ended). */
export class WaitCancelledError extends Error {
  readonly code = "wait-cancelled";
  constructor(message: string) {
    super(message);
    this.name = "WaitCancelledError";
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
