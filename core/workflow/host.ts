// The edges a run plugs in: the host the engine drives agents through (pane and headless hosts in a
// real run, the scripted host in a test), and the decision, sandbox and participant providers.
// The engine owns nudges, order, deadlines and outcomes.

import type { TSchema } from "typebox";
import type { AnswerVerdict } from "./answerCheck.ts";
import type { Execution, JsonValue, KeepPane, LoginNeeded, Outcome, PaneWorkspace, Skill, Question } from "./types.ts";
import type { AgentMessage, RouteDirection, SendOptions, SendResult, ToolResult } from "./messageTypes.ts";
import type { AgentSandbox, SandboxRef } from "./sandboxTypes.ts";

/**
 * Where workflow code made a call (`agent.run`, `wf.agents.open`, `wf.decide`), as a test's host
 * captured it: opaque to the engine, which only carries it to the host. A real run's host captures
 * nothing, so production pays nothing for it.
 */
export type CallCapture = object;

export interface OpenedAgent {
  key: string;
  /** Where the workflow opened it (`wf.agents.open`, `agent.fork`, `wf.agents.caller`), when the host captures calls. */
  openedAt?: CallCapture;
  execution: Execution;
  instructions?: string;
  /** The skills as given, for the host to install. */
  skills?: Skill[];
  /** Their names (a `{ path }` skill's from its SKILL.md), as the run records them. */
  skillNames?: string[];
  labels?: Record<string, JsonValue>;
  cwd: string;
  /** Where a pane agent's pane goes, as the engine placed it; absent for a headless agent and the calling session. */
  pane?: PanePlacement;
  /** How the run's panes setting applies to it: the workspace its tab opens in, and whether it is kept. */
  panes?: { workspace: PaneWorkspace; keep: KeepPane };
  /** Why its pane could not go where its layout asked (it went to a tab instead). */
  paneFallback?: string;
  /** The session it is a copy of, for a fork. */
  forkedFrom?: ForkedFrom;
  /** The sandbox its host launches it in, and every domain it reaches from there. */
  sandbox?: AgentSandbox;
}

/** A tab of its own, or a split beside another agent's pane; `front` when it opens in the foreground. */
export type PanePlacement = { tab: string; session?: string; front: boolean } | { beside: string; side: "right" | "below"; share?: number; front: boolean };

/** A fork's parent: an agent and its turns when it was copied, or the calling session. */
export type ForkedFrom = { key: string; turns: number } | { caller: true; turns: number };

/**
 * What an operation is: a turn (or its nudge), or a compaction whose `prompt` is its focus and whose
 * `n` counts the agent's compactions. Hosts switch on it; more kinds join the union as they are built.
 * A `message` operation is the engine's own: a message woke an idle agent (`cause`); it keeps the
 * agent's last turn number, its `prompt` is the message's text, and a `nudge` is the one reminder
 * of a reply it still owes (`nudgePrompt`).
 */
export type OperationKind = "turn" | "compact" | "message";

/** One operation on an agent: a turn, the nudge that follows a turn with no answer, or a compaction. */
export interface TurnOperation {
  /** Unique in the run; the engine settles each operation once through `settle`. */
  id: number;
  /** What the operation is; absent reads as "turn". */
  kind?: OperationKind;
  agent: string;
  /** 1-based in the agent's session; a nudge keeps its turn's number. A compaction counts compactions. */
  n: number;
  nudge: boolean;
  /** The prompt as the workflow wrote it (for a nudge, the turn's prompt). */
  prompt: string;
  /** What the agent is sent for a nudge. */
  nudgePrompt?: string;
  /** A compaction's id: the one the workflow gave it, else `compaction-<n>`. */
  compactionId?: string;
  schema?: TSchema;
  label?: string;
  stage?: string;
  cwd: string;
  execution: Execution;
  /**
   * Aborted when the engine cancels the operation; its reason is a CancelReason. A getter on the
   * operation's prototype, made on first read: read it from the operation (a spread copy lacks it).
   */
  readonly signal: AbortSignal;
  /**
   * Hands the engine an answer (JSON text for a schema, else the text); the real check judges it.
   * A method of the operation, as `idleWhile`, `send`, `reply`, `tool` and `owes` are: call it on
   * the operation (a spread copy lacks them).
   */
  submit(raw: string): AnswerVerdict;
  /** Awaits `waiting` without counting as work, so a run whose only turn awaits a reply can idle. */
  idleWhile<T>(waiting: Promise<T>): Promise<T>;
  /** The messages shown to the agent in this operation, oldest first (a compaction shows none). */
  messages: AgentMessage[];
  /** The message that woke the agent, for a `message` operation. */
  cause?: AgentMessage;
  /**
   * The workflow's call that asked it, when the host captures calls: a turn's `agent.run`, which
   * its nudge keeps; for a wake, the call that asked the turn whose agent sent the message (none
   * for a participant's message); none for a compaction.
   */
  askedAt?: CallCapture;
  /** `wfa send`: a value, never a throw; an awaited reply waits without counting as work. */
  send(peer: string, text: string, options?: SendOptions): Promise<SendResult>;
  /** `wfa reply`: answers the oldest question from `peer` the agent was shown. */
  reply(peer: string, text: string, options?: SendOptions): Promise<SendResult>;
  /** `wfa tool`: one of the workflow's tools, if the agent was given it. */
  tool(name: string, input?: unknown): Promise<ToolResult>;
  /** The peers the agent owes a reply, oldest question first; a turn's result is refused while any. */
  owes(): string[];
}

