// How a noAnswer entry ends an operation, the same for a turn, a compaction or a wake: each kind
// is what the engine would hear from a real harness. `interrupted` is left to the caller (undefined),
// whose rule differs: only the calling session's turn can be interrupted.

import type { HostEnd, TurnOperation } from "../workflow/host.ts";
import { loginFailure } from "../workflow/runtimes.ts";
import type { NoAnswer } from "./entries.ts";

export function noAnswerEnd(operation: TurnOperation, entry: NoAnswer, noun: string): Promise<HostEnd> | HostEnd | undefined {
  switch (entry.kind) {
    case "silent":
      return { kind: "silent" };
    case "blocked":
      return { kind: "blocked", reason: entry.reason ?? "waiting on a permission prompt" };
    case "failed":
      return { kind: "failed", reason: entry.reason ?? "harness crashed" };
    case "timed-out":
      return { kind: "timed-out", reason: entry.reason ?? "turn timed out" };
    case "needs-login":
      return { kind: "failed", ...loginFailure(operation.execution.harness, entry.provider) };
    case "hang":
      // Held until the engine cancels it: a deadline, a failing sibling, or the attempt's end.
      return new Promise((resolve) => {
        const end = () => resolve({ kind: "cancelled", reason: `the engine cancelled the ${noun}` });
        if (operation.signal.aborted) end();
        else operation.signal.addEventListener("abort", end, { once: true });
      });
    case "interrupted":
      return undefined;
  }
}
