// The agent host of a test: each turn the engine asks is met by the script's entry, and
// answers go through the engine's real result path, so its real validator judges them.

import type { AgentHost, HostEnd, OpenedAgent, TurnOperation } from "../workflow/host.ts";
import { canonicalJson } from "../workflow/json.ts";
import { messageOf } from "../workflow/errors.ts";
import { loginFailure } from "../workflow/runtimes.ts";
import type { Outcome } from "../workflow/types.ts";
import { firstUserFrame } from "./callSite.ts";
import { describe, isAnswer, isNoAnswer, type Entry, type NoAnswer } from "./entries.ts";
import { plural, turnProblem } from "./problems.ts";
import type { ScriptBook } from "./scripts.ts";
import { attachTurnTrace, type ProblemTrace, type SourceSite, type TurnTrace } from "./trace.ts";
import type { TestTurn, Turn } from "./turn.ts";

/** What the host tells the test about: mistakes, and activity for the stall guard. */
export interface HostSignals {
  fail(problem: ProblemTrace): void;
  activity(): void;
}

/** What an agent was opened with, as `run.agentOf(key)` reads it back. */
export interface AgentRecord {
  key: string;
  execution: OpenedAgent["execution"];
  instructions?: string;
  skills?: OpenedAgent["skills"];
}

const never = new Promise<never>(() => {});
const SCHEMA_TEXT_LIMIT = 80;

function renderSchema(schema: unknown): string {
  if (schema === undefined) return "text";
  const json = canonicalJson(schema);
  return json.length > SCHEMA_TEXT_LIMIT ? `${json.slice(0, SCHEMA_TEXT_LIMIT)}…` : json;
}

function notYet(call: string): Promise<never> {
  return Promise.reject(new Error(`${call} is not supported by Turnlens yet: messages arrive in a later version`));
}

export class ScriptedHost implements AgentHost {
  readonly turns: TestTurn[] = [];
  readonly traces: TurnTrace[] = [];
  readonly agents: AgentRecord[] = [];
  readonly inFlight = new Map<number, TurnOperation>();
  private readonly records = new Map<number, { turn: TestTurn; trace: TurnTrace }>();
  private turnsStarted = 0;

  constructor(
    private readonly book: ScriptBook,
    private readonly signals: HostSignals,
    private readonly maxTurns: number,
  ) {}

  opened(agent: OpenedAgent): void {
    this.agents.push({
      key: agent.key,
      execution: { ...agent.execution },
      ...(agent.instructions !== undefined ? { instructions: agent.instructions } : {}),
      ...(agent.skills !== undefined ? { skills: agent.skills } : {}),
    });
  }

  settle(operation: TurnOperation, outcome: Outcome): void {
    this.inFlight.delete(operation.id);
    const record = this.records.get(operation.id);
    if (record) {
      record.turn.outcome = outcome.kind;
      record.trace.outcome = outcome.kind;
      if (outcome.kind !== "answered") record.trace.reason = outcome.reason;
    }
    this.signals.activity();
  }

  async run(operation: TurnOperation): Promise<HostEnd> {
    this.signals.activity();
    this.inFlight.set(operation.id, operation);
    if (!operation.nudge && ++this.turnsStarted > this.maxTurns) {
      this.signals.fail(
        turnProblem("max-turns", operation, `the run started more than ${plural(this.maxTurns, "turn")} (maxTurns)`, {
          option: "maxTurns",
        }),
      );
      return never;
    }
    const { trace } = this.record(operation);
    const found = this.book.find(operation.agent);
    if (!found.found) {
      return this.fail(
        turnProblem(found.code, operation, found.why, {
          option: "agents",
          ...(found.patterns ? { patterns: found.patterns } : {}),
        }),
      );
    }
    const walked = this.book.entryFor(operation.agent, found.slot, found.pattern, operation.n);
    if (!walked) {
      const sites = found.slot.entries.map((entry) => entry.site).filter((site): site is SourceSite => !!site);
      return this.fail(
        turnProblem(
          "list-exhausted",
          operation,
          `its script${found.pattern ? ` ("${found.pattern}")` : ""} has ${plural(found.slot.entries.length, "turn")}`,
          { key: found.slot.key, ...(found.pattern ? { pattern: found.pattern } : {}), index: operation.n - 1, sites, ...(sites.length ? { site: sites[sites.length - 1]! } : {}) },
        ),
      );
    }
    const { entry, index } = walked;
    trace.match = {
      option: "agents",
      key: found.slot.key,
      ...(found.pattern ? { pattern: found.pattern } : {}),
      index,
      nudge: operation.nudge,
      ...(entry.site ? { site: entry.site } : {}),
    };
    const at = { key: found.slot.key, ...(found.pattern ? { pattern: found.pattern } : {}), index, ...(entry.site ? { site: entry.site } : {}) };
    return this.meet(operation, entry, at);
  }

