// The one table of what each harness can do, by placement: efforts, compaction, forks, settings
// switches, interrupts, awaiting a reply, and the model API its sessions reach. Every refusal a
// real host makes before an operation is read from it.

import type { Execution, Placement } from "./types.ts";
import { nearestOr } from "./unknownOptions.ts";

/** Per placement: `true` where the harness can, else why it cannot (finishing a sentence). */
type ByPlacement = Readonly<Record<Placement, true | string>>;

export interface HarnessFacts {
  efforts: readonly string[];
  placements: readonly Placement[];
  /** Headless runs of this harness are metered and must say so. */
  headlessNeedsMetered: boolean;
  /** Its own compaction of a session (`agent.compact`). */
  compaction: ByPlacement;
  /** Copying a session into a new agent (`agent.fork`, `wf.agents.forkCaller`), by the fork's placement. */
  fork: ByPlacement;
  /** Switching model or effort inside a session (`agent.set`). */
  switchSettings: ByPlacement;
  /** Whether an operator's interrupt shows as one: only then is a silent calling-session turn nudged. */
  showsInterrupt: boolean;
  /** Blocking inside an operation until a peer replies (`wfa send --await`), by the sender's placement. */
  awaitReply: ByPlacement;
  /** The hosts of the model API its sessions call: a sandbox lets its agents reach them whatever its network says. */
  modelApi: readonly string[];
}

const everywhere: ByPlacement = { pane: true, headless: true };

export const HARNESSES: Readonly<Record<string, HarnessFacts>> = {
  claude: {
    efforts: ["low", "medium", "high", "xhigh", "max"],
    placements: ["pane", "headless"],
    headlessNeedsMetered: true,
    compaction: everywhere,
    fork: everywhere,
    switchSettings: everywhere,
    showsInterrupt: true,
    awaitReply: everywhere,
    modelApi: ["api.anthropic.com"],
  },
  codex: {
    efforts: ["minimal", "low", "medium", "high", "xhigh"],
    placements: ["pane", "headless"],
    headlessNeedsMetered: false,
    compaction: { pane: true, headless: "headless codex runs each turn as `codex exec`, which cannot compact" },
    fork: everywhere,
    switchSettings: everywhere,
    showsInterrupt: true,
    awaitReply: {
      pane: true,
      headless: "headless codex runs each turn as `codex exec`, whose shell commands have a time limit, so `wfa send --await` cannot block until the reply comes",
    },
    modelApi: ["api.openai.com"],
  },
  pi: {
    efforts: ["off", "minimal", "low", "medium", "high"],
    placements: ["pane", "headless"],
    headlessNeedsMetered: false,
    compaction: everywhere,
    fork: { pane: "a forked pi session resumes only headless", headless: true },
    switchSettings: everywhere,
    showsInterrupt: true,
    awaitReply: everywhere,
    // pi calls whichever provider its model is from, which a model's name does not say: all of them.
    modelApi: ["api.anthropic.com", "api.openai.com", "generativelanguage.googleapis.com"],
  },
  cursor: {
    efforts: [],
    placements: ["pane", "headless"],
    headlessNeedsMetered: false,
    compaction: {
      pane: "cursor-agent summarizes its context by itself, with no command to ask for it",
      headless: "cursor-agent summarizes its context by itself, with no command to ask for it",
    },
    fork: { pane: "cursor-agent cannot copy a session", headless: "cursor-agent cannot copy a session" },
    switchSettings: {
      pane: "cursor-agent takes its model when it starts",
      headless: "cursor-agent takes its model when it starts",
    },
    showsInterrupt: false,
    awaitReply: {
      pane: true,
      headless: "headless cursor-agent (`cursor-agent --print`) gives its shell commands a time limit, so `wfa send --await` cannot block until the reply comes",
    },
    modelApi: ["api2.cursor.sh"],
  },
};

export const quoteList = (names: Iterable<string>) => [...names].map((name) => `"${name}"`).join(", ");

export function harnessFacts(harness: string): HarnessFacts | undefined {
  return Object.hasOwn(HARNESSES, harness) ? HARNESSES[harness] : undefined;
}

/** `no harness "x"; known: …` (or the nearest), for a harness the table does not have. */
export function unknownHarness(harness: string): string {
  const known = Object.keys(HARNESSES);
  return `no harness "${harness}"; ${nearestOr(harness, known, `known: ${quoteList(known)}`)}`;
}

/** Why `effort` is refused on `harness`, or undefined when it lists it. */
export function effortRefusal(harness: string, effort: string): string | undefined {
  const facts = harnessFacts(harness);
  if (!facts) return unknownHarness(harness);
  if (facts.efforts.includes(effort)) return undefined;
  const levels = facts.efforts.length ? `its levels are ${facts.efforts.join(", ")}` : "it has no effort levels";
  return `${harness} has no effort "${effort}"; ${levels}`;
}

/** Why an agent running at `execution` cannot compact, or undefined when it can. */
export function compactionRefusal(execution: Execution): string | undefined {
  const can = harnessFacts(execution.harness)?.compaction[execution.placement];
  return can === true ? undefined : `${execution.harness} has no compaction of its own: ${can ?? "it is not a known harness"}`;
}

/** Why an agent running at `execution` cannot switch model or effort, or undefined when it can. */
export function settingsRefusal(execution: Execution): string | undefined {
  const can = harnessFacts(execution.harness)?.switchSettings[execution.placement];
  return can === true ? undefined : `${execution.harness} cannot switch model or effort in a session: ${can ?? "it is not a known harness"}`;
}

/** Why a fork running at `execution` cannot be made, or undefined when it can. */
export function forkRefusal(execution: Execution): string | undefined {
  const can = harnessFacts(execution.harness)?.fork[execution.placement];
  if (can === true) return undefined;
  return `${execution.harness} cannot fork a session into a ${execution.placement}: ${can ?? "it is not a known harness"}`;
}

/** Why an agent running at `execution` cannot await a peer's reply inside an operation, or undefined when it can. */
export function awaitRefusal(execution: Execution): string | undefined {
  const can = harnessFacts(execution.harness)?.awaitReply[execution.placement];
  if (can === true) return undefined;
  return `${execution.harness} cannot await a reply ${execution.placement === "pane" ? "in a pane" : "headless"}: ${can ?? "it is not a known harness"}`;
}

/** The model API hosts a session of `harness` calls; none for a harness the table does not have. */
export function modelApiHosts(harness: string): readonly string[] {
  return harnessFacts(harness)?.modelApi ?? [];
}
