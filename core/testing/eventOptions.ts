// Reads the `event` and `events` options of a workflow with events: their shape, the turn each
// `during`/`after` names, and awf's default ids, refusing an id given twice.

import { checkAnswer } from "../workflow/answerCheck.ts";
import { startEventRefusal } from "../workflow/engine.ts";
import type { Workflow } from "../workflow/types.ts";
import { nearestOr, noSuchOption } from "../workflow/unknownOptions.ts";
import { describe } from "./entries.ts";
import { START_EVENT_ID, testEventId, type ScriptedEvent } from "./scriptedEvents.ts";
import { isCertainlyAbsent, isCertainlyGiven, isNotKnown, isOpaque } from "./notKnown.ts";
import type { ProblemTrace } from "./trace.ts";

export interface EventOptions {
  startEvent?: { name: string; data: unknown; eventId: string };
  events: ScriptedEvent[];
}

const TURN_REFERENCE = /^(.+)#([1-9]\d*)$/;

/**
 * `where`: `events[0]`; `name`: the event's name; `agent`: an agent of the test at hand, for the
 * example (none is made up: without one, the form alone).
 */
const eventNeedsOneTurn = (where: string, name: string, agent: string | undefined): string =>
  `${where} ("${name}") needs one of during or after, ${agent === undefined ? `naming an agent's turn as "agent#n"` : `such as during: "${agent}#1"`}`;

/** What an `events` entry and the `event` take; any other name is refused, with the nearest. */
const EVENTS_ENTRY_KEYS = ["during", "after", "name", "data", "eventId"] as const;
const EVENT_KEYS = ["name", "data", "eventId"] as const;

/** The first name `given` holds that `known` lacks: its refusal, with the nearest name it takes. */
function unknownKey(where: string, given: Record<string, unknown>, known: readonly string[]): string | undefined {
  const name = Object.keys(given).find((key) => !known.includes(key));
  return name === undefined ? undefined : noSuchOption(where, name, known).message;
}

/** An agent the test scripts by key (not by glob), for a refusal's example: the first one written. */
export function scriptedAgentKey(agents: unknown): string | undefined {
  if (typeof agents !== "object" || agents === null || Array.isArray(agents) || isNotKnown(agents)) return undefined;
  return Object.keys(agents).find((key) => !key.includes("*"));
}
/** `written`: the value `describe` words. */
const notATurnReference = (where: string, when: "during" | "after", written: string): string =>
  `${where}'s ${when} must name an agent's turn as "agent#n", not ${written}`;
/** `first`: where the id was given first (`event`, `events[0]`, `earlier.events[0]`); `again`: where it was given again. */
const eventIdGivenTwice = (id: string, first: string, again: string): string => `event id "${id}" is given twice: ${first} and ${again}`;

const invalid = (option: string, message: string, index?: number): ProblemTrace => ({
  code: "option-invalid",
  option,
  message,
  ...(index !== undefined ? { index } : {}),
});

/** On a continue: the ids earlier events took (they count as given), and that any event the run takes may wake it. */
export interface ContinueEventContext {
  /** Undefined before the run when `earlier` may be given: which ids it took is not known. */
  earlierIds: readonly string[] | undefined;
  continuing: boolean;
  /** An agent the test scripts (`scriptedAgentKey`), which a refusal's example names. */
  agent?: string;
  /**
   * Whether an event's shape is refused (not an object, no name, an eventId not a string): the
   * run says so; the editor leaves it to the run, which words the whole value.
   */
  shapes?: boolean;
}

/** What the text cannot tell before the run (notKnown.ts): a name, a call, an eventId from a spread. */
const UNTOLD = Symbol("untold");

/** An event as given: its fields, when it is an object naming its event; "refused" when it certainly is not; UNTOLD. */
function eventShape(value: unknown): { given: Record<string, unknown>; name: string } | "refused" | typeof UNTOLD {
  if (isOpaque(value)) return UNTOLD;
  if (typeof value !== "object" || value === null || isNotKnown(value)) return "refused";
  const given = value as Record<string, unknown>;
  if (typeof given.name === "string") return { given, name: given.name };
  // A name not known, or none where a spread may give one.
  return isNotKnown(given.name) || (given.name === undefined && !isCertainlyAbsent(given, "name")) ? UNTOLD : "refused";
}

/** The event's eventId: the one given, or `defaultId` when none is; "refused" when it is not a string; UNTOLD. */
function eventIdOf(given: Record<string, unknown>, defaultId: () => string): string | { refused: unknown } | typeof UNTOLD {
  if (isCertainlyAbsent(given, "eventId")) return defaultId();
  const eventId = given.eventId;
  if (isNotKnown(eventId) || eventId === undefined) return UNTOLD;
  return typeof eventId === "string" ? eventId : { refused: eventId };
}

/** Whether `during`/`after` is given, certainly absent, or may be either. */
function timeOf(given: Record<string, unknown>, name: "during" | "after"): "given" | "absent" | typeof UNTOLD {
  if (isCertainlyAbsent(given, name)) return "absent";
  return isCertainlyGiven(given, name) ? "given" : UNTOLD;
}

/**
 * Reads `event` and `events`, pushing each refusal. Before the run (the editor's static pass) the
 * workflow is not known (undefined: the starting event counts as accepted) and values may be
 * NotKnown: a claim the text cannot read makes the first giver of any later id unknown, and a
 * spread in `events` ends what can be told (no later element has a known position).
 */
