// The engine's message bus: the routes a workflow allows, messages between agents and
// participants, the questions they ask (a reply owed, awaited, expired), waking an idle agent
// for a message, and how every message ended (`run.messagesOf` in a test).

import { CALL_OPTIONS, checkOptions, shapeOf, shown } from "./callOptions.ts";
import type { AgentRegistry, AgentState, OperationResult } from "./agents.ts";
import type { AttemptWithParts } from "./attemptWithParts.ts";
import { messageOf, WorkflowRuleError } from "./errors.ts";
import { splitEventName } from "./events.ts";
import type { CallCapture, OperationKind } from "./host.ts";
import { awaitRefusal } from "./harnesses.ts";
import { firstLine } from "./json.ts";
import type { AgentMessage, MessageRecord, RouteDirection, RouteEnd, RouteSpec, SendOptions, SendRefusal, SendResult, ToolResult, ToolSpec } from "./messageTypes.ts";
import { Participants } from "./participants.ts";
import { Routes, type DirectedPair } from "./routes.ts";
import type { Asker, BusMessage, OperationMessaging } from "./operationMessaging.ts";
import { inScope, scopeOr, type Scope } from "./scope.ts";
import { Tools } from "./tools.ts";
import type { AgentSpec, Outcome, ReceivedEvent } from "./types.ts";
import { untilToTime, waitOn } from "./waits.ts";

const refused = (code: SendRefusal): SendResult => ({ kind: "refused", code });
const isNormalEnd = (result: OperationResult) => result.end === "silent" || result.end.kind === "answered";

/** The reminder a woken agent is sent when its wake ended still owing a reply. */
export function reminderPrompt(peer: string, question: string): string {
  return `You still owe "${peer}" a reply to: ${firstLine(question)}. Answer with wfa reply ${peer} "…".`;
}

const NONE_SHOWN: BusMessage[] = [];

/** One operation's messaging: what it shows, and its agent's `wfa` calls, as methods of one object. */
class OperationCalls implements OperationMessaging {
  constructor(
    private readonly bus: MessageBus,
    private readonly state: AgentState,
    private readonly asker: Asker,
    readonly messages: AgentMessage[],
    readonly cause: AgentMessage | undefined,
  ) {}

  send(peer: string, text: string, options?: SendOptions): Promise<SendResult> {
    return this.bus.send(this.state.opened.key, peer, text, options, this.asker);
  }

  reply(peer: string, text: string, options?: SendOptions): Promise<SendResult> {
    return this.bus.replyFor(this.state.opened.key, peer, text, options, this.asker);
  }

  tool(name: string, input?: unknown): Promise<ToolResult> {
    const state = this.state;
    return this.bus.tools.call({ key: state.opened.key, cwd: state.opened.cwd }, state.spec.tools, name, input, this.asker.scope);
  }

  owes(): string[] {
    return this.bus.owedPeers(this.state.opened.key);
  }

  refusesResult(): string | undefined {
    const owed = this.bus.firstOwed(this.state.opened.key);
    return owed ? `it owes "${owed}" a reply` : undefined;
  }
}

export class MessageBus {
  readonly routes = new Routes();
  readonly participants: Participants;
  readonly tools: Tools;
  private readonly messages: BusMessage[] = [];
  /** Messages an agent has not been shown yet, oldest first. */
  private readonly unseen = new Map<string, BusMessage[]>();
  /** The reply each `{key}:reply` event that answered a question became, by event id. */
  private readonly claimed = new Map<string, string>();
  private ended = false;

  constructor(
    private readonly attempt: AttemptWithParts,
    private readonly registry: AgentRegistry,
    tools: Readonly<Record<string, ToolSpec>> = {},
  ) {
    this.participants = new Participants(attempt, (key) => registry.has(key));
    this.tools = new Tools(attempt, tools);
    attempt.inbox.claim = (event) => this.claimReply(event);
    attempt.onPark(() => this.attemptEnded());
  }

  /** Every message of the run, in the order sent, as each ended so far. */
  get records(): MessageRecord[] {
    return this.messages.map((message) => message.record);
  }

  /** When each message of `records` was sent, reached its recipient and ended. */
  get moments(): Array<BusMessage["moments"]> {
    return this.messages.map((message) => message.moments);
  }

  /** Where each message of `records` was sent from in the workflow, when the host captures calls. */
  get sentAt(): Array<CallCapture | undefined> {
    return this.messages.map((message) => message.sentAt);
  }

  // The workflow's calls ------------------------------------------------------------------------

