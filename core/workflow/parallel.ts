// wf.parallel: items at once up to a concurrency, results in item order, fail-fast: the first
// item to throw cancels the others (their turns settle `cancelled`) and parallel rejects with it.

import type { Attempt } from "./attempt.ts";
import { durationToMilliseconds } from "./durations.ts";
import { DeadlineExceededError, messageOf } from "./errors.ts";
import { CancelReason, inScope, scopeOr } from "./scope.ts";
import type { ParallelOptions } from "./types.ts";
import { checkOptions } from "./callOptions.ts";

export async function parallel<Item, Result>(
  attempt: Attempt,
  items: readonly Item[],
  work: (item: Item, index: number) => Promise<Result>,
  options: ParallelOptions = {},
): Promise<Result[]> {
  if (!Array.isArray(items)) throw new TypeError("wf.parallel takes an array of items");
  if (typeof work !== "function") throw new TypeError("wf.parallel takes a function to run for each item");
  checkOptions("wf.parallel", "wf.parallel", options);
  await attempt.unlessAbandoned();
  const deadlineMs = options.deadline === undefined ? undefined : durationToMilliseconds(options.deadline, "parallel's deadline");
  const group = scopeOr(attempt.root).child(deadlineMs === undefined ? {} : { deadlineAt: attempt.clocks.deadline.now() + deadlineMs });
  const limit = Math.max(1, Math.floor(options.concurrency ?? items.length));
  if (items.length === 0) return [];
  return new Promise<Result[]>((resolve, reject) => {
    const results = new Array<Result>(items.length);
    let next = 0;
    let running = 0;
    let finished = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      group.cancel(new CancelReason("cancelled", `a parallel item failed: ${messageOf(error)}`));
      reject(error);
    };
    group.signal.addEventListener(
      "abort",
      () => {
        const reason = group.signal.reason;
        if (settled || !(reason instanceof CancelReason) || reason.kind !== "timed-out") return;
        settled = true;
        // The run's deadline may pass first even when parallel has a later one of its own.
        const runDeadline = attempt.root.cancelReason?.kind === "timed-out";
        reject(new DeadlineExceededError(runDeadline ? "the run's deadline passed" : "parallel's deadline passed", runDeadline));
      },
      { once: true },
    );
    const launch = () => {
      while (!settled && running < limit && next < items.length) {
        const index = next++;
        running++;
        const itemScope = group.child();
        Promise.resolve()
          .then(() => inScope(itemScope, () => work(items[index]!, index)))
          .then((value) => {
            itemScope.dispose();
            results[index] = value;
            running--;
            finished++;
            if (settled) return;
            if (finished === items.length) {
              settled = true;
              group.dispose();
              resolve(results);
            } else launch();
          }, fail);
      }
    };
    launch();
  });
}
