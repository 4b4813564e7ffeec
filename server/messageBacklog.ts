// Knows when the client's messages pile up, so the work an edit causes (its static pass, the
// diagnostics and hints carried to it, a run's start) waits until the messages already sent are
// read, and a burst of edits does that work once for its last version instead of once per message.
// It is the connection's message strategy: vscode-jsonrpc hands it each message it dispatches.
import type { Message } from "vscode-languageserver";
import { MAX_DEFERRED_MESSAGES } from "./limits.ts";

/** The keys of a document's work waiting behind the backlog: its change's, its debounce's end, its run's start. */
export const waitingWork = {
  change: (uri: string) => `change ${uri}`,
  settle: (uri: string) => `settle ${uri}`,
  start: (uri: string) => `start ${uri}`,
};

/**
 * vscode-jsonrpc dispatches one message per turn of the event loop (a `setImmediate` each) while
 * any is queued or still being decoded; so a whole turn in which no message was handled means
 * every message sent so far was. That turn is watched for with `setImmediate` too: the event
 * loop, not the clock (the injected timer is for debounces a user feels; this is no wait).
 */
export class MessageBacklog {
  /** Messages handed to the server's handlers so far. */
  private handled = 0;
  /** Work waiting for the backlog to drain, by key, in the order first deferred. */
  private readonly waiting = new Map<string, { work: () => void; untilIdle: boolean }>();
  /** `handled` when the oldest waiting work was deferred. */
  private waitingSince = 0;
  private probing = false;
  /**
   * Counts the backlogs (spans of messages handled with no idle turn between them): a request may
   * bring its document's waiting work forward once per backlog.
   */
  private backlogs = 0;
  /** A request brought work forward: the look goes on until an idle turn ends this backlog. */
  private broughtSinceIdle = false;
  private readonly broughtForward = new Map<string, number>();
  private settledWaiters: Array<() => void> = [];
  /** Where a deferred work's throw goes (the server's log); a throw never stops the others. */
  reportError: (error: unknown) => void = () => {};

  /** vscode-jsonrpc's MessageStrategy: counts, then dispatches as usual. */
  handleMessage<R>(message: Message, next: (message: Message) => R): R {
    this.handled++;
    return next(message);
  }

  /**
   * Runs `work` once no message waits to be handled; a later `defer` of the same key replaces the
   * work and keeps its place (what an older edit wanted is superseded by the newer one's).
   */
  defer(key: string, work: () => void, untilIdle = false): void {
    if (this.waiting.size === 0) this.waitingSince = this.handled;
    this.waiting.set(key, { work, untilIdle });
    this.probe();
  }

  /** Whether work of `key` waits. */
  isWaiting(key: string): boolean {
    return this.waiting.has(key);
  }

  /** Drops the waiting work of `key`. */
  cancel(key: string): void {
    if (this.waiting.delete(key) && this.waiting.size === 0) this.settle();
  }

  /** Runs the waiting work of `key` now, if any. */
  runNow(key: string): void {
    const waiting = this.waiting.get(key);
    if (!waiting) return;
    this.waiting.delete(key);
    this.run(waiting.work);
    if (this.waiting.size === 0) this.settle();
  }

  /**
   * Runs the waiting work of `key` now for a request about it, unless one did already during this
   * backlog: a request answers from the current text when that costs one pass, and from the last
   * one while a flood goes on. True when nothing of `key` waits (any more).
   */
  bringForward(key: string): boolean {
    if (!this.waiting.has(key)) return true;
    if (this.broughtForward.get(key) === this.backlogs) return false;
    this.broughtForward.set(key, this.backlogs);
    this.runNow(key);
    this.broughtSinceIdle = true;
    this.probe();
    return !this.waiting.has(key);
  }

  /** Resolves once no work waits (tests: what a burst deferred has been done). */
  settled(): Promise<void> {
    return this.waiting.size === 0 ? Promise.resolve() : new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private probe(): void {
    if (this.probing) return;
    this.probing = true;
    // The first look is taken after the current message's dispatch is over (its `finally` queues
    // the next message's turn), the second a whole turn later.
    queueMicrotask(() => setImmediate(() => this.look(this.handled)));
  }

  private look(before: number): void {
    setImmediate(() => {
      if (this.waiting.size === 0 && !this.broughtSinceIdle) {
        this.probing = false;
        return;
      }
      if (this.handled !== before && (this.waiting.size === 0 || this.handled - this.waitingSince < MAX_DEFERRED_MESSAGES)) {
        this.look(this.handled);
        return;
      }
      this.probing = false;
      this.newBacklog();
      if (this.waiting.size > 0) this.drain(this.handled === before);
    });
  }

  /** Runs the waiting work: all of it at an idle turn, past the bound what need not wait for one. */
  private drain(idle: boolean): void {
    // Work may defer more (a change's work deferring a run): that waits for the next look.
    const works: Array<() => void> = [];
    for (const [key, waiting] of this.waiting) {
      if (!idle && waiting.untilIdle) continue;
      works.push(waiting.work);
      this.waiting.delete(key);
    }
    for (const work of works) this.run(work);
    if (this.waiting.size > 0) {
      this.waitingSince = this.handled;
      this.probe();
    } else this.settle();
  }

  private run(work: () => void): void {
    try {
      work();
    } catch (error) {
      this.reportError(error);
    }
  }

  /** An idle turn (or the bound) ended a backlog: the next request may bring its document's work forward again. */
  private newBacklog(): void {
    this.backlogs++;
    this.broughtForward.clear();
    this.broughtSinceIdle = false;
  }

  private settle(): void {
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }
}
