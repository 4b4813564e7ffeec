// The events a test sends (`event` and `events`): each while an agent's turn runs (`during`) or
// once it ended and the run waits live (`after`), in the order given, with awf's default ids.

import type { RunControl } from "../workflow/engine.ts";
import type { EventToSend } from "../workflow/events.ts";
import type { TurnOperation } from "../workflow/host.ts";
import type { ProblemTrace } from "./trace.ts";

export interface ScriptedEvent extends EventToSend {
  /** 1-based position in the `events` option. */
  index: number;
  when: "during" | "after";
  agent: string;
  n: number;
  eventId: string;
}

/** What the editor shows of each scripted event. */
export interface EventTrace {
  index: number;
  name: string;
  eventId: string;
  when: "during" | "after";
  agent: string;
  n: number;
  sent: boolean;
  /** ISO time on the run's clock when it was sent. */
  at?: string;
}

export const START_EVENT_ID = "awf.start";
export const testEventId = (index: number) => `awf.test.${index}`;

export class ScriptedEvents {
  private next = 0;
  private control: RunControl | undefined;
  /** Turns that ended, as "agent#n", for `after`. */
  private readonly ended = new Set<string>();
  /** Turns that started, as "agent#n": one that did while an earlier event was still unsent missed its own. */
  private readonly started = new Set<string>();
  readonly traces: EventTrace[];

  constructor(
    private readonly events: readonly ScriptedEvent[],
    private readonly fail: (problem: ProblemTrace) => void,
  ) {
    this.traces = events.map((event) => ({
      index: event.index,
      name: event.name,
      eventId: event.eventId,
      when: event.when,
      agent: event.agent,
      n: event.n,
      sent: false,
    }));
  }

  connect(control: RunControl): void {
    this.control = control;
  }

  /** A turn is starting: send the events due during it, before its script answers. */
  turnStarting(operation: Pick<TurnOperation, "agent" | "n" | "nudge" | "kind">): void {
    // With every event sent (or none given), nothing reads which turns came: most tests, every turn.
    if (operation.nudge || operation.kind !== "turn" || this.next >= this.events.length) return;
    this.started.add(`${operation.agent}#${operation.n}`);
    while (this.events[this.next]?.when === "during" && this.matches(this.events[this.next]!, operation)) this.send();
  }

  turnEnded(operation: Pick<TurnOperation, "agent" | "n">): void {
    if (this.next >= this.events.length) return;
    this.ended.add(`${operation.agent}#${operation.n}`);
  }

  /** The run waits live: send the next `after` event if its turn has ended. True when one was sent. */
  sendAfter(): boolean {
    const event = this.events[this.next];
    if (event?.when !== "after" || !this.ended.has(`${event.agent}#${event.n}`)) return false;
    this.send();
    return true;
  }

  /** Events never sent, once the run is over: each fails the test. */
  unsent(ending: { kind: string }): ProblemTrace[] {
    const ended = ending.kind === "parked" ? "parked" : ending.kind === "completed" ? "returned" : "ended";
    return this.events.slice(this.next).map((event) => {
      // Its turn came, but an event given before it was still unsent then: events go in the order given.
      const turnCame = (event.when === "during" ? this.started : this.ended).has(`${event.agent}#${event.n}`);
      const why =
        event.when === "after" && turnCame && this.next === event.index - 1
          ? `the run ${ended} before it was sent; an after event is sent while the run waits live in a keepAlive window`
          : `agent "${event.agent}" never had turn ${event.n}${turnCame ? " after the events before it were sent" : ""}`;
      return eventProblem("event-never-sent", event, why);
    });
  }

  private matches(event: ScriptedEvent, operation: { agent: string; n: number }): boolean {
    return event.agent === operation.agent && event.n === operation.n;
  }

  private send(): void {
    const event = this.events[this.next++]!;
    const delivery = this.control!.receive({ name: event.name, data: event.data, eventId: event.eventId }, "outside", () => event.eventId);
    const trace = this.traces[event.index - 1]!;
    if (!delivery.ok) return this.fail(eventProblem("event-refused", event, delivery.message));
    trace.sent = true;
    trace.at = delivery.event.at;
  }
}

export function eventProblem(code: ProblemTrace["code"], event: Omit<ScriptedEvent, "eventId" | "data">, why: string): ProblemTrace {
  return {
    code,
    option: "events",
    index: event.index - 1,
    message: `event "${event.name}" (${event.when} ${event.agent}#${event.n}): ${why}`,
    agent: event.agent,
    turn: event.n,
  };
}