  async allow(route: RouteSpec): Promise<void> {
    if (typeof route !== "object" || route === null || Array.isArray(route)) {
      throw new TypeError(
        `wf.messages.allow takes ${shapeOf(CALL_OPTIONS["wf.messages.allow"])} or ${shapeOf(CALL_OPTIONS["wf.messages.allow between"])}, not ${shown(route)}`,
      );
    }
    checkOptions("wf.messages.allow", "between" in route ? "wf.messages.allow between" : "wf.messages.allow", route);
    await this.attempt.unlessAbandoned();
    let pairs: DirectedPair[];
    let ends: [string, string];
    if ("between" in route) {
      if (!Array.isArray(route.between) || route.between.length !== 2) {
        throw new TypeError(`wf.messages.allow: between is two ends, [a, b], not ${JSON.stringify(route.between)}`);
      }
      ends = [this.endKey(route.between[0], "between[0]"), this.endKey(route.between[1], "between[1]")];
      pairs = [
        { from: ends[0], to: ends[1] },
        { from: ends[1], to: ends[0] },
      ];
    } else {
      ends = [this.endKey(route.from, "from"), this.endKey(route.to, "to")];
      pairs = [{ from: ends[0], to: ends[1] }];
    }
    const [a, b] = ends;
    if (a === b) throw new TypeError(`wf.messages.allow: a route joins two ends; "${a}" is at both`);
    if (this.participants.has(a) && this.participants.has(b)) {
      throw new WorkflowRuleError(`wf.messages.allow: "${a}" and "${b}" are both participants; a route has an agent at one end`);
    }
    const opened = this.routes.open(pairs, route.purpose);
    const participant = ends.find((end) => this.participants.has(end));
    if (opened.length === 0 || participant === undefined) return;
    const agent = participant === a ? b : a;
    const toParticipant = this.routes.allows(agent, participant);
    const fromParticipant = this.routes.allows(participant, agent);
    const direction: RouteDirection = toParticipant && fromParticipant ? "both" : toParticipant ? "to-participant" : "from-participant";
    this.attempt.settings.participants?.routeOpened({ participant, agent, direction, purpose: route.purpose });
  }

  /** Checks what `wf.agents.open` is given against the bus: a key no participant has, tools the workflow declares. */
  checkAgentSpec(spec: AgentSpec): void {
    if (this.participants.has(spec.key)) {
      throw new WorkflowRuleError(`"${spec.key}" is a participant of the run; an agent needs a key of its own`);
    }
    this.tools.checkGrant(spec.key, spec.tools);
  }

  private endKey(end: RouteEnd, what: string): string {
    const key = typeof end === "string" ? end : typeof end === "object" && end !== null ? end.key : undefined;
    if (typeof key !== "string" || key === "") {
      throw new TypeError(`wf.messages.allow: ${what} is an agent or a participant, by ref or key, not ${JSON.stringify(end)}`);
    }
    if (!this.registry.has(key) && !this.participants.has(key)) {
      throw new WorkflowRuleError(`wf.messages.allow: "${key}" is no open agent and no connected participant`);
    }
    return key;
  }

  // An agent's operation ------------------------------------------------------------------------

  /**
   * The messaging an operation carries: the messages it shows the agent (a turn shows all it had
   * not seen; a wake those up to its cause, so each later message has a wake of its own; a
   * compaction none), the message that woke it, and the agent's `wfa` calls.
   */
  forOperation(state: AgentState, kind: OperationKind, asker: Asker, cause?: BusMessage): OperationMessaging {
    const key = state.opened.key;
    const shown = kind === "compact" ? NONE_SHOWN : this.takeUnseen(key, kind === "message" ? cause : undefined);
    return new OperationCalls(this, state, asker, shown.length ? shown.map(viewOf) : [], cause ? viewOf(cause) : undefined);
  }

  /** @internal `wfa reply` for an operation (OperationCalls). */
  replyFor(from: string, peer: string, text: string, options: SendOptions | undefined, asker: Asker): Promise<SendResult> {
    return this.agentReply(from, peer, text, options, asker);
  }

  /** @internal The peers `key` owes a reply, oldest question first. */
  owedPeers(key: string): string[] {
    // Asked of every turn's answer: a run without messages makes one list, not two.
    if (this.messages.length === 0) return [];
    return this.owedBy(key).map((question) => question.record.from);
  }

  /** @internal The first peer `key` owes a reply, if any: owedPeers' first, making no lists. */
  firstOwed(key: string): string | undefined {
    for (const message of this.messages) if (message.record.to === key && message.open && message.shown) return message.record.from;
    return undefined;
  }

