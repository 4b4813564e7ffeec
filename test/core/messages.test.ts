import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow, type ScriptMessage } from "agentswf/testing";
import { defineWorkflow, Type, type AgentRef, type AgentSpec, type RouteSpec, type SendOptions, type WorkflowContext } from "agentswf/workflow";
import { problemsOf, traceOfRun } from "turnlens/trace";
import { deferred, forever, mistake } from "./workflows";

const BETWEEN: RouteSpec = { between: ["a", "b"], purpose: "questions about the cache" };

/** Opens agents a and b, allows `routes`, runs `work` (a's one turn by default), and returns what it gives. */
function pair(routes: RouteSpec[], work?: (wf: WorkflowContext, a: AgentRef, b: AgentRef) => Promise<unknown>) {
  return defineWorkflow({
    name: "pair",
    description: "Two agents that may message each other.",
    async run(wf) {
      const a = await wf.agents.open({ key: "a", runtime: "claude" });
      const b = await wf.agents.open({ key: "b", runtime: "claude" });
      for (const route of routes) await wf.messages.allow(route);
      if (work) return work(wf, a, b);
      const { outcome } = await a.run({ prompt: "Ask b." });
      return outcome.kind === "answered" ? JSON.parse(outcome.value) : outcome.kind;
    },
  });
}

/** A's turn: one send, answered with what it resolved to. */
const sending = (peer: string, text: string, options?: SendOptions) => answer(async (turn) => JSON.stringify(await turn.send(peer, text, options)));

describe("routes", () => {
  test("a send along no route is refused no-route, and reaches no one", async () => {
    const run = await testWorkflow(pair([]), { agents: { a: sending("b", "Which cache?") } });
    expect(run.value).toEqual({ kind: "refused", code: "no-route" });
    expect(run.messagesOf("b")).toEqual([]);
  });

  test("a one-way route carries messages its way only", async () => {
    const backwards = await testWorkflow(pair([{ from: "b", to: "a", purpose: "reports" }]), { agents: { a: sending("b", "hi") } });
    expect(backwards.value).toEqual({ kind: "refused", code: "no-route" });
    const forwards = await testWorkflow(pair([{ from: "a", to: "b", purpose: "reports" }]), {
      agents: { a: sending("b", "hi") },
      messages: { b: () => undefined },
    });
    expect(forwards.value).toEqual({ kind: "sent" });
    expect(forwards.messagesOf("b")).toEqual([{ from: "a", text: "hi", awaitReply: false, end: "delivered" }]);
  });

  test("the same route again is the same route", async () => {
    const run = await testWorkflow(pair([BETWEEN, BETWEEN, { from: "a", to: "b", purpose: BETWEEN.purpose }]), {
      agents: { a: sending("b", "hi") },
      messages: { b: () => undefined },
    });
    expect(run.value).toEqual({ kind: "sent" });
  });

  test("the same ends with another purpose reject, naming the first purpose", async () => {
    const conflicting = pair([], async (wf) => {
      await wf.messages.allow(BETWEEN);
      return wf.messages.allow({ from: "b", to: "a", purpose: "gossip" }).then(
        () => "allowed",
        (error: Error) => error.message,
      );
    });
    const run = await testWorkflow(conflicting);
    expect(run.value).toBe('wf.messages.allow: messages from "b" to "a" are already allowed for "questions about the cache"; a route has one purpose');
  });

  test("an end the run does not know rejects", async () => {
    const unknown = pair([], (wf) =>
      wf.messages.allow({ from: "a", to: "ghost", purpose: "x" }).then(
        () => "allowed",
        (error: Error) => error.message,
      ),
    );
    const run = await testWorkflow(unknown);
    expect(run.value).toBe('wf.messages.allow: "ghost" is no open agent and no connected participant');
  });

  test("refuses a send to no one, to itself, of no text, or with a timeout and no reply awaited", async () => {
    const all = answer(async (turn) =>
      JSON.stringify([
        await turn.send("nobody", "hi"),
        await turn.send("a", "hi"),
        await turn.send("b", "  "),
        await turn.send("b", "hi", { timeout: "1h" }),
        await turn.send("b", "hi", { awaitReply: true, timeout: "soon" }),
      ]),
    );
    const run = await testWorkflow(pair([BETWEEN]), { agents: { a: all } });
    expect((run.value as Array<{ code: string }>).map((result) => result.code)).toEqual(["unknown-peer", "self", "empty-text", "invalid-timeout", "invalid-timeout"]);
  });
});