export function readEventOptions(
  workflow: Workflow<unknown, unknown> | undefined,
  event: unknown,
  events: unknown,
  problems: ProblemTrace[],
  context: ContinueEventContext = { earlierIds: [], continuing: false },
): EventOptions {
  const read: EventOptions = { events: [] };
  const shapes = context.shapes ?? true;
  // Where each id was given first; undefined once a claim the text cannot read came before.
  const ids = new Map<string, string | undefined>((context.earlierIds ?? []).map((id, index) => [id, `earlier.events[${index}]`]));
  let untoldBefore = false;
  // `index`: the events element that gave the id again, where the editor shows the problem.
  const claim = (id: string | typeof UNTOLD, where: string, index?: number) => {
    if (id === UNTOLD) {
      untoldBefore = true;
      return;
    }
    if (!ids.has(id)) {
      ids.set(id, untoldBefore ? undefined : where);
      return;
    }
    const first = ids.get(id);
    if (first === undefined || context.earlierIds === undefined) return;
    problems.push({ code: "event-id-reused", option: "events", message: eventIdGivenTwice(id, first, where), ...(index !== undefined ? { index } : {}) });
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
    const shape = eventShape(event);
    const eventId = typeof shape === "object" ? eventIdOf(shape.given, () => defaultId(START_EVENT_ID)) : UNTOLD;
    if (shape === UNTOLD || (typeof shape === "object" && eventId === UNTOLD)) claim(UNTOLD, "event");
    else if (shape === "refused") {
      if (shapes) problems.push(invalid("event", `testWorkflow's "event" must be { name, data, eventId? }, not ${describe(event)}`));
    } else if (typeof shape === "object" && unknownKey("event", shape.given, EVENT_KEYS)) {
      problems.push(invalid("event", unknownKey("event", shape.given, EVENT_KEYS)!));
    } else if (typeof eventId === "object") {
      if (shapes) problems.push(invalid("event", `event's eventId must be a string, not ${describe(eventId.refused)}`));
    } else if (eventId !== UNTOLD) {
      const { given, name } = shape;
      // A continue is woken by any event the workflow declares; only a first attempt's must start it.
      const refusal = !workflow
        ? undefined
        : context.continuing
          ? name in (workflow.events ?? {})
            ? undefined
            : `event "${name}" is no event ${workflow.name} declares; ${nearestOr(
                name,
                Object.keys(workflow.events ?? {}),
                `it declares ${
                  Object.keys(workflow.events ?? {})
                    .map((declared) => `"${declared}"`)
                    .join(", ") || "none"
                }`,
              )}`
          : startEventRefusal(workflow, { name, data: given.data });
      const schema = workflow?.events?.[name];
      const verdict = schema ? checkAnswer(schema, JSON.stringify(given.data ?? null)) : undefined;
      if (refusal) problems.push({ code: "event-refused", option: "event", message: refusal });
      else if (verdict && !verdict.accepted) {
        problems.push({ code: "event-refused", option: "event", message: `event "${name}"'s data does not fit its schema: ${verdict.error}` });
      } else {
        claim(eventId, "event");
        read.startEvent = { name, data: given.data, eventId };
      }
    }
  }
  if (events === undefined || isOpaque(events)) return read;
  if (!Array.isArray(events)) {
    if (shapes) problems.push(invalid("events", `testWorkflow's "events" must be a list of { during | after, name, data }, not ${describe(events)}`));
    return read;
  }
  for (let position = 0; position < events.length; position++) {
    // A hole is skipped; after a spread no element's position is known.
    if (!(position in events)) continue;
    const entry: unknown = events[position];
    if (isNotKnown(entry) && entry.certainly === "items") break;
    const index = position + 1;
    const where = `events[${position}]`;
    const shape = eventShape(entry);
    if (shape === UNTOLD) {
      claim(UNTOLD, where, position);
      continue;
    }
    if (shape === "refused") {
      if (shapes) problems.push(invalid("events", `${where} must be { during | after: "agent#n", name, data, eventId? }, not ${describe(entry)}`, position));
      continue;
    }
    const { given, name } = shape;
    // A misspelt `durring` would read as neither during nor after: refused by its own name first.
    const unknown = unknownKey(where, given, EVENTS_ENTRY_KEYS);
    if (unknown) {
      problems.push(invalid("events", unknown, position));
      continue;
    }
    const during = timeOf(given, "during");
    const after = timeOf(given, "after");
    if (during === UNTOLD || after === UNTOLD) {
      claim(UNTOLD, where, position);
      continue;
    }
    if (during === after) {
      problems.push(invalid("events", eventNeedsOneTurn(where, name, context.agent), position));
      continue;
    }
    const when = during === "given" ? "during" : "after";
    const reference = given[when];
    if (isNotKnown(reference)) {
      claim(UNTOLD, where, position);
      continue;
    }
    const match = typeof reference === "string" ? TURN_REFERENCE.exec(reference) : null;
    if (!match) {
      problems.push(invalid("events", notATurnReference(where, when, describe(reference)), position));
      continue;
    }
    const eventId = eventIdOf(given, () => defaultId(testEventId(index)));
    if (typeof eventId === "object") {
      if (shapes) problems.push(invalid("events", `${where}'s eventId must be a string, not ${describe(eventId.refused)}`, position));
      continue;
    }
    claim(eventId, where, position);
    if (eventId !== UNTOLD) read.events.push({ index, when, agent: match[1]!, n: Number(match[2]), name, data: given.data, eventId });
  }
  return read;
}
