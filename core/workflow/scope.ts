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

/**
 * One listener of a scope's cancellation, until the scope's signal exists and takes it over. The
 * scope keeps them in a list of their own links (a child scope is one itself): a Set of them was
 * a table made, grown and shrunk for every turn's scope.
 */
abstract class Follower {
  /** Its neighbours while it is in a scope's list. */
  previousFollower: Follower | undefined;
  nextFollower: Follower | undefined;
  /** The scope whose list holds it, while one does. */
  followed: Scope | undefined;
  /** Removes it from the signal, once the signal holds it. */
  offSignal: (() => void) | undefined;
  abstract cancelled(reason: CancelReason): void;

  /** Stops following: out of the list, or off the signal that took it over. */
  unfollow(): void {
    if (this.offSignal) {
      const off = this.offSignal;
      this.offSignal = undefined;
      off();
    } else this.followed?.unlink(this);
  }
}

/** A listener given to `onCancel`. */
class ListenerFollower extends Follower {
  constructor(private readonly listener: (reason: CancelReason) => void) {
    super();
  }
  cancelled(reason: CancelReason): void {
    this.listener(reason);
  }
}

const NO_OPTIONS: { deadlineAt?: number; stage?: string } = {};
const NOTHING_TO_STOP = () => {};

export class Scope extends Follower {
  // The AbortController is made the first time something asks for `signal`. Most scopes (a turn's,
  // with a scripted answer) are only asked `cancelReason`; a controller and an abort listener on
  // the parent per turn were a sixth of a 1,000-turn run. Until then the scope keeps its followers
  // itself, in the order they came, and hands them to the signal in that order once it exists, so
  // a cancel calls the same listeners in the same order as a signal did.
  private controller: AbortController | undefined;
  private reason: CancelReason | undefined;
  private firstFollower: Follower | undefined;
  private lastFollower: Follower | undefined;
  private stopTimer: (() => void) | undefined;
  /** Absolute deadline on the deadline clock, the earliest of this scope's and its parents'. */
  readonly deadlineAt: number | undefined;

  constructor(
    readonly parent: Scope | undefined,
    private readonly clock: Clock,
    options: { deadlineAt?: number; stage?: string } = NO_OPTIONS,
  ) {
    super();
    this.ownStage = options.stage;
    const parentDeadline = parent?.deadlineAt;
    this.deadlineAt = options.deadlineAt === undefined ? parentDeadline : Math.min(options.deadlineAt, parentDeadline ?? Infinity);
    if (parent) {
      // A child follows its parent as one of its followers: cancelling the parent cancels it.
      if (parent.reason) this.reason = parent.reason;
      else parent.follow(this);
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
      else {
        let follower = this.firstFollower;
        this.firstFollower = this.lastFollower = undefined;
        while (follower) {
          const next = follower.nextFollower;
          follower.previousFollower = follower.nextFollower = follower.followed = undefined;
          this.listenOnSignal(controller.signal, follower);
          follower = next;
        }
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

  child(options?: { deadlineAt?: number; stage?: string }): Scope {
    return new Scope(this, this.clock, options);
  }

  /**
   * Calls `listener` once when the scope is cancelled, as an abort listener on `signal` would,
   * without making the signal; returns what stops it. Nothing is called on a scope already cancelled.
   */
  onCancel(listener: (reason: CancelReason) => void): () => void {
    if (this.reason) return NOTHING_TO_STOP;
    const follower = new ListenerFollower(listener);
    this.follow(follower);
    return () => follower.unfollow();
  }

  /** Adds `follower` last, on the signal if there is one. */
  private follow(follower: Follower): void {
    if (this.controller) {
      this.listenOnSignal(this.controller.signal, follower);
      return;
    }
    follower.followed = this;
    follower.previousFollower = this.lastFollower;
    if (this.lastFollower) this.lastFollower.nextFollower = follower;
    else this.firstFollower = follower;
    this.lastFollower = follower;
  }

  /** @internal Takes `follower` out of this scope's list. */
  unlink(follower: Follower): void {
    const { previousFollower: previous, nextFollower: next } = follower;
    if (previous) previous.nextFollower = next;
    else this.firstFollower = next;
    if (next) next.previousFollower = previous;
    else this.lastFollower = previous;
    follower.previousFollower = follower.nextFollower = follower.followed = undefined;
  }

  private listenOnSignal(signal: AbortSignal, follower: Follower): void {
    const onAbort = () => follower.cancelled(signal.reason as CancelReason);
    signal.addEventListener("abort", onAbort, { once: true });
    follower.offSignal = () => signal.removeEventListener("abort", onAbort);
  }

  /** As a follower of its parent: the parent was cancelled. */
  cancelled(reason: CancelReason): void {
    this.cancel(reason);
  }

  cancel(reason: CancelReason): void {
    if (this.reason) return;
    this.reason = reason;
    if (this.controller) this.controller.abort(reason);
    else {
      // As a signal's dispatch: one removed while others run is skipped, each is called once, and
      // none joins (onCancel adds nothing to a cancelled scope).
      for (let follower = this.firstFollower; follower; follower = this.firstFollower) {
        this.unlink(follower);
        follower.cancelled(reason);
      }
    }
    this.dispose();
  }

  /** Stops following the parent and drops the deadline timer. */
  dispose(): void {
    const stopTimer = this.stopTimer;
    this.stopTimer = undefined;
    this.unfollow();
    stopTimer?.();
  }
}

const currentScope = new AsyncLocalStorage<Scope>();

export function inScope<T>(scope: Scope, work: () => T): T {
  // A run's root needs no store where there is none: scopeOr reads "none" as the root. Entering the
  // storage turns on Node 20's promise hooks for the whole process (every later promise pays them,
  // ~7% of a 1,000-turn run), so a run that never enters a stage, a parallel item or a tool's scope
  // never turns them on.
  if (scope.parent === undefined && currentScope.getStore() === undefined) return work();
  return currentScope.run(scope, work);
}

/** The scope the caller runs in, when it belongs to the run whose root is `root`; else `root`. */
export function scopeOr(root: Scope): Scope {
  const found = currentScope.getStore();
  for (let scope = found; scope; scope = scope.parent) if (scope === root) return found!;
  return root;
}