describe("a message that wakes an agent", () => {
  test("wakes an idle agent, whose messages script's reply is what the asker gets", async () => {
    const run = await testWorkflow(pair([BETWEEN]), {
      agents: { a: sending("b", "Which cache?", { awaitReply: true }) },
      messages: { b: (message) => message.reply("The LRU one.") },
    });
    expect(run.value).toEqual({ kind: "replied", text: "The LRU one." });
    const question = { from: "a", text: "Which cache?", asks: true, answers: false };
    expect(run.turnsOf("b")).toEqual([
      { agent: "b", n: 0, nudge: false, prompt: "Which cache?", cwd: expect.any(String), model: "sonnet", cause: question, messages: [question], outcome: "answered" },
    ]);
    expect(run.messagesOf("b")).toEqual([{ from: "a", text: "Which cache?", awaitReply: true, end: "replied" }]);
    expect(run.messagesOf("a")).toEqual([{ from: "b", text: "The LRU one.", awaitReply: false, end: "delivered" }]);
  });

  test("keeps the agent's last turn number and is no turn maxTurns counts", async () => {
    const turns = pair([BETWEEN], async (_wf, a, b) => {
      await b.run({ prompt: "Plan." });
      await a.run({ prompt: "Review." });
      return (await b.run({ prompt: "Settle." })).outcome.kind;
    });
    const run = await testWorkflow(turns, {
      maxTurns: 3,
      agents: { a: sending("b", "Rename it?", { awaitReply: true }), b: answer("done") },
      messages: { b: (message) => message.reply("Renamed.") },
    });
    expect(run.value).toBe("answered");
    expect(run.turnsOf("b").map((turn) => [turn.n, turn.cause?.from ?? null])).toEqual([
      [1, null],
      [1, "a"],
      [2, null],
    ]);
  });

  test("a message to an agent in a turn is shown in its next operation, and wakes nothing once shown", async () => {
    const told = deferred();
    const queued = pair([BETWEEN], async (_wf, a, b) => {
      const [, second] = await Promise.all([b.run({ prompt: "first" }), b.run({ prompt: "second" }), a.run({ prompt: "tell b" })]);
      return second.outcome.kind === "answered" ? JSON.parse(second.outcome.value) : second.outcome.kind;
    });
    const run = await testWorkflow(queued, {
      agents: {
        a: answer(async (turn) => {
          const sent = await turn.send("b", "note this");
          told.resolve();
          return sent.kind;
        }),
        b: [answer(async () => (await told.promise, "first done")), answer((turn) => JSON.stringify(turn.messages))],
      },
    });
    expect(run.value).toEqual([{ from: "a", text: "note this", asks: false, answers: false }]);
    expect(run.turnsOf("b").map((turn) => turn.prompt)).toEqual(["first", "second"]);
    expect(run.messagesOf("b")).toEqual([{ from: "a", text: "note this", awaitReply: false, end: "delivered" }]);
  });

  test("each message wakes the agent once, a list walking one entry per message", async () => {
    const seen: string[] = [];
    const run = await testWorkflow(pair([BETWEEN]), {
      agents: { a: answer(async (turn) => JSON.stringify([(await turn.send("b", "first")).kind, (await turn.send("b", "second")).kind])) },
      messages: { b: [(message) => void seen.push(`1: ${message.text}`), (message) => void seen.push(`2: ${message.text}`)] },
    });
    expect(run.value).toEqual(["sent", "sent"]);
    expect(seen).toEqual(["1: first", "2: second"]);
    expect(run.turnsOf("b").map((turn) => turn.messages.map((message) => message.text))).toEqual([["first"], ["second"]]);
  });

  test("an agent a message wakes with no messages script fails the test", async () => {
    const error = await mistake(testWorkflow(pair([BETWEEN]), { agents: { a: sending("b", "Which cache?", { awaitReply: true }) } }));
    expect(error.message).toBe('agent "b" message 1: a message woke it, and "messages" has no script for it. It was sent by "a": Which cache?');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "message-unscripted", option: "messages", agent: "b", wake: 1, from: "a" });
  });

  test("names the agents that have messages scripts when the woken one has none", async () => {
    const error = await mistake(testWorkflow(pair([BETWEEN]), { agents: { a: sending("b", "hi") }, messages: { c: () => undefined, "d-*": () => undefined } }));
    expect(error.message).toBe('agent "b" message 1: a message woke it, and "messages" has no script for it; scripted: "c", "d-*". It was sent by "a": hi');
  });

  test("a messages script that throws fails the test", async () => {
    const error = await mistake(
      testWorkflow(pair([BETWEEN]), {
        agents: { a: sending("b", "Which cache?\nThe one in front.", { awaitReply: true }) },
        messages: {
          b: () => {
            throw new Error("no idea");
          },
        },
      }),
    );
    expect(error.message).toBe('agent "b" message 1: its messages script threw: no idea. It was sent by "a": Which cache?');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "message-script-threw", key: "b", index: null });
  });

  test("a wake past a messages list's end fails the test", async () => {
    const error = await mistake(
      testWorkflow(pair([BETWEEN]), {
        agents: { a: answer(async (turn) => `${(await turn.send("b", "first")).kind} ${(await turn.send("b", "second")).kind}`) },
        messages: { b: [() => undefined] },
      }),
    );
    expect(error.message).toBe('agent "b" message 2: its messages script has 1 message. It was sent by "a": second');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "list-exhausted", option: "messages", index: 1 });
  });

  test("a messages list entry never reached, or a list for an agent never woken, fails the test", async () => {
    const error = await mistake(
      testWorkflow(pair([BETWEEN]), {
        agents: { a: sending("b", "hi") },
        messages: { b: [() => undefined, () => undefined], a: [() => undefined] },
      }),
    );
    expect(error.message).toBe('agent "b" was woken by 1 message; its messages script has 2\nagent "a" was never woken by a message; its messages script has 1 message');
    expect(problemsOf(error)?.map((problem) => [problem.code, problem.option])).toEqual([
      ["entry-never-reached", "messages"],
      ["list-never-asked", "messages"],
    ]);
  });

  test("a wake that ends owing a reply is reminded once, then the question fails no-reply", async () => {
    const calls: boolean[] = [];
    const run = await testWorkflow(pair([BETWEEN]), {
      agents: { a: sending("b", "Which cache?", { awaitReply: true }) },
      messages: { b: (message) => void calls.push(message.turn.nudge) },
    });
    expect(run.value).toEqual({ kind: "failed", reason: "no-reply" });
    expect(calls).toEqual([false, true]);
    expect(run.turnsOf("b").map((turn) => [turn.nudge, turn.outcome])).toEqual([
      [false, "unanswered"],
      [true, "unanswered"],
    ]);
    expect(run.messagesOf("b")).toEqual([{ from: "a", text: "Which cache?", awaitReply: true, end: "failed", reason: "no-reply" }]);
  });

  test("a reply to the reminder answers the question", async () => {
    const run = await testWorkflow(pair([BETWEEN]), {
      agents: { a: sending("b", "Which cache?", { awaitReply: true }) },
      messages: { b: (message) => (message.turn.nudge ? message.reply("The LRU one, sorry.") : undefined) },
    });
    expect(run.value).toEqual({ kind: "replied", text: "The LRU one, sorry." });
    expect(run.turnsOf("b").map((turn) => turn.outcome)).toEqual(["unanswered", "answered"]);
  });

  test("a messages script still deciding stalls the test, naming the wake in flight", async () => {
    const error = await mistake(
      testWorkflow(pair([BETWEEN]), {
        stall: "200ms",
        agents: { a: sending("b", "Which cache?", { awaitReply: true }) },
        messages: { b: () => forever() },
      }),
    );
    expect(error.message).toBe('the run stalled: nothing started or ended for 200 ms; in flight: "a" turn 1, "b" woken by a message');
  });

  test("a noAnswer ends the wake that way, and the question fails with it", async () => {
    const run = await testWorkflow(pair([BETWEEN]), {
      agents: { a: sending("b", "Which cache?", { awaitReply: true }) },
      messages: { b: () => noAnswer.failed("busy elsewhere") },
    });
    expect(run.value).toEqual({ kind: "failed", reason: "failed: busy elsewhere" });
    expect(run.turnsOf("b").map((turn) => turn.outcome)).toEqual(["failed"]);
  });
});