  /**
   * `from` messages `peer` along a route: `sent`, or with `awaitReply` the reply (`replied`) or why
   * none came (`failed`); `refused` with a code before anything is sent. `asker` is the operation
   * that waits, idle, for a reply; without one the caller waits in its own scope.
   */
  async send(from: string, peer: string, text: string, options?: SendOptions, asker: Asker = this.callerAsker()): Promise<SendResult> {
    const refusal = this.sendRefusal(from, peer, text);
    if (refusal) return refused(refusal);
    if (!this.routes.allows(from, peer)) return refused("no-route");
    return this.dispatch(from, peer, text, options, asker);
  }

  private callerAsker(): Asker {
    return { scope: scopeOr(this.attempt.root), idleWhile: (waiting) => waiting };
  }

  private async agentReply(from: string, peer: string, text: string, options: SendOptions | undefined, asker: Asker): Promise<SendResult> {
    if (this.ended || this.attempt.isAbandoned) return refused("attempt-ended");
    if (typeof text !== "string" || text.trim() === "") return refused("empty-text");
    const question = this.owedBy(from).find((owed) => owed.record.from === peer);
    if (!question) return refused("no-question");
    const until = this.untilOf(options);
    if (until === "invalid") return refused("invalid-timeout");
    const cannot = this.cannotAwait(from, options);
    if (cannot) return cannot;
    const reply = this.answer(question, from, text, options?.awaitReply === true, asker.askedAt);
    if (!reply.open) return { kind: "sent" };
    return this.awaitReply(reply, until, asker);
  }

  private sendRefusal(from: string, peer: unknown, text: unknown): SendRefusal | undefined {
    if (this.ended || this.attempt.isAbandoned) return "attempt-ended";
    if (typeof text !== "string" || text.trim() === "") return "empty-text";
    if (peer === from) return "self";
    if (typeof peer !== "string" || (!this.registry.has(peer) && !this.participants.has(peer))) return "unknown-peer";
    if (this.registry.stateOf(peer)?.stopped !== undefined) return "peer-ended";
    return undefined;
  }

  /** An agent awaits a reply only where a real run would let it, by its harness and placement. */
  private cannotAwait(from: string, options: SendOptions | undefined): SendResult | undefined {
    const state = options?.awaitReply === true ? this.registry.stateOf(from) : undefined;
    const why = state ? awaitRefusal(state.execution) : undefined;
    return why ? { kind: "refused", code: "cannot-await", reason: `agent "${from}": ${why}` } : undefined;
  }

  private untilOf(options: SendOptions | undefined): number | undefined | "invalid" {
    if (options?.timeout === undefined) return undefined;
    // A timeout bounds the wait for a reply; a message that awaits none has nothing to time.
    if (options.awaitReply !== true) return "invalid";
    try {
      return untilToTime(this.attempt, options.timeout, "a send's timeout");
    } catch {
      return "invalid";
    }
  }

  private async dispatch(from: string, to: string, text: string, options: SendOptions | undefined, asker: Asker): Promise<SendResult> {
    const until = this.untilOf(options);
    if (until === "invalid") return refused("invalid-timeout");
    const cannot = this.cannotAwait(from, options);
    if (cannot) return cannot;
    const asks = options?.awaitReply === true;
    const message = this.record(from, to, text, asks);
    if (asker.askedAt) message.sentAt = asker.askedAt;
    this.deliver(message);
    if (!asks) return { kind: "sent" };
    return this.awaitReply(message, until, asker);
  }

  /** The asker's wait for a reply: a `question` wait, so a run with nothing else to do idles, and `until` expires it. */
  private awaitReply(question: BusMessage, until: number | undefined, asker: Asker): Promise<SendResult> {
    const { to, text } = question.record;
    const label = `waiting on "${to}" to answer "${firstLine(text, 60)}"`;
    const waiting = inScope(asker.scope, () =>
      waitOn<SendResult>(this.attempt, {
        kind: "question",
        label,
        ...(until !== undefined
          ? {
              until,
              onUntil: () => {
                this.fail(question, "timeout");
                return { kind: "failed" as const, reason: "timeout" };
              },
            }
          : {}),
        start: (settle) => {
          if (question.open) question.settle = settle;
          else settle({ kind: "failed", reason: question.record.reason ?? "the question ended" });
        },
        cleanup: () => {
          question.settle = undefined;
        },
      }),
    ).catch((error: unknown): SendResult => ({ kind: "failed", reason: messageOf(error) }));
    return asker.idleWhile(waiting);
  }

  // Participants' side: `awf send` and `awf reply --to` -------------------------------------------

