import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { answer, testWorkflow, type TestOptions, type Turn } from "agentswf/testing";
import { defineWorkflow, type AgentRef, type AgentSpec, type RuntimeSelection } from "agentswf/workflow";
import type { AgentHost, TurnOperation } from "../../core/workflow/host.ts";
import { runOnEngine } from "./engineRun";
import { askOnce, deferred, flow, forever, SUMMARY } from "./workflows";

describe("the turn a script function gets", () => {
  test("has the agent, n, nudge, prompt, schema, label, stage, cwd, model, effort and signal", async () => {
    let seen: Turn | undefined;
    const staged = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "writer", runtime: { alias: "codex", effort: "high" }, cwd: "/srv/repo" });
      await wf.stage("draft", async () => {
        await agent.run({ prompt: "warm up" });
        await agent.run({ prompt: "Draft it.\nCarefully.", schema: SUMMARY, label: "Draft the doc" });
      });
    });
    await testWorkflow(staged, {
      agents: { writer: [answer("warm"), answer(SUMMARY, (turn) => ((seen = turn), { summary: "drafted" }))] },
    });
    const { signal, send, reply, tool, ...fields } = seen!;
    expect(fields).toEqual({
      agent: "writer",
      n: 2,
      nudge: false,
      prompt: "Draft it.\nCarefully.",
      schema: SUMMARY,
      label: "Draft the doc",
      stage: "draft",
      cwd: "/srv/repo",
      model: "gpt-5.6-sol",
      effort: "high",
      messages: [],
    });
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    expect([typeof send, typeof reply, typeof tool]).toEqual(["function", "function", "function"]);
  });

  test("leaves out schema, label, stage and effort when the turn has none", async () => {
    let seen: Turn | undefined;
    await testWorkflow(askOnce({ prompt: "go" }), { agents: { a: answer((turn) => ((seen = turn), "ok")) } });
    expect(Object.keys(seen!).sort()).toEqual(["agent", "cwd", "messages", "model", "n", "nudge", "prompt", "reply", "send", "signal", "tool"]);
    expect(seen!.model).toBe("sonnet");
  });

  test("send, reply and tool resolve to values the script reads, never throws", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go" }), {
      agents: {
        a: answer(async (turn) => JSON.stringify([await turn.send("b", "hi"), await turn.reply("b", "hi"), (await turn.tool("lookup")).kind])),
      },
    });
    expect(run.value).toEqual({
      kind: "answered",
      value: JSON.stringify([{ kind: "refused", code: "unknown-peer" }, { kind: "refused", code: "no-question" }, "refused"]),
    });
  });
});

describe("turns", () => {
  test("of one agent run one at a time, in call order", async () => {
    const events: string[] = [];
    const both = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      const [first, second] = await Promise.all([agent.run({ prompt: "first" }), agent.run({ prompt: "second" })]);
      return [first.outcome, second.outcome];
    });
    const run = await testWorkflow(both, {
      agents: {
        a: answer(async (turn) => {
          events.push(`start ${turn.prompt}`);
          for (let tick = 0; tick < 5; tick++) await new Promise((done) => setImmediate(done));
          events.push(`end ${turn.prompt}`);
          return `${turn.n}: ${turn.prompt}`;
        }),
      },
    });
    expect(events).toEqual(["start first", "end first", "start second", "end second"]);
    expect(run.value).toEqual([
      { kind: "answered", value: "1: first" },
      { kind: "answered", value: "2: second" },
    ]);
  });

  test("of different agents run at once: one's answer can wait for the other's turn to start", async () => {
    const bStarted = deferred();
    const pair = flow(async (wf) => {
      const [a, b] = await Promise.all(["a", "b"].map((key) => wf.agents.open({ key, runtime: "claude" })));
      const answers = await Promise.all([a!.run({ prompt: "wait for b" }), b!.run({ prompt: "start" })]);
      return answers.map(({ outcome }) => outcome.kind);
    });
    const run = await testWorkflow(pair, {
      agents: {
        a: answer(async () => (await bStarted.promise, "after b started")),
        b: answer(() => (bStarted.resolve(), "started")),
      },
    });
    expect(run.value).toEqual(["answered", "answered"]);
    expect(run.turns.map((turn) => turn.agent)).toEqual(["a", "b"]);
  });
});