describe("two agents that await each other", () => {
  test("park rather than stall, their questions ending attempt-ended", async () => {
    const both = pair([BETWEEN], (_wf, a, b) => Promise.all([a.run({ prompt: "ask b" }), b.run({ prompt: "ask a" })]));
    const run = await testWorkflow(both, { agents: { a: sending("b", "You first?", { awaitReply: true }), b: sending("a", "No, you?", { awaitReply: true }) } });
    expect(run.ending).toMatchObject({ kind: "parked", label: 'waiting on "a" to answer "No, you?"' });
    expect([...run.messagesOf("a"), ...run.messagesOf("b")].map((message) => [message.end, message.reason])).toEqual([
      ["undelivered", "attempt-ended"],
      ["undelivered", "attempt-ended"],
    ]);
    expect(run.turns.map((turn) => turn.outcome)).toEqual(["awaiting-reply", "awaiting-reply"]);
  });
});

describe("a question shown in a turn", () => {
  /** b's first turn runs until a has asked; its second, queued meanwhile, is shown the question. */
  function shownInATurn(second: ReturnType<typeof answer>) {
    const asked = deferred();
    const flow = pair([BETWEEN], async (_wf, a, b) => {
      const [, , ask] = await Promise.all([b.run({ prompt: "first" }), b.run({ prompt: "second\nwith detail" }), a.run({ prompt: "ask b" })]);
      return ask.outcome.kind === "answered" ? JSON.parse(ask.outcome.value) : ask.outcome.kind;
    });
    const agents = {
      a: answer(async (turn) => {
        const reply = turn.send("b", "Which cache?", { awaitReply: true });
        asked.resolve();
        return JSON.stringify(await reply);
      }),
      b: [answer(async () => (await asked.promise, "first done")), second],
    };
    return testWorkflow(flow, { agents });
  }

  test("is answered with turn.reply, and the asker gets the text", async () => {
    const run = await shownInATurn(answer(async (turn) => (await turn.reply("a", "The LRU one."), "second done")));
    expect(run.value).toEqual({ kind: "replied", text: "The LRU one." });
    expect(run.turnsOf("b")[1]?.messages).toEqual([{ from: "a", text: "Which cache?", asks: true, answers: false }]);
  });

  test("a result while the agent owes the reply fails the test", async () => {
    const error = await mistake(shownInATurn(answer("second done")));
    expect(error.message).toBe('agent "b" turn 2: it returned a result while it owes "a" a reply. It was asked: second');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "result-while-owing", agent: "b", turn: 2, from: "a", index: 1 });
  });
});