  /** A participant messages an agent, as `awf send` does: `{ id }`, or the code it was refused with. */
  participantSend(participant: string, agent: string, text: string): { id: string } | { code: SendRefusal } {
    const refusal = this.sendRefusal(participant, agent, text);
    if (refusal) return { code: refusal };
    if (!this.routes.allows(participant, agent)) return { code: "no-route" };
    const message = this.record(participant, agent, text, false);
    this.deliver(message);
    return { id: message.record.id };
  }

  /**
   * A participant answers a message, as `awf reply --to <id>` does: through its `{key}:reply`
   * event, recorded in in.jsonl, which the bus takes as the question's reply.
   */
  participantReply(participant: string, messageId: string, text: string): { id: string } | { code: string } {
    if (this.ended || this.attempt.isAbandoned) return { code: "attempt-ended" };
    if (typeof text !== "string" || text.trim() === "") return { code: "empty-text" };
    const question = this.messages.find((message) => message.record.id === messageId && message.record.to === participant);
    if (!question?.open) return { code: "no-question" };
    const inbox = this.attempt.inbox;
    const delivery = inbox.receive({ name: `${participant}:reply`, data: { text, to: messageId } }, "outside", () => `awf.${inbox.lines.length + 1}`);
    if (!delivery.ok) return { code: delivery.code };
    const reply = this.claimed.get(delivery.event.eventId);
    return reply !== undefined ? { id: reply } : { code: "no-question" };
  }

  /** A `{key}:reply` event whose `to` names an open question to that participant answers it. */
  private claimReply(event: ReceivedEvent): boolean {
    const [participant, suffix] = splitEventName(event.name);
    if (suffix !== "reply" || participant === undefined || !this.participants.has(participant)) return false;
    const data = event.data as { text?: unknown; to?: unknown };
    if (typeof data?.to !== "string" || typeof data.text !== "string") return false;
    const question = this.messages.find((message) => message.record.id === data.to && message.record.to === participant && message.open);
    if (!question) return false;
    const reply = this.answer(question, participant, data.text, false);
    this.claimed.set(event.eventId, reply.record.id);
    return true;
  }

  // Delivering, waking, answering ---------------------------------------------------------------

  private record(from: string, to: string, text: string, asks: boolean, answers?: string): BusMessage {
    const message: BusMessage = {
      record: { id: `m${this.messages.length + 1}`, from, to, text, awaitReply: asks, ...(answers !== undefined ? { answers } : {}), end: "pending" },
      open: asks,
      shown: false,
      moments: { sent: this.attempt.moment() },
    };
    this.messages.push(message);
    return message;
  }

  /** A participant has it once recorded; an agent is shown it in its next operation, which a wake is. */
  private deliver(message: BusMessage): void {
    const { to, from, id, text } = message.record;
    if (this.participants.has(to)) {
      message.record.end = "delivered";
      message.shown = true;
      message.moments.reached = this.attempt.moment();
      this.attempt.settings.participants?.messaged({
        participant: to,
        id,
        from,
        text,
        asks: message.record.awaitReply,
        answers: message.record.answers !== undefined,
      });
      return;
    }
    const state = this.registry.stateOf(to);
    if (!state || state.stopped !== undefined) return this.fail(message, "the agent ended", true);
    const queue = this.unseen.get(to) ?? [];
    queue.push(message);
    this.unseen.set(to, queue);
    this.wake(state, message);
  }

  /** Answers a question: the asker's wait gets the text, or, when none waits, the reply is a message to the asker. */
  private answer(question: BusMessage, replier: string, text: string, asks: boolean, sentAt?: CallCapture): BusMessage {
    question.open = false;
    question.record.end = "replied";
    question.moments.ended = this.attempt.moment();
    const reply = this.record(replier, question.record.from, text, asks, question.record.id);
    if (sentAt) reply.sentAt = sentAt;
    const waiting = question.settle;
    if (waiting) {
      reply.record.end = "delivered";
      reply.shown = true;
      reply.moments.reached = this.attempt.moment();
      waiting({ kind: "replied", text });
    } else this.deliver(reply);
    return reply;
  }

  /** Ends a question (or an undelivered message) with `reason`; an asker still waiting is told. */
  private fail(message: BusMessage, reason: string, undelivered = false): void {
    const queue = this.unseen.get(message.record.to);
    const index = queue?.indexOf(message) ?? -1;
    const neverShown = undelivered || index >= 0 || message.record.end === "pending";
    if (index >= 0) queue!.splice(index, 1);
    if (!message.open && !neverShown) return;
    message.open = false;
    message.record.end = neverShown ? "undelivered" : "failed";
    message.record.reason = reason;
    message.moments.ended = this.attempt.moment();
    message.settle?.({ kind: "failed", reason });
  }