describe("opening an agent", () => {
  const opens = (...specs: AgentSpec[]) =>
    flow(async (wf) => {
      const refs: AgentRef[] = [];
      for (const spec of specs) refs.push(await wf.agents.open(spec));
      return refs.map((ref) => (ref === refs[0] ? "same" : "other"));
    });

  test("again with the same spec gives the same ref", async () => {
    const spec: AgentSpec = { key: "a", runtime: "claude", instructions: "Be brief." };
    const run = await testWorkflow(opens(spec, { ...spec }));
    expect(run.value).toEqual(["same", "same"]);
    expect(run.agents).toHaveLength(1);
  });

  test("again with fields left out gives the same ref: what's omitted doesn't constrain", async () => {
    const run = await testWorkflow(opens({ key: "a", runtime: "claude", instructions: "Be brief.", cwd: "/srv" }, { key: "a", runtime: "claude" }));
    expect(run.value).toEqual(["same", "same"]);
  });

  test("again with a conflicting runtime rejects", async () => {
    const run = await testWorkflow(opens({ key: "a", runtime: "claude" }, { key: "a", runtime: "codex" }));
    expect(() => run.value).toThrow('the workflow threw: agent "a" is already open with another runtime');
  });

  test("again with conflicting fields rejects, naming each", async () => {
    const run = await testWorkflow(
      opens({ key: "a", runtime: "claude", instructions: "Be brief.", cwd: "/one" }, { key: "a", runtime: "claude", instructions: "Be long.", cwd: "/two" }),
    );
    expect(() => run.value).toThrow('the workflow threw: agent "a" is already open with another instructions, cwd');
  });

  test("without a key rejects", async () => {
    const run = await testWorkflow(opens({ runtime: "claude" } as AgentSpec));
    expect(() => run.value).toThrow(`the workflow threw: wf.agents.open needs "key": an agent's key, as text`);
  });
});