/** How the host says an operation ended, when it ended without an accepted answer. */
export type HostEnd =
  | { kind: "submitted" }
  | { kind: "silent" }
  | { kind: "blocked"; reason: string }
  | { kind: "failed"; reason: string; login?: LoginNeeded }
  | { kind: "timed-out"; reason: string }
  | { kind: "cancelled"; reason: string };

export interface AgentHost {
  /**
   * Captures where workflow code called `callee`, one of the engine's public calls, to be read
   * (and mapped to the source) only later; a test's host has it, a real run's does not.
   */
  captureCall?(callee: Function): CallCapture | undefined;
  /** An agent was opened; a host may throw to refuse it. */
  opened(agent: OpenedAgent): void;
  /**
   * `wf.agents.open` named a runtime alias the run does not know; the open rejects either way. A
   * test's host fails the test on it (an alias `awf run` would not know), a real run's has no need.
   */
  unknownRuntime?(refusal: { agent: string; alias: string; message: string; openedAt?: CallCapture }): void;
  /** Runs one operation. The engine races it against `operation.signal`. */
  run(operation: TurnOperation): Promise<HostEnd>;
  /** What the engine recorded for an operation: `unanswered` for one a nudge followed. */
  settle(operation: TurnOperation, outcome: Outcome): void;
  /** An agent's model or effort was switched (its `n`th switch); later operations carry the new execution. */
  switched?(agent: string, n: number, execution: Execution): void;
  /** An agent ended: stopped, or still open when the attempt ended; `keptPane` for a pane agent whose pane stays. */
  ended?(agent: string, end: { reason: string; keptPane?: boolean }): void;
}

export interface DecisionRequest {
  key: string;
  model: string;
  questions: Record<string, Question>;
  state?: JsonValue;
  /** Where the workflow called `wf.decide`, when the agent host captures calls. */
  askedAt?: CallCapture;
}

/** Per question: a choice's probability per option, a score's per level, a yes-no's of yes. */
export type QuestionDistribution = Record<string, number> | number[] | number;

export interface DecisionProvider {
  readonly name: string;
  /** Resolves to a distribution per question, or an Error the workflow's decide rejects with. */
  decide(request: DecisionRequest, signal: AbortSignal): Promise<Record<string, QuestionDistribution> | Error>;
}

/**
 * The edge sandboxes are made through. A real run plugs in srt or docker, which confine each agent
 * its host launches inside; a test plugs in a fake that confines nothing and keeps what each agent was given.
 */
export interface SandboxProvider {
  /** A sandbox was opened (`wf.sandboxes.open`, or an agent's inline spec); a provider may throw to refuse it. */
  opened(sandbox: SandboxRef): void;
  /** An agent was given a sandbox, before its host is told of the agent. */
  entered(agent: string, sandbox: AgentSandbox): void;
}

/** A route that opened to or from a participant, told to whoever answers for it. */
export interface ParticipantRouteNotice {
  participant: string;
  agent: string;
  direction: RouteDirection;
  purpose: string;
}

/** A message that reached a participant. */
export interface ParticipantMessageNotice {
  participant: string;
  id: string;
  from: string;
  text: string;
  /** It awaits a reply (`awf reply --to <id>`). */
  asks: boolean;
  /** It answers a message the participant sent. */
  answers: boolean;
}

/**
 * The edge participants are reached through. A real run hands them to the operator's inbox; a
 * test hands them to its `participants` scripts. Replies come back as `{key}:reply` events.
 */
export interface ParticipantHost {
  routeOpened(notice: ParticipantRouteNotice): void;
  messaged(notice: ParticipantMessageNotice): void;
}
