// An attempt with the parts its calls share: the event inbox, the sandboxes and what a continue
// replays. Each part takes only the attempt's state (attempt.ts) and what it names of the others,
// so this module sits above them all and the registry and operations above it.

import { Attempt, type AttemptSettings } from "./attempt.ts";
import { Continuation } from "./continues.ts";
import { EventInbox } from "./events.ts";
import { Sandboxes } from "./sandboxes.ts";

export class AttemptWithParts extends Attempt {
  /** The run's sandboxes (sandboxes.ts). */
  readonly sandboxes: Sandboxes;
  /** What the run was sent (in.jsonl), its event waits and emits (events.ts). */
  readonly inbox: EventInbox;
  /** What a continue reuses and replays; inert on a first attempt. */
  readonly continuation: Continuation;

  constructor(settings: AttemptSettings) {
    super(settings);
    this.sandboxes = new Sandboxes(this);
    this.inbox = new EventInbox(this, settings.declaredEvents ?? {});
    this.continuation = new Continuation(this);
  }
}
