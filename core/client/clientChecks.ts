// The checks a Client call passes before it touches any run: the workflow, the run id, the args,
// the event's name and data. They need no files, so the real client and fakeClient run the same
// ones and throw the same ClientError.

import { checkAnswer } from "../workflow/answerCheck.ts";
import { isWorkflow } from "../workflow/define.ts";
import { whyNotJson, type JsonValue } from "../workflow/json.ts";
import { nearestOr } from "../workflow/unknownOptions.ts";
import { ClientError } from "./clientError.ts";
import type { AnyWorkflow } from "./types.ts";

const RUN_ID = /^[A-Za-z0-9._-]+$/;

export interface CheckedStart {
  workflow: AnyWorkflow;
  id: string;
  args: JsonValue;
}

export interface CheckedEvent {
  workflow: AnyWorkflow;
  id: string;
  name: string;
  data: JsonValue;
  eventId?: string;
  /** Whether the event may start a run (the workflow's `starts` names it). */
  mayStart: boolean;
}

export interface CheckedReply extends CheckedEvent {
  participant: string;
  text: string;
  to?: string;
}

export interface CheckedInbox {
  participant?: string;
  workflow?: AnyWorkflow;
  id?: string;
}

/** A run as `rests` and messages name it: "<workflow>/<id>". */
export function runKey(workflow: AnyWorkflow, id: string): string {
  return `${workflow.name}/${id}`;
}

/** Whether a workflow takes events at all: it declares at least one. */
export function takesEvents(workflow: AnyWorkflow): boolean {
  return workflow.events !== undefined && Object.keys(workflow.events).length > 0;
}

/** A wrong value as a message shows it. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "function") return "a function";
  return String(value);
}

function fieldsOf(what: string, call: unknown): Record<string, unknown> {
  if (typeof call !== "object" || call === null || Array.isArray(call)) {
    throw new ClientError("bad-call", `${what} takes an object, not ${shown(call)}`);
  }
  return call as Record<string, unknown>;
}

function workflowOf(what: string, fields: Record<string, unknown>): AnyWorkflow {
  if (!isWorkflow(fields.workflow)) {
    throw new ClientError("not-a-workflow", `${what}: workflow must be what defineWorkflow made, not ${shown(fields.workflow)}`);
  }
  return fields.workflow as AnyWorkflow;
}

function checkId(what: string, id: unknown, from = "id"): string {
  if (typeof id !== "string" || !RUN_ID.test(id) || id === "." || id === "..") {
    throw new ClientError("bad-id", `${what}: ${from} must be a run id (letters, digits, '.', '_' and '-'), not ${shown(id)}`);
  }
  return id;
}

/** The run a call names; `what` is how messages name the call, such as "emit to release/v1". */
function runOf(call: string, phrase: string, fields: Record<string, unknown>): { workflow: AnyWorkflow; id: string; what: string } {
  const workflow = workflowOf(call, fields);
  const what = `${phrase} ${workflow.name}/${typeof fields.id === "string" ? fields.id : "?"}`;
  return { workflow, id: checkId(what, fields.id), what };
}

function optionalString(what: string, fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new ClientError("bad-call", `${what}: ${name} must be a non-empty string, not ${shown(value)}`);
  return value;
}