describe("a stopped agent", () => {
  test("fails the question it owed, refuses later sends, and the run is sent its :ended event", async () => {
    const woken = deferred();
    const stopping = pair([BETWEEN], async (wf, a) => {
      const asked = a.run({ prompt: "ask b" });
      await woken.promise;
      wf.agents.stop("b", "done with it");
      const first = await asked;
      const again = await a.run({ prompt: "ask b again" });
      const ended = await wf.events.wait("b:ended");
      return [first.outcome, again.outcome, ended.kind === "event" ? ended.data : ended.kind].map((value) =>
        typeof value === "object" && value !== null && "value" in value ? JSON.parse(value.value as string) : value,
      );
    });
    const run = await testWorkflow(stopping, {
      agents: { a: sending("b", "Which cache?", { awaitReply: true }) },
      messages: { b: () => (woken.resolve(), forever()) },
    });
    expect(run.value).toEqual([{ kind: "failed", reason: "stopped" }, { kind: "refused", code: "peer-ended" }, { reason: "done with it" }]);
    expect(run.messagesOf("b")).toEqual([{ from: "a", text: "Which cache?", awaitReply: true, end: "failed", reason: "stopped" }]);
    expect(run.turnsOf("b").map((turn) => turn.outcome)).toEqual(["cancelled"]);
    expect(run.events.map((event) => event.name)).toEqual(["b:ended"]);
  });
});

