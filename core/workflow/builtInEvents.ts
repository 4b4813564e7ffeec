// The schemas of the events the engine itself defines: a participant's `{key}:reply` and awf's
// own `{agent}:ended`. events.ts checks them at run time; eventTypes.ts types their data from them.

import { Type } from "typebox";

/** What a participant's reply event carries. */
export const PARTICIPANT_REPLY = Type.Object({ text: Type.String(), to: Type.Optional(Type.String()) });
/** What awf's own `{agent}:ended` event carries. */
export const AGENT_ENDED = Type.Object({ reason: Type.Optional(Type.String()) });
