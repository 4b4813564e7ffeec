// The types that carry a workflow's declared events, from its `events` to the calls that name
// them: wf.events.wait, wf.event, and a test's `event` and `events`. Types only; no code runs here.

import type { Static, TSchema } from "typebox";
import type { JsonValue } from "./json.ts";
import type { AGENT_ENDED, PARTICIPANT_REPLY } from "./builtInEvents.ts";

/** An event as the run received it: one line of its in.jsonl. Typed by name and data where the workflow's events are known. */
export interface ReceivedEvent<Name extends string = string, Data = JsonValue> {
  eventId: string;
  name: Name;
  data: Data;
  /** ISO time on the run's clock when it arrived. */
  at: string;
}

/** What `events` declares: each event's name with the schema its data must fit. */
export type EventSchemas = Record<string, TSchema>;

/**
 * True where the names aren't known to the type checker: a `Workflow` written without its events
 * (`any`), or events typed as a whole `Record<string, TSchema>`. Every name and any JSON pass then,
 * as they did before workflows carried their events' types.
 */
export type EventsUnknown<Events> = 0 extends 1 & Events ? true : string extends keyof Events ? true : false;

/** Whether the workflow declares events: "none", "some", or "unknown" (see EventsUnknown). */
export type EventsDeclared<Events> = EventsUnknown<Events> extends true ? "unknown" : [keyof Events] extends [never] ? "none" : "some";

/** A participant's reply, `{key}:reply`, which every run with participants takes. */
export type ParticipantReplyName = `${string}:reply`;
/** awf's own `{agent}:ended`, sent when an agent ends; a run may wait on it, nobody else sends it. */
export type AgentEndedName = `${string}:ended`;

/** The names a run takes: the ones it declares, a participant's `{key}:reply` and an agent's `{key}:ended`. */
export type EventName<Events> = EventsUnknown<Events> extends true ? string : (keyof Events & string) | ParticipantReplyName | AgentEndedName;

/** The names a test may send in `events`: the declared ones and a participant's reply (`{key}:ended` is awf's). */
export type SendableEventName<Events> = EventsUnknown<Events> extends true ? string : (keyof Events & string) | ParticipantReplyName;

/** What a schema's data is once checked: its Static type; JSON where the schema's type says nothing. */
type DataOfSchema<Schema> = 0 extends 1 & Schema ? JsonValue : [Schema] extends [never] ? JsonValue : Schema extends TSchema ? Static<Schema> : JsonValue;

/** The data an event of this name carries, by its schema; a declared name wins over the `{key}:…` forms. */
export type EventData<Events, Name extends string> =
  EventsUnknown<Events> extends true
    ? JsonValue
    : Name extends keyof Events
      ? DataOfSchema<Events[Name]>
      : Name extends ParticipantReplyName
        ? Static<typeof PARTICIPANT_REPLY>
        : Name extends AgentEndedName
          ? Static<typeof AGENT_ENDED>
          : JsonValue;

/** An event as a run of these events receives it: for each name it may take, that name with its data. */
export type ReceivedEventOf<Events, Name extends string = EventName<Events>> =
  EventsUnknown<Events> extends true ? ReceivedEvent : Name extends string ? ReceivedEvent<Name, EventData<Events, Name>> : never;