describe("tools", () => {
  const LOOKUP = Type.Object({ ticket: Type.String() });
  const tooled = (grants: string[] = ["lookup", "crash"]) =>
    defineWorkflow({
      name: "tooled",
      description: "An agent with tools.",
      tools: {
        lookup: { description: "Looks a ticket up.", input: LOOKUP, run: async (input: { ticket: string }, context) => ({ ticket: input.ticket, by: context.agent }) },
        crash: {
          description: "Always fails.",
          input: Type.Object({}),
          run: () => {
            throw new Error("the tracker is down");
          },
        },
      },
      async run(wf) {
        const a = await wf.agents.open({ key: "a", runtime: "claude", tools: grants });
        const b = await wf.agents.open({ key: "b", runtime: "claude" });
        const results = [];
        for (const agent of [a, b]) {
          const { outcome } = await agent.run({ prompt: "Use your tools." });
          results.push(outcome.kind === "answered" ? JSON.parse(outcome.value) : outcome.kind);
        }
        return results;
      },
    });

  test("a granted tool runs with checked input and answers its output; others are refused or fail", async () => {
    const calls = answer(async (turn) =>
      JSON.stringify([await turn.tool("lookup", { ticket: "T-1" }), await turn.tool("lookup", { ticket: 1 }), await turn.tool("nope"), await turn.tool("crash")]),
    );
    const run = await testWorkflow(tooled(), { agents: { a: calls, b: answer(async (turn) => JSON.stringify([await turn.tool("lookup", { ticket: "T-1" })])) } });
    const [byA, byB] = run.value as unknown[][];
    expect(byA![0]).toEqual({ kind: "result", output: { ticket: "T-1", by: "a" } });
    expect(byA![1]).toMatchObject({ kind: "refused", code: "input-refused" });
    expect((byA![1] as { error: string }).error).toStartWith('tool "lookup" refused its input: ');
    expect(byA![2]).toEqual({ kind: "refused", code: "unknown-tool", error: 'no tool "nope"; the workflow declares "lookup", "crash"' });
    expect(byA![3]).toEqual({ kind: "failed", outcome: "failed", error: 'tool "crash" failed: the tracker is down' });
    expect(byB).toEqual([{ kind: "refused", code: "not-granted", error: 'agent "b" was not given tool "lookup"; it was given none' }]);
  });

  test("an agent given a tool the workflow does not declare is refused at open", async () => {
    const run = await testWorkflow(tooled(["search"]), {});
    expect(() => run.value).toThrow('the workflow threw: agent "a" is given tool "search", which the workflow does not declare; it declares "lookup", "crash"');
  });

  test("defineWorkflow refuses a tool without a handler", () => {
    expect(() =>
      defineWorkflow({ name: "broken", description: "x", tools: { lookup: { description: "Looks up.", input: LOOKUP } as never }, run: async () => null }),
    ).toThrow(`workflow broken: tool "lookup" needs "run": a run(input, context) function`);
  });
});

describe("the trace", () => {
  test("lists each message, how it ended, and the messages entry that met its wake", async () => {
    const run = await testWorkflow(pair([BETWEEN]), {
      agents: { a: sending("b", "Which cache?", { awaitReply: true }) },
      messages: { b: (message) => message.reply("The LRU one.") },
    });
    const trace = traceOfRun(run)!;
    expect(trace.messages).toEqual([
      { id: "m1", from: "a", to: "b", text: "Which cache?", awaitReply: true, end: "replied", match: { option: "messages", key: "b", index: null, nudge: false } },
      { id: "m2", from: "b", to: "a", text: "The LRU one.", awaitReply: false, answers: "m1", end: "delivered" },
    ]);
    expect(trace.entries).toContainEqual({ option: "messages", key: "b", index: null, kind: "function" });
    expect(trace.turns.find((turn) => turn.agent === "b")?.match).toEqual({ option: "messages", key: "b", index: null, nudge: false });
  });
});

