// The `participants` option: whoever answers for a participant (a coordinator, a person) is a
// function, called with each route that opens to it and each message it is sent. It answers
// through the run's own paths (`awf reply --to`, `awf send`), or leaves a question open.

import type { RunControl } from "../workflow/engine.ts";
import { messageOf } from "../workflow/errors.ts";
import { firstLine, whyNotJson } from "../workflow/json.ts";
import type { MessageBus } from "../workflow/messages.ts";
import type { RouteDirection } from "../workflow/messageTypes.ts";
import type { ParticipantHost, ParticipantMessageNotice, ParticipantRouteNotice } from "../workflow/host.ts";
import { firstUserFrame } from "./callSite.ts";
import { describe } from "./entries.ts";
import { isObjectValue, typeOf } from "./notKnown.ts";
import { findSlot, globToRegExp, ScriptError, type ScriptRefusal } from "./scripts.ts";
import type { ParticipantEventTrace, ProblemTrace } from "./trace.ts";

/** What a participant's call comes to: the id of the message it sent, or the code it was refused with. */
export type ParticipantCallResult = { id: string } | { code: string };

/** A route opened to or from the participant. */
export interface ParticipantRouteEvent {
  kind: "route";
  agent: string;
  direction: RouteDirection;
  purpose: string;
  /** Messages that agent first, as `awf send` would. */
  send(text: string): Promise<ParticipantCallResult>;
}

/** A message an agent sent the participant. */
export interface ParticipantMessageEvent {
  kind: "message";
  id: string;
  from: string;
  text: string;
  /** It awaits a reply. */
  asks: boolean;
  /** Answers it, as `awf reply --to <id>` would. */
  reply(text: string): Promise<ParticipantCallResult>;
  /** Messages an agent, as `awf send` would. */
  send(agent: string, text: string): Promise<ParticipantCallResult>;
}

export type ParticipantEvent = ParticipantRouteEvent | ParticipantMessageEvent;

/** Answers as the participant would; returning nothing leaves a question open. */
export type ParticipantScript = (event: ParticipantEvent) => unknown;

export interface ParticipantSlot {
  key: string;
  script: ParticipantScript;
  glob?: RegExp;
}

/** The words for a `participants` script that is not a function. */
const notAParticipantScript = (key: string, written: string): string => `participants[${JSON.stringify(key)}] must be (event) => …, not ${written}`;

/** Every refusal of the `participants` option: the map's, or each key's that is not a function. The run throws the first; the editor shows them all. */
export function participantScriptRefusals(map: unknown): ScriptRefusal[] {
  if (map === undefined) return [];
  const isObject = isObjectValue(map);
  if (isObject === undefined) return [];
  if (!isObject) {
    return [{ problem: { code: "script-invalid", option: "participants", message: `participants must map a participant's key to (event) => …, not ${describe(map)}` } }];
  }
  return Object.entries(map as Record<string, unknown>).flatMap(([key, script]) =>
    // A spread copies no function, so an object a spread may fill is still not one.
    typeOf(script) === undefined || typeof script === "function"
      ? []
      : [{ problem: { code: "script-invalid" as const, option: "participants", key, message: notAParticipantScript(key, describe(script)) } }],
  );
}

/** Checks the `participants` option: each key to a function. */
export function readParticipantScripts(map: unknown): ParticipantSlot[] {
  const [refused] = participantScriptRefusals(map);
  if (refused) throw new ScriptError(refused.problem);
  if (map === undefined) return [];
  return Object.entries(map as Record<string, ParticipantScript>).map(([key, script]) => ({ key, script, ...(key.includes("*") ? { glob: globToRegExp(key) } : {}) }));
}

/** `participant "<k>": <why>. <what reached it>`, with its data. */
export function participantProblem(code: ProblemTrace["code"], participant: string, why: string, reached: string, extra: Partial<ProblemTrace> = {}): ProblemTrace {
  return { code, message: `participant "${participant}": ${why}. ${reached}`, option: "participants", participant, ...extra };
}

const describeRoute = (notice: ParticipantRouteNotice) => `A route opened with "${notice.agent}" (${notice.direction}), for: ${firstLine(notice.purpose)}`;
const describeMessage = (notice: ParticipantMessageNotice) => `It was sent by "${notice.from}": ${firstLine(notice.text)}`;

export class ScriptedParticipants implements ParticipantHost {
  readonly traces: ParticipantEventTrace[] = [];
  private control: RunControl | undefined;

  constructor(
    private readonly slots: readonly ParticipantSlot[],
    private readonly fail: (problem: ProblemTrace) => void,
    private readonly activity: () => void,
  ) {}

  connect(control: RunControl): void {
    this.control = control;
  }

  private get bus(): MessageBus {
    return this.control!.messages;
  }

  routeOpened(notice: ParticipantRouteNotice): void {
    const { participant, agent, direction, purpose } = notice;
    const event: ParticipantRouteEvent = {
      kind: "route",
      agent,
      direction,
      purpose,
      send: async (text) => this.settled(this.bus.participantSend(participant, agent, text)),
    };
    this.call(participant, event, { participant, kind: "route", agent, direction, purpose }, describeRoute(notice));
  }

  messaged(notice: ParticipantMessageNotice): void {
    const { participant, id, from, text, asks } = notice;
    const event: ParticipantMessageEvent = {
      kind: "message",
      id,
      from,
      text,
      asks,
      reply: async (replyText) => this.settled(this.bus.participantReply(participant, id, replyText)),
      send: async (agent, sendText) => this.settled(this.bus.participantSend(participant, agent, sendText)),
    };
    this.call(participant, event, { participant, kind: "message", from, id, text }, describeMessage(notice));
  }

  private settled<T>(result: T): T {
    this.activity();
    return result;
  }

  /** Runs the participant's script as work of the run: the run is not idle while a script works. */
  private call(participant: string, event: ParticipantEvent, trace: ParticipantEventTrace, reached: string): void {
    this.traces.push(trace);
    const found = findSlot(this.slots, participant, "participant");
    if (!found.found) {
      this.fail(
        participantProblem(
          found.code === "glob-conflict" ? "glob-conflict" : "participant-unscripted",
          participant,
          found.why,
          reached,
          found.patterns ? { patterns: found.patterns } : {},
        ),
      );
      return;
    }
    trace.key = found.slot.key;
    const activity = this.control!.attempt.activity;
    const done = activity.busy();
    this.activity();
    Promise.resolve()
      .then(() => found.slot.script(event))
      .then(
        (returned) => {
          if (returned !== undefined && whyNotJson(returned) === undefined) trace.returned = JSON.parse(JSON.stringify(returned));
        },
        (error: unknown) => {
          const thrownAt = error instanceof Error ? firstUserFrame(error) : undefined;
          this.fail(
            participantProblem("participant-script-threw", participant, `its script threw: ${messageOf(error)}`, reached, {
              key: found.slot.key,
              ...(thrownAt ? { thrownAt } : {}),
            }),
          );
        },
      )
      .finally(() => {
        done();
        this.activity();
      });
  }
}
