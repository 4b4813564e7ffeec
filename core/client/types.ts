// The Client a program's handler takes: the calls that start runs, send them events, wait on
// them and read and answer their questions. The real client and fakeClient share these types.

import type { Workflow } from "../workflow/types.ts";

/**
 * Where a run is. `running` while an attempt runs; every other state is a rest, what `wait`
 * resolves to: `parked` (waiting on a timer or an event), `completed` (the workflow returned),
 * `failed`, `crashed` (its process died), `stopped`, `cancelled`, `interrupted` (it ended with no
 * rest, such as a launch that failed) and `stuck` (three launches failed in a row).
 */
export type RunState = "running" | "parked" | "completed" | "failed" | "crashed" | "stopped" | "cancelled" | "interrupted" | "stuck";

export type RestState = Exclude<RunState, "running">;

/** Any workflow, whatever its args and result (checked at the call that gives them). */
// biome-ignore lint/suspicious/noExplicitAny: any workflow, whatever its args and result (Workflow is invariant in them)
export type AnyWorkflow = Workflow<any, any>;

// Calls -----------------------------------------------------------------------------------------

/** A start: `args` may be left out (for `null`) only when the workflow's args may be `null`. */
export type StartCall<Args = unknown> = {
  // biome-ignore lint/suspicious/noExplicitAny: the result is not the caller's to type
  workflow: Workflow<Args, any>;
  /** The run's id; without one, the workflow's `id(args)` names it, else a new id is made. */
  id?: string;
} & (null extends Args ? { args?: Args } : { /** The args `run` is given. */ args: Args });

export interface EmitCall {
  workflow: AnyWorkflow;
  id: string;
  /** An event the workflow declares. */
  name: string;
  /** Checked against the event's schema. */
  data?: unknown;
  /** The event's id in the run's in.jsonl: the same id sent again is a duplicate. A new one is made without it. */
  eventId?: string;
}

export interface WaitCall {
  workflow: AnyWorkflow;
  id: string;
}

export interface InboxCall {
  /** Only the items of this participant (the key a run's questions go to). */
  participant?: string;
  /** Only the items of this workflow's runs, or of one run with `id`. */
  workflow?: AnyWorkflow;
  id?: string;
}

export interface ReplyCall {
  workflow: AnyWorkflow;
  id: string;
  /** Who answers: the participant whose `{participant}:reply` event the run takes. */
  participant: string;
  text: string;
  /** The message answered, an inbox item's `messageId`. */
  to?: string;
  eventId?: string;
}

// Results ---------------------------------------------------------------------------------------

export type StartDid = "started" | "exists" | "other-args" | "launch-failed";

export interface StartResult {
  /**
   * `started`: the run was made and launched. `exists`: a run with that id and the same args was
   * there already (launched again if its last launch had failed). `other-args`: a run with that id
   * has other args, and nothing changed. `launch-failed`: the run was made but its process did not
   * start; `error` says why.
   */
  did: StartDid;
  /** The run's id, as given, from `id(args)`, or made. */
  id: string;
  error?: string;
  /** True for `started` and `exists`. */
  ok: boolean;
}

export type EmitDid = "started" | "duplicate" | "nudged" | "continued" | "none" | "refused";

/** Why an event did `none` or was `refused`, in the words the client uses. */
export type EmitWhy = "launch-failed" | "nothing-due" | "returned" | "stopped" | "cancelled" | "stuck" | "no-run";

export interface EmitResult {
  /**
   * `started`: a run was made for the event and launched. `duplicate`: the run had this event id
   * already, and is awake. `nudged`: the running run was told. `continued`: a resting run was
   * launched to take it. `none`: the event is kept but nothing was launched (`why`). `refused`: the
   * event was not kept (`why`).
   */
  did: EmitDid;
  why?: EmitWhy | (string & {});
  /** True when the event reached a run that takes it now: `started`, `duplicate`, `nudged`, `continued`. */
  ok: boolean;
}

/** Where a run came to rest: what `wait` resolves to. */
export interface Rest {
  state: RestState;
  /** Whether it stays there: nothing but an operator's continue moves it on. */
  final: boolean;
  /** True for `completed` and `parked`. */
  ok: boolean;
}

/** A message a run sent a participant, waiting in the inbox. */
export interface InboxItem {
  workflow: string;
  id: string;
  participant: string;
  messageId: string;
  from: string;
  text: string;
  /** Whether it asks a question, which `reply` answers. */
  asks: boolean;
}

/** What a program's handler is given to start runs and talk to them. */
export interface Client {
  start<Args>(call: StartCall<Args>): Promise<StartResult>;
  emit(call: EmitCall): Promise<EmitResult>;
  /** Resolves at the run's next rest: at once when it rests now. */
  wait(call: WaitCall): Promise<Rest>;
  inbox(call?: InboxCall): Promise<InboxItem[]>;
  /** Sends the run the participant's `{participant}:reply` event; a run that isn't there throws `no-run`. */
  reply(call: ReplyCall): Promise<EmitResult>;
}
