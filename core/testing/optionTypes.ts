// testWorkflow's options as types: what every test takes, and what its workflow decides: its args
// (required unless they may be null or it has events) and its events (`event` and `events`, no `values`).

import type { EventData, EventsDeclared, EventSchemas, EventsUnknown, SendableEventName } from "../workflow/eventTypes.ts";
import type { HarnessAllowance, JsonValue, PanesSetting } from "../workflow/types.ts";
import type { EarlierOption } from "./continueOptions.ts";
import type { Script } from "./entries.ts";
import type { FileTree } from "./options.ts";
import type { DecisionScript } from "./scriptedDecisions.ts";
import type { MessageScript } from "./scriptedMessages.ts";
import type { ParticipantScript } from "./scriptedParticipants.ts";

/** What every test takes, whatever its workflow: bare `TestOptions` is this. */
export interface SharedTestOptions {
  /** The run's id, "test" unless given. */
  id?: string;
  /** Each agent's script, by key or by a pattern such as "verifier-*". */
  agents?: Record<string, Script>;
  /** Each agent's compactions, by key or pattern: a summary's text, a noAnswer, or a list; "" without one. */
  compactions?: Record<string, Script>;
  /** Each agent's script for a message that wakes it, by key or pattern: `(message) => …`, or a list, one per message. */
  messages?: Record<string, MessageScript>;
  /** Each participant's script, by key: `(event) => …`, called with each route to it and each message it is sent. */
  participants?: Record<string, ParticipantScript>;
  /** Each decision's answers, by key or pattern. */
  decisions?: Record<string, DecisionScript>;
  /** What `wf.allowance(harness)` reads, per harness; every harness reads `{ kind: "none" }` without it. */
  allowance?: Record<string, HarnessAllowance>;
  /** The session the run is started from; without it, `wf.agents.caller` and `forkCaller` answer null. */
  caller?: { harness: string; model?: string; here?: boolean };
  /** `awf run --workspace` and `--keep-panes`: the run's workspace and no pane kept by default. */
  panes?: PanesSetting;
  /** Runtime aliases added to, or replacing, `claude` and `codex`. */
  runtimes?: Record<string, { harness: string; model: string; effort?: string; placement?: "pane" | "headless"; metered?: boolean }>;
  /** The run's deadline, a duration such as "5s"; none unless given. */
  timeout?: string;
  /** Real time with nothing starting or ending before the test fails; "2s" by default. */
  stall?: string;
  /** Turns the workflow may start before the test fails; 20 by default. */
  maxTurns?: number;
  /** Timers the virtual clock skips to before the run parks instead; 20 by default. */
  maxTimers?: number;
  /** Files laid out under the run's directory first: a string is contents, an object a folder. */
  files?: FileTree;
  /** Where the agents work instead of a temporary directory; left as it is. */
  cwd?: string;
  /** What an earlier attempt left (its stage values, in.jsonl and run.jsonl lines): the test is its continue. */
  earlier?: EarlierOption;
  /** The stage the attempt starts at, as `--from-stage`: it and later stages are redone; with events, only with `earlier`. */
  fromStage?: string;
}

/** A workflow without events takes values for the stages before `fromStage`. */
export interface ValuesOption {
  /** Values for the stages before fromStage that have no record, as `--values`; never for a workflow with events. */
  values?: Record<string, JsonValue | undefined>;
}

/** An event's data as a test gives it: typed by its schema, and left out only where null fits it (it is sent as null). */
type EventDataField<Events, Name extends string> =
  EventsUnknown<Events> extends true ? { data?: unknown } : null extends EventData<Events, Name> ? { data?: EventData<Events, Name> } : { data: EventData<Events, Name> };

/** An event a test sends: for each name it may send, that name with the data its schema gives. */
type EventToGive<Events, Name extends string> = Name extends string ? { name: Name; eventId?: string } & EventDataField<Events, Name> : never;

/** The event that starts the run: one the workflow declares (`starts`, which the run checks, says which start it). */
export type StartEventOption<Events> = EventToGive<Events, EventsUnknown<Events> extends true ? string : keyof Events & string>;

/** An event sent while (`during`) or after (`after`) an agent's nth turn: a declared one, or a participant's `{key}:reply`. */
export type SentEventOption<Events> = ({ during: string } | { after: string }) & EventToGive<Events, SendableEventName<Events>>;

/** What a workflow with events takes besides the shared options. */
export interface EventOptions<Events> {
  /** The event that starts the run, its data checked against its schema and its name against `starts`. */
  event?: StartEventOption<Events>;
  /** Events sent while (`during`) or after (`after`) an agent's nth turn, in order. */
  events?: Array<SentEventOption<Events>>;
}

/**
 * Whether a test of this workflow must give `args`: when they can't be null and it has no events.
 * Bare (`Args` never) gives none.
 */
export type ArgsRequired<Args, Events> = [Args] extends [never]
  ? false
  : [Events] extends [never]
    ? null extends Args
      ? false
      : true
    : EventsDeclared<Events> extends "none"
      ? null extends Args
        ? false
        : true
      : false;

type ArgsOption<Args, Events> = [Args] extends [never]
  ? {}
  : ArgsRequired<Args, Events> extends true
    ? {
        /** The args `run` is given: required, as they can't be null and nothing else starts this workflow. */
        args: Args;
      }
    : {
        /** The args `run` is given; what `prepare` makes of no argv when left out. */
        args?: Args;
      };

/** By the workflow's events: none (or bare) takes `values`; some take `event` and `events`; unknown ones take all three. */
type EventsOrValues<Events> = [Events] extends [never]
  ? {}
  : EventsDeclared<Events> extends "none"
    ? ValuesOption
    : EventsDeclared<Events> extends "some"
      ? EventOptions<Events>
      : ValuesOption & EventOptions<Events>;

/**
 * testWorkflow's options for a workflow of these args and events. Bare, `TestOptions` is what any
 * test may share, with no args, events or values: a helper spreads it into each test's own.
 */
export type TestOptions<Args = never, Events extends EventSchemas = never> = SharedTestOptions & ArgsOption<Args, Events> & EventsOrValues<Events>;

/** testWorkflow's second parameter: required where `args` is. */
export type OptionsParameter<Args, Events extends EventSchemas> =
  ArgsRequired<Args, Events> extends true ? [options: TestOptions<Args, Events>] : [options?: TestOptions<Args, Events>];