describe("runtimes", () => {
  const executionOf = (runtime: RuntimeSelection, options: TestOptions<null> = {}) =>
    testWorkflow(
      flow(async (wf) => (await wf.agents.open({ key: "a", runtime })).execution),
      options,
    );

  test("claude and codex are there by default", async () => {
    expect((await executionOf("claude")).value).toEqual({ harness: "claude", model: "sonnet", placement: "pane", alias: "claude" });
    expect((await executionOf("codex")).value).toEqual({ harness: "codex", model: "gpt-5.6-sol", placement: "pane", alias: "codex" });
  });

  test("an alias a run wouldn't know fails the test, naming the workflow's wf.agents.open line, even when the workflow catches it", async () => {
    const opensGemini = flow(async (wf) => {
      try {
        await wf.agents.open({ key: "g", runtime: "gemini" }); // the line the message names
      } catch {
        return "caught";
      }
      return "opened";
    });
    const line =
      readFileSync(fileURLToPath(import.meta.url), "utf8")
        .split("\n")
        .findIndex((text) => text.includes("the line the message names")) + 1;
    const rejection = await testWorkflow(opensGemini).then(
      () => undefined,
      (error: Error & { code?: string }) => error,
    );
    expect(rejection?.code).toBe("runtime-unknown");
    expect(rejection?.message).toMatch(
      new RegExp(
        `^agent "g": no runtime "gemini"; known: "claude", "codex" \\(wf\\.agents\\.open at test/core/agents\\.test\\.ts:${line}:\\d+\\); give it in testWorkflow's runtimes, or open the agent with one of those$`,
      ),
    );
  });

  test("the runtimes option adds aliases", async () => {
    const run = await executionOf("fast", { runtimes: { fast: { harness: "claude", model: "haiku", effort: "low" } } });
    expect(run.value).toEqual({ harness: "claude", model: "haiku", effort: "low", placement: "pane", alias: "fast" });
    expect(run.agentOf("a").execution).toEqual(run.value);
  });

  test("a name the runtimes option repeats replaces that alias", async () => {
    const run = await executionOf("claude", { runtimes: { claude: { harness: "claude", model: "opus" } } });
    expect(run.value).toEqual({ harness: "claude", model: "opus", placement: "pane", alias: "claude" });
    await expect(executionOf("nope", { runtimes: { fast: { harness: "pi", model: "m" } } })).rejects.toThrow(
      'agent "a": no runtime "nope"; known: "claude", "codex", "fast"',
    );
  });

  test("an alias with overrides takes effort, placement and metered, but its harness and model must match", async () => {
    const run = await executionOf({ alias: "claude", model: "sonnet", effort: "max", placement: "headless", metered: true });
    expect(run.value).toEqual({ harness: "claude", model: "sonnet", effort: "max", placement: "headless", metered: true, alias: "claude" });
    const other = await executionOf({ alias: "claude", model: "opus" });
    expect(() => other.value).toThrow('agent "a": runtime "claude" runs model sonnet, not opus');
  });

  test("a full selection needs a known harness", async () => {
    expect((await executionOf({ harness: "pi", model: "m1", effort: "off" })).value).toEqual({ harness: "pi", model: "m1", effort: "off", placement: "pane" });
    const run = await executionOf({ harness: "gemini", model: "g" });
    expect(() => run.value).toThrow('agent "a": no harness "gemini"; known: "claude", "codex", "pi", "cursor"');
  });

  test("an effort the harness doesn't list is refused before any turn", async () => {
    const run = await executionOf({ alias: "claude", effort: "ultracode" });
    expect(() => run.value).toThrow('the workflow threw: agent "a": claude has no effort "ultracode"; its levels are low, medium, high, xhigh, max');
    const cursor = await executionOf({ harness: "cursor", model: "c", effort: "high" });
    expect(() => cursor.value).toThrow('agent "a": cursor has no effort "high"; it has no effort levels');
  });

  test("headless claude is refused unless metered", async () => {
    const run = await executionOf({ alias: "claude", placement: "headless" });
    expect(() => run.value).toThrow('the workflow threw: agent "a": headless claude is metered; set metered: true');
    expect((await executionOf({ harness: "codex", model: "x", placement: "headless" })).value).toMatchObject({ placement: "headless" });
  });

  test("a placement no harness runs is refused", async () => {
    const run = await executionOf({ harness: "pi", model: "m", placement: "cloud" as never });
    expect(() => run.value).toThrow('agent "a": pi does not run cloud');
  });
});

describe("the signal of an operation the engine hands a host", () => {
  // The engine makes an operation's signal when the host first reads it; either way it says the same.
  async function stoppedTurn(readSignal: "while it runs" | "after it was stopped") {
    let operation: TurnOperation | undefined;
    const running = deferred();
    let abortedAs: unknown;
    const host: AgentHost = {
      opened: () => {},
      run: (given) => {
        operation = given;
        if (readSignal === "while it runs") given.signal.addEventListener("abort", () => (abortedAs = given.signal.reason), { once: true });
        running.resolve();
        return forever();
      },
      settle: () => {},
    };
    const workflow = defineWorkflow({
      name: "stopped",
      description: "Stops its agent mid-turn.",
      run: async (wf) => {
        const agent = await wf.agents.open({ key: "a", runtime: "claude" });
        const turn = agent.run({ prompt: "go" });
        await running.promise;
        wf.agents.stop("a", "enough");
        return (await turn).outcome;
      },
    });
    const result = await runOnEngine(workflow, host);
    return { result, signal: operation!.signal, abortedAs };
  }

  test("read while the turn runs, aborts when the engine cancels the turn, with the cancel's reason", async () => {
    const { result, signal, abortedAs } = await stoppedTurn("while it runs");
    expect(result.ending).toMatchObject({ kind: "completed", value: { kind: "cancelled", reason: "the agent was stopped: enough" } });
    expect(signal.aborted).toBe(true);
    expect(abortedAs).toMatchObject({ kind: "cancelled", reason: "the agent was stopped: enough" });
  });

  test("read first after the engine cancelled the turn, is already aborted, with the cancel's reason", async () => {
    const { result, signal } = await stoppedTurn("after it was stopped");
    expect(result.ending).toMatchObject({ kind: "completed", value: { kind: "cancelled", reason: "the agent was stopped: enough" } });
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ kind: "cancelled", reason: "the agent was stopped: enough" });
  });
});