  private takeUnseen(key: string, upTo?: BusMessage): BusMessage[] {
    const queue = this.unseen.get(key);
    // Most operations have nothing waiting: no lists made for them.
    if (!queue) return NONE_SHOWN;
    const through = upTo ? queue.indexOf(upTo) + 1 : queue.length;
    const shown = queue.splice(0, through);
    if (queue.length === 0) this.unseen.delete(key);
    for (const message of shown) {
      message.shown = true;
      message.record.end = "delivered";
      message.moments.reached = this.attempt.moment();
    }
    return shown;
  }

  /** Questions an agent was shown and has not answered, oldest first. */
  private owedBy(key: string): BusMessage[] {
    return this.messages.filter((message) => message.record.to === key && message.open && message.shown);
  }

  /**
   * A message wakes its agent: an engine-owned `message` operation queued behind the agent's
   * earlier ones. It keeps the agent's turn number and is no turn the workflow started. An
   * operation that ran first and showed the message leaves the wake nothing to do.
   */
  private wake(state: AgentState, message: BusMessage): void {
    const key = state.opened.key;
    void inScope(this.attempt.root, () => this.registry.enqueue(state, (scope) => this.runWake(state, message, scope))).catch((error: unknown) =>
      this.attempt.settings.onLog?.({ message: `awf: waking agent "${key}" for message ${message.record.id} failed: ${messageOf(error)}` }),
    );
  }

  private async runWake(state: AgentState, message: BusMessage, scope: Scope): Promise<void> {
    const key = state.opened.key;
    if (!(this.unseen.get(key) ?? []).includes(message)) return;
    if (scope.cancelReason || state.stopped !== undefined || this.ended) return;
    const n = state.turns;
    const operationScope = scope.child();
    state.running.add(operationScope);
    try {
      const prompt = { prompt: message.record.text };
      const first = await this.registry.operate(state, prompt, n, false, operationScope, "", "message", undefined, message);
      const shownHere = new Set(first.operation.messages.map((shown) => shown.id));
      const owedHere = () => this.owedBy(key).filter((question) => shownHere.has(question.record.id));
      let last = first;
      const owed = owedHere()[0];
      // An owed reply is reminded once, as a turn with no answer is nudged once.
      if (owed && isNormalEnd(first) && !operationScope.cancelReason) {
        this.attempt.host.settle(first.operation, { kind: "unanswered", reason: "a reminder followed" });
        last = await this.registry.operate(state, prompt, n, true, operationScope, reminderPrompt(owed.record.from, owed.record.text), "message", undefined, message);
      }
      const stillOwed = owedHere();
      let outcome: Outcome;
      if (!isNormalEnd(last)) outcome = last.end as Outcome;
      else if (stillOwed.length) outcome = { kind: "unanswered", reason: `it did not reply to "${stillOwed[0]!.record.from}", even after a reminder` };
      else outcome = { kind: "answered", value: last.end === "silent" ? "" : (last.end as { value: unknown }).value };
      this.attempt.host.settle(last.operation, outcome);
      const why = isNormalEnd(last) ? "no-reply" : `${outcome.kind}: ${(outcome as { reason: string }).reason}`;
      for (const question of stillOwed) this.fail(question, why);
      await this.attempt.unlessAbandoned();
    } finally {
      state.running.delete(operationScope);
      operationScope.dispose();
    }
  }

  // Ends ----------------------------------------------------------------------------------------

  /** An agent was stopped: what it was never shown is undelivered, and what it owes fails. */
  agentEnded(key: string, reason: string): void {
    for (const message of this.messages) {
      if (message.record.to === key && (message.open || message.record.end === "pending")) this.fail(message, "stopped");
    }
    const inbox = this.attempt.inbox;
    inbox.receive({ name: `${key}:ended`, data: { reason } }, "engine", () => `awf.${inbox.lines.length + 1}`);
  }

  /** The attempt ended (returned, failed, parked…): what waits for a reply expires `attempt-ended`. */
  attemptEnded(): void {
    if (this.ended) return;
    this.ended = true;
    for (const message of this.messages) {
      if (message.open || message.record.end === "pending") this.fail(message, "attempt-ended");
    }
  }
}

function viewOf(message: BusMessage): AgentMessage {
  const { id, from, text, awaitReply, answers } = message.record;
  return { id, from, text, asks: awaitReply, answers: answers !== undefined };
}