function jsonData(what: string, name: string, data: unknown): JsonValue {
  const value = data === undefined ? null : data;
  const why = whyNotJson(value);
  if (why) throw new ClientError("bad-data", `${what}: event "${name}"'s data is not JSON: ${why}`);
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

function fitSchema(what: string, workflow: AnyWorkflow, name: string, data: JsonValue): void {
  const schema = workflow.events?.[name];
  if (!schema) return;
  const verdict = checkAnswer(schema, JSON.stringify(data));
  if (!verdict.accepted) throw new ClientError("bad-data", `${what}: event "${name}"'s data does not fit its schema: ${verdict.error}`);
}

/** Checks a start and names its run: the id given, else the workflow's `id(args)`, else `makeId()`. */
export function checkStart(call: unknown, makeId: () => string): CheckedStart {
  const fields = fieldsOf("start", call);
  const workflow = workflowOf("start", fields);
  const what = `start ${workflow.name}`;
  const args = fields.args === undefined ? null : fields.args;
  const why = whyNotJson(args);
  if (why) throw new ClientError("bad-args", `${what}: its args are not JSON: ${why}`);
  if (fields.id !== undefined) return { workflow, id: checkId(what, fields.id), args: args as JsonValue };
  if (typeof workflow.id === "function") {
    let named: unknown;
    try {
      named = workflow.id(args);
    } catch (error) {
      throw new ClientError("bad-args", `${what}: its id(args) threw: ${(error as Error)?.message ?? String(error)}`);
    }
    return { workflow, id: checkId(what, named, "what its id(args) gave"), args: args as JsonValue };
  }
  return { workflow, id: makeId(), args: args as JsonValue };
}

/** Checks an event as `awf emit` does: a name the workflow declares, and data its schema takes. */
export function checkEmit(call: unknown): CheckedEvent {
  const fields = fieldsOf("emit", call);
  const { workflow, id, what } = runOf("emit", "emit to", fields);
  if (typeof fields.name !== "string" || fields.name === "") throw new ClientError("bad-call", `${what}: name must be an event name, not ${shown(fields.name)}`);
  const name = fields.name;
  const declared = Object.keys(workflow.events ?? {});
  if (!declared.includes(name)) {
    const colon = name.lastIndexOf(":");
    if (colon > 0 && name.slice(colon + 1) === "ended") {
      throw new ClientError("engine-only", `${what}: "${name}" is awf's own event, sent when agent "${name.slice(0, colon)}" ends; nobody else sends it`);
    }
    if (declared.length === 0) throw new ClientError("no-events", `${what}: workflow "${workflow.name}" declares no events`);
    throw new ClientError(
      "undeclared-event",
      `${what}: workflow "${workflow.name}" declares no event "${name}"; ${nearestOr(name, declared, `it takes ${declared.map((known) => `"${known}"`).join(", ")}`)}`,
    );
  }
  const data = jsonData(what, name, fields.data);
  fitSchema(what, workflow, name, data);
  const eventId = optionalString(what, fields, "eventId");
  return { workflow, id, name, data, ...(eventId !== undefined ? { eventId } : {}), mayStart: (workflow.starts ?? []).includes(name) };
}

export function checkWait(call: unknown): { workflow: AnyWorkflow; id: string } {
  const { workflow, id } = runOf("wait", "wait on", fieldsOf("wait", call));
  return { workflow, id };
}

/** Checks a reply and makes the event it sends, `{participant}:reply` with `{ text, to? }`. */
export function checkReply(call: unknown): CheckedReply {
  const fields = fieldsOf("reply", call);
  const { workflow, id, what } = runOf("reply", "reply to", fields);
  if (typeof fields.participant !== "string" || !/^[A-Za-z0-9._-]+$/.test(fields.participant)) {
    throw new ClientError("bad-call", `${what}: participant must be a participant's key, not ${shown(fields.participant)}`);
  }
  if (typeof fields.text !== "string") throw new ClientError("bad-call", `${what}: text must be a string, not ${shown(fields.text)}`);
  const to = optionalString(what, fields, "to");
  const eventId = optionalString(what, fields, "eventId");
  const name = `${fields.participant}:reply`;
  const data: JsonValue = to === undefined ? { text: fields.text } : { text: fields.text, to };
  fitSchema(what, workflow, name, data);
  return {
    workflow,
    id,
    name,
    data,
    ...(eventId !== undefined ? { eventId } : {}),
    mayStart: false,
    participant: fields.participant,
    text: fields.text,
    ...(to !== undefined ? { to } : {}),
  };
}

export function checkInbox(call: unknown): CheckedInbox {
  if (call === undefined) return {};
  const fields = fieldsOf("inbox", call);
  const checked: CheckedInbox = {};
  const participant = optionalString("inbox", fields, "participant");
  if (participant !== undefined) checked.participant = participant;
  if (fields.workflow !== undefined) checked.workflow = workflowOf("inbox", fields);
  if (fields.id !== undefined) {
    if (!checked.workflow) throw new ClientError("bad-call", `inbox: an id needs its workflow`);
    checked.id = checkId(`inbox of ${checked.workflow.name}`, fields.id);
  }
  return checked;
}