  private async meet(operation: TurnOperation, entry: Entry, at: Partial<ProblemTrace>): Promise<HostEnd> {
    if (isNoAnswer(entry)) return this.noAnswer(operation, entry, at);
    if (!isAnswer(entry)) return this.fail(turnProblem("script-invalid", operation, `its script is not an entry: ${describe(entry)}`, at));
    // The same schema object (the usual case: the test imports the workflow's) needs no comparing.
    if (entry.schema !== operation.schema && canonicalJson(entry.schema ?? null) !== canonicalJson(operation.schema ?? null)) {
      return this.fail(
        turnProblem(
          "schema-mismatch",
          operation,
          `it asks for ${renderSchema(operation.schema)}; its script answers ${renderSchema(entry.schema)}`,
          { ...at, expectedSchema: operation.schema ?? "text", actualSchema: entry.schema ?? "text" },
        ),
      );
    }
    let value: unknown = entry.value;
    if (entry.respond) {
      const aborted = new Promise<"aborted">((resolve) => {
        if (operation.signal.aborted) resolve("aborted");
        operation.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
      });
      try {
        const raced = await Promise.race([Promise.resolve(entry.respond(this.turnFor(operation))).then((given) => ({ given })), aborted]);
        if (raced === "aborted") return { kind: "cancelled", reason: "the engine cancelled the turn" };
        value = raced.given;
      } catch (error) {
        const thrownAt = error instanceof Error ? firstUserFrame(error) : undefined;
        return this.fail(
          turnProblem("script-threw", operation, `its script threw: ${messageOf(error)}`, { ...at, ...(thrownAt ? { thrownAt } : {}) }),
        );
      }
      if (value === undefined) return this.fail(turnProblem("script-returned-nothing", operation, "its script returned nothing", at));
      if (isAnswer(value)) {
        return this.fail(turnProblem("script-returned-entry", operation, "its script returned answer(…); a function returns the value itself", at));
      }
      if (isNoAnswer(value)) return this.noAnswer(operation, value, at);
    }
    let raw: string;
    if (operation.schema === undefined) {
      if (typeof value !== "string") {
        return this.fail(turnProblem("answer-refused", operation, `the turn asks for text; its script answered ${describe(value)}`, at, false));
      }
      raw = value;
    } else {
      try {
        raw = JSON.stringify(value) ?? "undefined";
      } catch (error) {
        return this.fail(turnProblem("answer-refused", operation, `its script's answer is not JSON: ${messageOf(error)}`, at, false));
      }
    }
    const verdict = operation.submit(raw);
    if (!verdict.accepted) {
      if (operation.signal.aborted) return { kind: "cancelled", reason: "the engine cancelled the turn" };
      return this.fail(
        turnProblem("answer-refused", operation, `the schema refused its script's answer: ${verdict.error}`, {
          ...at,
          ...(verdict.path ? { path: verdict.path } : {}),
          expectedSchema: operation.schema,
        }, false),
      );
    }
    const { trace } = this.records.get(operation.id)!;
    trace.answer = verdict.value;
    return { kind: "submitted" };
  }

  private noAnswer(operation: TurnOperation, entry: NoAnswer, at: Partial<ProblemTrace>): Promise<HostEnd> | HostEnd {
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
        return new Promise((resolve) => {
          const end = () => resolve({ kind: "cancelled", reason: "the engine cancelled the turn" });
          if (operation.signal.aborted) end();
          else operation.signal.addEventListener("abort", end, { once: true });
        });
      case "interrupted":
        return this.fail(turnProblem("interrupted-not-caller", operation, "only the calling session can be interrupted by the operator", at, false));
    }
  }

  private fail(problem: ProblemTrace): Promise<never> {
    this.signals.fail(problem);
    return never;
  }

  private record(operation: TurnOperation): { turn: TestTurn; trace: TurnTrace } {
    const optional = {
      ...(operation.schema !== undefined ? { schema: operation.schema } : {}),
      ...(operation.label !== undefined ? { label: operation.label } : {}),
      ...(operation.stage !== undefined ? { stage: operation.stage } : {}),
    };
    const turn: TestTurn = {
      agent: operation.agent,
      n: operation.n,
      nudge: operation.nudge,
      prompt: operation.prompt,
      ...optional,
      cwd: operation.cwd,
      model: operation.execution.model,
      ...(operation.execution.effort !== undefined ? { effort: operation.execution.effort } : {}),
      messages: [],
      outcome: "cancelled",
    };
    const trace: TurnTrace = {
      agent: operation.agent,
      n: operation.n,
      nudge: operation.nudge,
      prompt: operation.prompt,
      ...optional,
      outcome: "cancelled",
    };
    attachTurnTrace(turn, trace);
    this.turns.push(turn);
    this.traces.push(trace);
    this.records.set(operation.id, { turn, trace });
    return { turn, trace };
  }

  private turnFor(operation: TurnOperation): Turn {
    return {
      agent: operation.agent,
      n: operation.n,
      nudge: operation.nudge,
      prompt: operation.prompt,
      ...(operation.schema !== undefined ? { schema: operation.schema } : {}),
      ...(operation.label !== undefined ? { label: operation.label } : {}),
      ...(operation.stage !== undefined ? { stage: operation.stage } : {}),
      cwd: operation.cwd,
      model: operation.execution.model,
      ...(operation.execution.effort !== undefined ? { effort: operation.execution.effort } : {}),
      messages: [],
      signal: operation.signal,
      send: () => notYet("turn.send"),
      reply: () => notYet("turn.reply"),
      tool: () => notYet("turn.tool"),
    };
  }
}
