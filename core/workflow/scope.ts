// Cancellation scopes: the run, each stage and each parallel item is a scope; cancelling one
// cancels everything inside it. The current scope follows the async call chain.

import { AsyncLocalStorage } from "node:async_hooks";
import { setMaxListeners } from "node:events";
import type { Clock } from "./clock.ts";

/** Why a scope ended early; it is the `reason` of the scope's AbortSignal. */
export class CancelReason {
  constructor(
    readonly kind: "cancelled" | "timed-out",
    readonly reason: string,
  ) {}
  toString() {
    return this.reason;
  }
}

export class Scope {
  private readonly controller = new AbortController();
  private readonly disposers: Array<() => void> = [];
  /** Absolute deadline on the deadline clock, the earliest of this scope's and its parents'. */
  readonly deadlineAt: number | undefined;

  constructor(
    readonly parent: Scope | undefined,
    private readonly clock: Clock,
    options: { deadlineAt?: number; stage?: string } = {},
  ) {
    this.ownStage = options.stage;
    // A fan-out's items all follow one group scope: more than ten listeners is the design, not a leak.
    setMaxListeners(0, this.controller.signal);
    const parentDeadline = parent?.deadlineAt;
    this.deadlineAt = options.deadlineAt === undefined ? parentDeadline : Math.min(options.deadlineAt, parentDeadline ?? Infinity);
    if (parent) {
      if (parent.signal.aborted) this.controller.abort(parent.signal.reason);
      else {
        const follow = () => this.cancel(parent.signal.reason as CancelReason);
        parent.signal.addEventListener("abort", follow, { once: true });
        this.disposers.push(() => parent.signal.removeEventListener("abort", follow));
      }
    }
    if (options.deadlineAt !== undefined && !this.signal.aborted) {
      this.disposers.push(clock.setTimer(options.deadlineAt - clock.now(), () => this.cancel(new CancelReason("timed-out", "the deadline passed"))));
    }
  }

  private readonly ownStage: string | undefined;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get cancelReason(): CancelReason | undefined {
    return this.signal.aborted ? (this.signal.reason as CancelReason) : undefined;
  }

  /** The stage this scope runs in, if any. */
  get stage(): string | undefined {
    return this.ownStage ?? this.parent?.stage;
  }

  child(options: { deadlineAt?: number; stage?: string } = {}): Scope {
    return new Scope(this, this.clock, options);
  }

  cancel(reason: CancelReason): void {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    this.dispose();
  }

  /** Stops following the parent and drops the deadline timer. */
  dispose(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
  }
}

const currentScope = new AsyncLocalStorage<Scope>();

export function inScope<T>(scope: Scope, work: () => T): T {
  return currentScope.run(scope, work);
}

/** The scope the caller runs in, when it belongs to the run whose root is `root`; else `root`. */
export function scopeOr(root: Scope): Scope {
  const found = currentScope.getStore();
  for (let scope = found; scope; scope = scope.parent) if (scope === root) return found!;
  return root;
}
