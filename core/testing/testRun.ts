// TestRun: what testWorkflow resolves to, the record of one attempt read back for assertions.

import type { StageRecord } from "../workflow/attempt.ts";
import type { Ending, LogLine } from "../workflow/types.ts";
import { messageOf } from "../workflow/errors.ts";
import type { DecisionCall } from "./scriptedDecisions.ts";
import type { AgentRecord } from "./scriptedHost.ts";
import { quoted } from "./problems.ts";
import type { TestTurn } from "./turn.ts";

export interface TestRunParts<Result> {
  ending: Ending<Result>;
  error?: unknown;
  turns: TestTurn[];
  agents: AgentRecord[];
  decisions: DecisionCall[];
  logs: LogLine[];
  stages: StageRecord[];
}

export class TestRun<Result = unknown> {
  readonly ending: Ending<Result>;
  /** Every turn in the order they started, nudges included. */
  readonly turns: readonly TestTurn[];
  /** Every agent the workflow opened. */
  readonly agents: readonly AgentRecord[];
  /** Each decision as the workflow asked it. */
  readonly decisions: readonly DecisionCall[];
  readonly logs: readonly LogLine[];
  /** Each stage the attempt entered, in order. */
  readonly stages: readonly StageRecord[];
  readonly #error: unknown;

  constructor(parts: TestRunParts<Result>) {
    this.ending = parts.ending;
    this.turns = parts.turns;
    this.agents = parts.agents;
    this.decisions = parts.decisions;
    this.logs = parts.logs;
    this.stages = parts.stages;
    this.#error = parts.error;
  }

  /** What the workflow returned; throws, with the workflow's error as the cause, when it did not return. */
  get value(): Result {
    const ending = this.ending;
    switch (ending.kind) {
      case "completed":
        return ending.value;
      case "failed":
        throw new Error(`the workflow threw: ${this.#error === undefined ? ending.reason : messageOf(this.#error)}`, { cause: this.#error });
      case "stopped":
        throw new Error(`the workflow stopped${ending.stage ? ` in stage ${ending.stage}` : ""}: ${ending.reason}`, { cause: this.#error });
      case "timed-out":
        throw new Error(`the run timed out: ${ending.reason}`, { cause: this.#error });
      case "cancelled":
        throw new Error(`the run was cancelled: ${ending.reason}`, { cause: this.#error });
    }
  }

  /** One agent's turns in order, nudges included; [] for an agent never asked. */
  turnsOf(key: string): TestTurn[] {
    return this.turns.filter((turn) => turn.agent === key);
  }

  /** What an agent was opened with; throws for a key never opened. */
  agentOf(key: string): AgentRecord {
    const agent = this.agents.find((candidate) => candidate.key === key);
    if (agent) return agent;
    const opened = this.agents.length ? quoted(this.agents.map((candidate) => candidate.key)) : "none";
    throw new Error(`no agent "${key}" was opened; opened: ${opened}`);
  }
}
