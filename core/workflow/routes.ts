// The routes a workflow allows (wf.messages.allow): which end may message which, for what
// purpose. A route is one-way; `between` allows both ways at once.

import { WorkflowRuleError } from "./errors.ts";

/** A pair of ends, one way. */
export interface DirectedPair {
  from: string;
  to: string;
}

const pairKey = (from: string, to: string) => `${from}\u0000${to}`;

export class Routes {
  private readonly purposes = new Map<string, string>();

  /** Whether `from` may message `to`. */
  allows(from: string, to: string): boolean {
    return this.purposes.has(pairKey(from, to));
  }

  purposeOf(from: string, to: string): string | undefined {
    return this.purposes.get(pairKey(from, to));
  }

  /**
   * Opens each pair for `purpose` and returns the pairs that were not open before. A pair open for
   * another purpose rejects the whole call, before anything opens.
   */
  open(pairs: readonly DirectedPair[], purpose: string): DirectedPair[] {
    for (const { from, to } of pairs) {
      const earlier = this.purposes.get(pairKey(from, to));
      if (earlier !== undefined && earlier !== purpose) {
        throw new WorkflowRuleError(`wf.messages.allow: messages from "${from}" to "${to}" are already allowed for "${earlier}"; a route has one purpose`);
      }
    }
    const opened = pairs.filter(({ from, to }) => !this.purposes.has(pairKey(from, to)));
    for (const { from, to } of opened) this.purposes.set(pairKey(from, to), purpose);
    return opened;
  }
}
