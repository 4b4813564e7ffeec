// TestRun: what testWorkflow resolves to, the record of one attempt read back for assertions.

import type { InLine, RunLine, StageRecord } from "../workflow/runLines.ts";
import type { EmitRecord, Ending, LogLine, TimerRecord } from "../workflow/types.ts";
import { messageOf } from "../workflow/errors.ts";
import type { DecisionCall } from "./scriptedDecisions.ts";
import type { AgentRecord, SetRecord } from "./scriptedHost.ts";
import type { CompactionRecord } from "./scriptedCompactions.ts";
import { quoted } from "./problems.ts";
import { firstUserFrame } from "./callSite.ts";
import type { TestTurn } from "./turn.ts";
import type { MessageEndState, MessageRecord } from "../workflow/messageTypes.ts";
import type { SandboxRecord } from "../workflow/sandboxTypes.ts";

/** A message an agent or participant was sent, as `run.messagesOf(key)` reads it back. */
export interface TestMessage {
  from: string;
  text: string;
  awaitReply: boolean;
  /** `replied`, `failed`, `delivered` (recorded, not answered), `undelivered` (never shown) or `pending`. */
  end: MessageEndState;
  /** Why it failed or went undelivered: `timeout`, `attempt-ended`, `no-reply`, `stopped`, … */
  reason?: string;
}

export interface TestRunParts<Result> {
  ending: Ending<Result>;
  error?: unknown;
  turns: TestTurn[];
  agents: AgentRecord[];
  compactions?: CompactionRecord[];
  sets?: SetRecord[];
  decisions: DecisionCall[];
  logs: LogLine[];
  stages: StageRecord[];
  timers: TimerRecord[];
  events: InLine[];
  emits: EmitRecord[];
  runLines: RunLine[];
  /** Every message of the run, as the engine's bus kept it. */
  messages?: MessageRecord[];
  /** Every sandbox opened, as the fake provider was told of it. */
  sandboxes?: SandboxRecord[];
}

export class TestRun<Result = unknown> {
  readonly ending: Ending<Result>;
  /** Every turn in the order they started, nudges included. */
  readonly turns: readonly TestTurn[];
  /** Every agent the workflow opened. */
  readonly agents: readonly AgentRecord[];
  /** Every sandbox opened, in order: `{ key, provider, spec, domains, agents }`. */
  readonly sandboxes: readonly SandboxRecord[];
  /** Every compaction in the order they started: `{ agent, n, id, focus, outcome }`. */
  readonly compactions: readonly CompactionRecord[];
  /** Every model or effort switch in order: `{ agent, n, model, effort? }`, the settings after it. */
  readonly sets: readonly SetRecord[];
  /** Each decision as the workflow asked it. */
  readonly decisions: readonly DecisionCall[];
  readonly logs: readonly LogLine[];
  /** Each stage the attempt entered, in order. */
  readonly stages: readonly StageRecord[];
  /** Each timer the run's waits set on its clock, with its due time and how it ended. */
  readonly timers: readonly TimerRecord[];
  /** The events the run was sent: its in.jsonl as it left it. */
  readonly events: readonly InLine[];
  /** Every event it sent another workflow's run; a test delivers none. */
  readonly emits: readonly EmitRecord[];
  /** The run's run.jsonl as it left it: what it settled, in order (docs/data.md). */
  readonly run: readonly RunLine[];
  readonly #error: unknown;
  readonly #messages: readonly MessageRecord[];

  constructor(parts: TestRunParts<Result>) {
    this.timers = parts.timers;
    this.events = parts.events;
    this.emits = parts.emits;
    this.run = parts.runLines;
    this.ending = parts.ending;
    this.turns = parts.turns;
    this.agents = parts.agents;
    this.sandboxes = parts.sandboxes ?? [];
    this.compactions = parts.compactions ?? [];
    this.sets = parts.sets ?? [];
    this.decisions = parts.decisions;
    this.logs = parts.logs;
    this.stages = parts.stages;
    this.#error = parts.error;
    this.#messages = parts.messages ?? [];
  }

  /** What the workflow returned; throws, with the workflow's error as the cause, when it did not return. */
  get value(): Result {
    const ending = this.ending;
    switch (ending.kind) {
      case "completed":
        return ending.value;
      case "failed":
        throw withThrowSite(new Error(`the workflow threw: ${this.#error === undefined ? ending.reason : messageOf(this.#error)}`, { cause: this.#error }), this.#error);
      case "stopped":
        throw new Error(`the workflow stopped${ending.stage ? ` in stage ${ending.stage}` : ""}: ${ending.reason}`, { cause: this.#error });
      case "timed-out":
        throw new Error(`the run timed out: ${ending.reason}`, { cause: this.#error });
      case "cancelled":
        throw new Error(`the run was cancelled: ${ending.reason}`, { cause: this.#error });
      case "parked":
        throw new Error(`the run parked, ${ending.label}${ending.until !== undefined ? ` until ${ending.until}` : ""}: it returns nothing until a continue`);
      default:
        return ending satisfies never;
    }
  }

  /**
   * One agent's turns in order, nudges included; [] for an agent opened and never asked. Throws,
   * as agentOf does, for a key no agent was opened under: a misspelt key would otherwise pass an
   * `every(...)` check on its empty list.
   */
  turnsOf(key: string): TestTurn[] {
    this.agentOf(key);
    return this.turns.filter((turn) => turn.agent === key);
  }

  /** One agent's compactions in order; [] for an agent never compacted; throws for a key never opened, as turnsOf does. */
  compactionsOf(key: string): CompactionRecord[] {
    this.agentOf(key);
    return this.compactions.filter((compaction) => compaction.agent === key);
  }

  /** One agent's model or effort switches in order; [] for an agent never switched; throws for a key never opened, as turnsOf does. */
  setsOf(key: string): SetRecord[] {
    this.agentOf(key);
    return this.sets.filter((set) => set.agent === key);
  }

  /** The messages an agent or participant was sent, in order, and how each ended; [] for one sent none. */
  messagesOf(key: string): TestMessage[] {
    return this.#messages
      .filter((message) => message.to === key)
      .map(({ from, text, awaitReply, end, reason }) => ({ from, text, awaitReply, end, ...(reason !== undefined ? { reason } : {}) }));
  }

  /** What an agent was opened with; throws for a key never opened. */
  agentOf(key: string): AgentRecord {
    const agent = this.agents.find((candidate) => candidate.key === key);
    if (agent) return agent;
    const opened = this.agents.length ? quoted(this.agents.map((candidate) => candidate.key)) : "none";
    throw new Error(`no agent "${key}" was opened; opened: ${opened}`);
  }
}

/**
 * The error `run.value` throws, with the line the workflow threw on (a call that refused its
 * options, or the workflow's own throw) as a frame of its stack, after the test's own: where the
 * test read the value stays its place, and the workflow's line is shown beneath it.
 */
function withThrowSite(error: Error, thrown: unknown): Error {
  const site = thrown instanceof Error ? firstUserFrame(thrown) : undefined;
  if (site && typeof error.stack === "string") error.stack = `${error.stack}\n    at the workflow (${site.file}:${site.line}:${site.column})`;
  return error;
}