describe("who may await a reply", () => {
  /** Agent a, on `runtime`, asks b (claude, in a pane) one question; returns what the send resolved to. */
  const askingOn = (runtime: AgentSpec["runtime"]) =>
    defineWorkflow({
      name: "asking-on",
      description: "One agent, on a given runtime, asks another.",
      async run(wf) {
        const a = await wf.agents.open({ key: "a", runtime });
        await wf.agents.open({ key: "b", runtime: "claude" });
        await wf.messages.allow(BETWEEN);
        const { outcome } = await a.run({ prompt: "Ask b." });
        return outcome.kind === "answered" ? JSON.parse(outcome.value) : outcome.kind;
      },
    });
  const replying = { b: (message: ScriptMessage) => message.reply("The LRU one.") };

  test("an agent whose harness cannot block on a reply where it runs is refused cannot-await, with why, and nothing is sent", async () => {
    const refusals: Array<[AgentSpec["runtime"], string]> = [
      [
        { alias: "codex", placement: "headless" },
        'agent "a": codex cannot await a reply headless: headless codex runs each turn as `codex exec`, whose shell commands have a time limit, so `wfa send --await` cannot block until the reply comes',
      ],
      [
        { harness: "cursor", model: "auto", placement: "headless" },
        'agent "a": cursor cannot await a reply headless: headless cursor-agent (`cursor-agent --print`) gives its shell commands a time limit, so `wfa send --await` cannot block until the reply comes',
      ],
    ];
    for (const [runtime, reason] of refusals) {
      const run = await testWorkflow(askingOn(runtime), { agents: { a: sending("b", "Which cache?", { awaitReply: true }) } });
      expect(run.value).toEqual({ kind: "refused", code: "cannot-await", reason });
      expect(run.messagesOf("b")).toEqual([]);
      expect(run.turnsOf("a").map((turn) => turn.outcome)).toEqual(["answered"]);
    }
  });

  test("the same agent may still send without awaiting a reply", async () => {
    const run = await testWorkflow(askingOn({ alias: "codex", placement: "headless" }), {
      agents: { a: sending("b", "The cache is in.") },
      messages: { b: () => undefined },
    });
    expect(run.value).toEqual({ kind: "sent" });
    expect(run.messagesOf("b")).toEqual([{ from: "a", text: "The cache is in.", awaitReply: false, end: "delivered" }]);
  });

  test("a reply that would await one in turn is refused cannot-await too, and the question stays owed", async () => {
    const results: unknown[] = [];
    const run = await testWorkflow(
      pair([BETWEEN], async (wf, a) => {
        await wf.agents.open({ key: "c", runtime: { alias: "codex", placement: "headless" } });
        await wf.messages.allow({ between: ["a", "c"], purpose: "the cache" });
        return (await a.run({ prompt: "Ask c." })).outcome;
      }),
      {
        agents: { a: answer(async (turn) => JSON.stringify(await turn.send("c", "Which cache?", { awaitReply: true }))) },
        messages: {
          c: async (message) => {
            results.push(await message.reply("The LRU one. Shall I add it?", { awaitReply: true }));
            results.push(await message.reply("The LRU one."));
          },
        },
      },
    );
    expect(results[0]).toMatchObject({ kind: "refused", code: "cannot-await" });
    expect(results[1]).toEqual({ kind: "sent" });
    expect(run.value).toEqual({ kind: "answered", value: JSON.stringify({ kind: "replied", text: "The LRU one." }) });
  });

  test("pane agents of every harness, and headless claude and pi, may await a reply", async () => {
    const runtimes: AgentSpec["runtime"][] = [
      "claude",
      "codex",
      { harness: "pi", model: "m" },
      { harness: "cursor", model: "auto" },
      { alias: "claude", placement: "headless", metered: true },
      { harness: "pi", model: "m", placement: "headless" },
    ];
    for (const runtime of runtimes) {
      const run = await testWorkflow(askingOn(runtime), { agents: { a: sending("b", "Which cache?", { awaitReply: true }) }, messages: replying });
      expect({ runtime, result: run.value }).toEqual({ runtime, result: { kind: "replied", text: "The LRU one." } });
    }
  });
});
