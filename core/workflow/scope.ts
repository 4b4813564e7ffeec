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

/** One listener of a scope's cancellation, until the scope's signal exists and takes it over. */
interface Follower {
  listener: (reason: CancelReason) => void;
  /** Removes it from the signal, once the signal holds it. */
  off?: () => void;
}

export class Scope {
  // The AbortController is made the first time something asks for `signal`. Most scopes (a turn's,
  // with a scripted answer) are only asked `cancelReason`; a controller and an abort listener on
  // the parent per turn were a sixth of a 1,000-turn run. Until then the scope keeps its followers
  // itself, in the order they came, and hands them to the signal in that order once it exists, so
  // a cancel calls the same listeners in the same order as a signal did.
  private controller: AbortController | undefined;
  private reason: CancelReason | undefined;
  private followers: Set<Follower> | undefined;
  private unfollowParent: (() => void) | undefined;
  private stopTimer: (() => void) | undefined;
  /** Absolute deadline on the deadline clock, the earliest of this scope's and its parents'. */
  readonly deadlineAt: number | undefined;

  constructor(
    readonly parent: Scope | undefined,
    private readonly clock: Clock,
    options: { deadlineAt?: number; stage?: string } = {},
  ) {
    this.ownStage = options.stage;
    const parentDeadline = parent?.deadlineAt;
    this.deadlineAt = options.deadlineAt === undefined ? parentDeadline : Math.min(options.deadlineAt, parentDeadline ?? Infinity);
    if (parent) {
      if (parent.reason) this.reason = parent.reason;
      else this.unfollowParent = parent.onCancel((reason) => this.cancel(reason));
    }
    if (options.deadlineAt !== undefined && !this.reason) {
      this.stopTimer = clock.setTimer(options.deadlineAt - clock.now(), () => this.cancel(new CancelReason("timed-out", "the deadline passed")));
    }
  }

  private readonly ownStage: string | undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      // A fan-out's items all follow one group scope: more than ten listeners is the design, not a leak.
      setMaxListeners(0, controller.signal);
      // Cancelled already (perhaps while its followers are being called): the signal is born aborted.
      if (this.reason) controller.abort(this.reason);
      else if (this.followers) {
        for (const follower of this.followers) this.listenOnSignal(controller.signal, follower);
        this.followers = undefined;
      }
    }
    return this.controller.signal;
  }

  get cancelReason(): CancelReason | undefined {
    return this.reason;
  }

  /** The stage this scope runs in, if any. */
  get stage(): string | undefined {
    return this.ownStage ?? this.parent?.stage;
  }

  child(options: { deadlineAt?: number; stage?: string } = {}): Scope {
    return new Scope(this, this.clock, options);
  }

  /**
   * Calls `listener` once when the scope is cancelled, as an abort listener on `signal` would,
   * without making the signal; returns what stops it. Nothing is called on a scope already cancelled.
   */
  onCancel(listener: (reason: CancelReason) => void): () => void {
    if (this.reason) return () => {};
    const follower: Follower = { listener };
    if (this.controller) this.listenOnSignal(this.controller.signal, follower);
    else (this.followers ??= new Set()).add(follower);
    return () => {
      if (follower.off) follower.off();
      else this.followers?.delete(follower);
    };
  }

  private listenOnSignal(signal: AbortSignal, follower: Follower): void {
    const onAbort = () => follower.listener(signal.reason as CancelReason);
    signal.addEventListener("abort", onAbort, { once: true });
    follower.off = () => signal.removeEventListener("abort", onAbort);
  }

  cancel(reason: CancelReason): void {
    if (this.reason) return;
    this.reason = reason;
    if (this.controller) this.controller.abort(reason);
    else if (this.followers) {
      // As a signal's dispatch: one removed while others run is skipped, each is called once.
      const followers = this.followers;
      for (const follower of followers) {
        followers.delete(follower);
        follower.listener(reason);
      }
      this.followers = undefined;
    }
    this.dispose();
  }

  /** Stops following the parent and drops the deadline timer. */
  dispose(): void {
    const unfollow = this.unfollowParent;
    const stopTimer = this.stopTimer;
    this.unfollowParent = undefined;
    this.stopTimer = undefined;
    unfollow?.();
    stopTimer?.();
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
