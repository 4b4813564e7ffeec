// wf.participants.connect: sessions the engine did not start (a coordinator, a person) that
// agents message and that answer through `awf reply` — the `{key}:reply` event — and `awf send`.

import { checkOptions } from "./callOptions.ts";
import type { Attempt } from "./attempt.ts";
import type { EventInbox } from "./events.ts";
import { WorkflowRuleError } from "./errors.ts";
import { whyNotJson } from "./json.ts";
import type { ParticipantRef, ParticipantSpec } from "./messageTypes.ts";

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class Participants {
  private readonly connected = new Map<string, ParticipantRef>();

  constructor(
    private readonly attempt: Attempt & { readonly inbox: EventInbox },
    private readonly isAgent: (key: string) => boolean,
  ) {}

  has(key: string): boolean {
    return this.connected.has(key);
  }

  get keys(): string[] {
    return [...this.connected.keys()];
  }

  async connect(spec: ParticipantSpec): Promise<ParticipantRef> {
    checkOptions("wf.participants.connect", "wf.participants.connect", spec);
    await this.attempt.unlessAbandoned();
    const { key, labels } = spec;
    if (labels !== undefined) {
      const why = typeof labels !== "object" || labels === null || Array.isArray(labels) ? "it is not an object" : whyNotJson(labels);
      if (why) throw new TypeError(`participant "${key}": labels must be a JSON object; ${why}`);
    }
    if (this.isAgent(key)) throw new WorkflowRuleError(`"${key}" is an agent of the run; a participant needs a key of its own`);
    const existing = this.connected.get(key);
    if (existing) {
      if (labels !== undefined && !sameJson(labels, existing.labels)) {
        throw new WorkflowRuleError(`participant "${key}" is already connected with other labels`);
      }
      return existing;
    }
    const ref: ParticipantRef = Object.freeze({ key, ...(labels !== undefined ? { labels: JSON.parse(JSON.stringify(labels)) } : {}) });
    this.connected.set(key, ref);
    // Its answers arrive as `{key}:reply` events, which the run now takes.
    this.attempt.inbox.participants.add(key);
    return ref;
  }
}
