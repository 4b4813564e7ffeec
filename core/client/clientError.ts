// ClientError: what a Client call throws when the call itself is wrong or names no run, as
// opposed to a result such as `refused` that a program handles.

export type ClientErrorCode =
  /** `workflow` is not what defineWorkflow made. */
  | "not-a-workflow"
  /** A call's fields are missing or of the wrong type. */
  | "bad-call"
  /** A run id that can't name a run's folder. */
  | "bad-id"
  /** Args that aren't JSON, or an `id(args)` that threw. */
  | "bad-args"
  /** An event sent to a workflow that declares none. */
  | "no-events"
  /** An event name the workflow doesn't declare. */
  | "undeclared-event"
  /** An event only awf itself sends, such as an agent's `{key}:ended`. */
  | "engine-only"
  /** Event data that isn't JSON or that its schema refuses. */
  | "bad-data"
  /** A wait or reply for a run that isn't there. */
  | "no-run";

export class ClientError extends Error {
  override readonly name = "ClientError";
  constructor(
    readonly code: ClientErrorCode,
    message: string,
  ) {
    super(message);
  }
}
