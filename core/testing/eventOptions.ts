// Reads the `event` and `events` options of a workflow with events: their shape, the turn each
// `during`/`after` names, and awf's default ids, refusing an id given twice.

import { checkAnswer } from "../workflow/answerCheck.ts";
import { startEventRefusal } from "../workflow/engine.ts";
import type { Workflow } from "../workflow/types.ts";
import { describe } from "./entries.ts";
import { START_EVENT_ID, testEventId, type ScriptedEvent } from "./scriptedEvents.ts";
import type { ProblemTrace } from "./trace.ts";

export interface EventOptions {
  startEvent?: { name: string; data: unknown; eventId: string };
  events: ScriptedEvent[];
}

const TURN_REFERENCE = /^(.+)#([1-9]\d*)$/;

// The words of the refusals the editor's static pass can also see; both say them through these.
/** `where`: `events[0]`; `name`: the event's name. */
export const eventNeedsOneTurn = (where: string, name: string): string => `${where} ("${name}") needs one of during or after, such as during: "investigator#1"`;
/** `written`: the value `describe` words. */
export const notATurnReference = (where: string, when: "during" | "after", written: string): string =>
  `${where}'s ${when} must name an agent's turn as "agent#n", not ${written}`;
/** `first`: where the id was given first (`event`, `events[0]`, `earlier.events[0]`); `again`: where it was given again. */
export const eventIdGivenTwice = (id: string, first: string, again: string): string => `event id "${id}" is given twice: ${first} and ${again}`;
/** Whether a `during`/`after` value names an agent's turn as "agent#n". */
export const isTurnReference = (value: unknown): boolean => typeof value === "string" && TURN_REFERENCE.test(value);

const invalid = (option: string, message: string, index?: number): ProblemTrace => ({
  code: "option-invalid",
  option,
  message,
  ...(index !== undefined ? { index } : {}),
});

/** On a continue: the ids earlier events took (they count as given), and that any event the run takes may wake it. */
export interface ContinueEventContext {
  earlierIds: readonly string[];
  continuing: boolean;
}

export function readEventOptions(
  workflow: Workflow<unknown, unknown>,
  event: unknown,
  events: unknown,
  problems: ProblemTrace[],
  context: ContinueEventContext = { earlierIds: [], continuing: false },
): EventOptions {
  const read: EventOptions = { events: [] };
  const ids = new Map<string, string>(context.earlierIds.map((id, index) => [id, `earlier.events[${index}]`]));
  // `index`: the events element that gave the id again, where the editor shows the problem.
  const claim = (id: string, where: string, index?: number) => {
    const earlier = ids.get(id);
    if (earlier) {
      problems.push({ code: "event-id-reused", option: "events", message: eventIdGivenTwice(id, earlier, where), ...(index !== undefined ? { index } : {}) });
    } else ids.set(id, where);
  };
  // A default is the test's, not the user's: on a continue it skips the ids the earlier attempt
  // holds (a parked test's own awf.start), taking `<default>.2`, `.3`, … instead.
  const earlierIds = new Set(context.earlierIds);
  const defaultId = (base: string): string => {
    if (!earlierIds.has(base)) return base;
    let next = 2;
    while (earlierIds.has(`${base}.${next}`)) next++;
    return `${base}.${next}`;
  };
  if (event !== undefined) {
    const given = event as { name?: unknown; data?: unknown; eventId?: unknown };
    if (typeof given !== "object" || given === null || typeof given.name !== "string") {
      problems.push(invalid("event", `testWorkflow's "event" must be { name, data, eventId? }, not ${describe(event)}`));
    } else if (given.eventId !== undefined && typeof given.eventId !== "string") {
      problems.push(invalid("event", `event's eventId must be a string, not ${describe(given.eventId)}`));
    } else {
      // A continue is woken by any event the workflow declares; only a first attempt's must start it.
      const refusal = context.continuing
        ? given.name in (workflow.events ?? {})
          ? undefined
          : `event "${given.name}" is no event ${workflow.name} declares; it declares ${Object.keys(workflow.events ?? {}).map((name) => `"${name}"`).join(", ") || "none"}`
        : startEventRefusal(workflow, { name: given.name, data: given.data });
      const schema = workflow.events?.[given.name];
      const verdict = schema ? checkAnswer(schema, JSON.stringify(given.data ?? null)) : undefined;
      if (refusal) problems.push({ code: "event-refused", option: "event", message: refusal });
      else if (verdict && !verdict.accepted) {
        problems.push({ code: "event-refused", option: "event", message: `event "${given.name}"'s data does not fit its schema: ${verdict.error}` });
      } else {
        const eventId = (given.eventId as string | undefined) ?? defaultId(START_EVENT_ID);
        claim(eventId, "event");
        read.startEvent = { name: given.name, data: given.data, eventId };
      }
    }
  }
  if (events === undefined) return read;
  if (!Array.isArray(events)) {
    problems.push(invalid("events", `testWorkflow's "events" must be a list of { during | after, name, data }, not ${describe(events)}`));
    return read;
  }
  events.forEach((entry: unknown, position) => {
    const index = position + 1;
    const given = entry as { during?: unknown; after?: unknown; name?: unknown; data?: unknown; eventId?: unknown };
    const where = `events[${position}]`;
    if (typeof given !== "object" || given === null || typeof given.name !== "string") {
      return problems.push(invalid("events", `${where} must be { during | after: "agent#n", name, data, eventId? }, not ${describe(entry)}`, position));
    }
    if ((given.during === undefined) === (given.after === undefined)) {
      return problems.push(invalid("events", eventNeedsOneTurn(where, given.name), position));
    }
    const when = given.during !== undefined ? "during" : "after";
    const reference = given[when];
    const match = typeof reference === "string" ? TURN_REFERENCE.exec(reference) : null;
    if (!match) {
      return problems.push(invalid("events", notATurnReference(where, when, describe(reference)), position));
    }
    if (given.eventId !== undefined && typeof given.eventId !== "string") {
      return problems.push(invalid("events", `${where}'s eventId must be a string, not ${describe(given.eventId)}`, position));
    }
    const eventId = (given.eventId as string | undefined) ?? defaultId(testEventId(index));
    claim(eventId, where, position);
    read.events.push({ index, when, agent: match[1]!, n: Number(match[2]), name: given.name, data: given.data, eventId });
  });
  return read;
}
