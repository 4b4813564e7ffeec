import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { problemsOf } from "turnlens/trace";
import { askEach, askOnce, askTurns, flow, mistake } from "./workflows";

describe("finding an agent's script", () => {
  test("an exact key wins over a pattern", async () => {
    const run = await testWorkflow(askEach(["worker-1", "worker-2"]), {
      agents: { "worker-*": answer("by pattern"), "worker-2": answer("by key") },
    });
    expect(run.value).toEqual(["by pattern", "by key"]);
  });

  test("a pattern's * is any run of characters", async () => {
    const run = await testWorkflow(askEach(["review.a", "review.", "code-review-b"]), {
      agents: { "review.*": answer("dot"), "*-b": answer("dash") },
    });
    expect(run.value).toEqual(["dot", "dot", "dash"]);
  });

  test("a pattern is anchored at both ends, and all but * in it is literal", async () => {
    const unmatched = async (key: string) => (await mistake(testWorkflow(askEach([key]), { agents: { "review.*": answer("dot"), "*-b": answer("dash") } }))).message;
    const why = 'no script for it; scripted: "review.*", "*-b". It was asked: go';
    expect(await unmatched("reviewXa")).toBe(`agent "reviewXa" turn 1: ${why}`);
    expect(await unmatched("pre-review.a")).toBe(`agent "pre-review.a" turn 1: ${why}`);
    expect(await unmatched("a-b-c")).toBe(`agent "a-b-c" turn 1: ${why}`);
  });

  test("two patterns matching one key fail the test", async () => {
    const error = await mistake(testWorkflow(askEach(["worker-1"], "build it"), { agents: { "worker-*": answer("a"), "*-1": answer("b") } }));
    expect(error.message).toBe('agent "worker-1" turn 1: it matches "worker-*" and "*-1"; give it a script of its own. It was asked: build it');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "glob-conflict", patterns: ["worker-*", "*-1"], agent: "worker-1" });
  });

  test("an agent when no agent is scripted fails the test", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "Summarise it.\nIn two sentences." }), {}));
    expect(error.message).toBe('agent "a" turn 1: no agent is scripted. It was asked: Summarise it.');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "no-scripts", agent: "a", turn: 1, nudge: false });
  });

  test("an agent with no script of its own fails the test, listing the scripted keys", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "go" }), { agents: { b: answer("x"), "c-*": answer("y") } }));
    expect(error.message).toBe('agent "a" turn 1: no script for it; scripted: "b", "c-*". It was asked: go');
    expect(problemsOf(error)?.[0]?.code).toBe("agent-unscripted");
  });

  test("the prompt in a message is its first line, cut at 100 characters", async () => {
    const long = "x".repeat(120);
    const error = await mistake(testWorkflow(askOnce({ prompt: `${long}\nsecond line` }), {}));
    expect(error.message).toBe(`agent "a" turn 1: no agent is scripted. It was asked: ${"x".repeat(100)}…`);
  });

  test("the first mistake ends the run; the workflow does nothing after it", async () => {
    let after = false;
    const twoAgents = flow(async (wf) => {
      const a = await wf.agents.open({ key: "a", runtime: "claude" });
      await a.run({ prompt: "one" });
      after = true;
    });
    await mistake(testWorkflow(twoAgents, {}));
    expect(after).toBe(false);
  });
});

describe("walking a script", () => {
  test("one entry meets every turn of its agent", async () => {
    const run = await testWorkflow(askTurns(["one", "two", "three"]), { agents: { a: answer("same") } });
    expect(run.value).toEqual(["answered", "answered", "answered"]);
  });

  test("a list meets one turn each, in order", async () => {
    const run = await testWorkflow(askTurns(["one", "two", "three"]), {
      agents: { a: [answer("first"), noAnswer.blocked(), answer((turn) => `third: ${turn.prompt}`)] },
    });
    expect(run.value).toEqual(["answered", "blocked", "answered"]);
  });

  test("a turn past a list's end fails the test", async () => {
    const error = await mistake(testWorkflow(askTurns(["one", "two"]), { agents: { a: [answer("first")] } }));
    expect(error.message).toBe('agent "a" turn 2: its script has 1 turn. It was asked: two');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "list-exhausted", key: "a", index: 1 });
  });

  test("a turn past a pattern's list names the pattern and counts in the plural", async () => {
    const error = await mistake(testWorkflow(askTurns(["one", "two", "three"], "w-1"), { agents: { "w-*": [answer("1"), answer("2")] } }));
    expect(error.message).toBe('agent "w-1" turn 3: its script ("w-*") has 2 turns. It was asked: three');
  });

  test("a list under a pattern is walked per agent", async () => {
    const run = await testWorkflow(askEach(["w-1", "w-2", "w-3"]), { agents: { "w-*": [answer("own first")] } });
    expect(run.value).toEqual(["own first", "own first", "own first"]);
  });
});

describe("a list entry never reached", () => {
  test("fails the test after the run", async () => {
    const error = await mistake(testWorkflow(askTurns(["one"]), { agents: { a: [answer("1"), answer("2")] } }));
    expect(error.message).toBe('agent "a" was asked 1 turn; its script has 2');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "entry-never-reached", agent: "a", key: "a", index: 1 });
  });

  test("under a pattern, names the pattern", async () => {
    const error = await mistake(testWorkflow(askTurns(["one", "two"], "w-1"), { agents: { "w-*": [answer("1"), answer("2"), answer("3")] } }));
    expect(error.message).toBe('agent "w-1" was asked 2 turns; its script ("w-*") has 3');
  });

  test("is counted per agent under a pattern", async () => {
    const uneven = flow(async (wf) => {
      const one = await wf.agents.open({ key: "w-1", runtime: "claude" });
      const two = await wf.agents.open({ key: "w-2", runtime: "claude" });
      await one.run({ prompt: "a" });
      await one.run({ prompt: "b" });
      await two.run({ prompt: "c" });
    });
    const error = await mistake(testWorkflow(uneven, { agents: { "w-*": [answer("1"), answer("2")] } }));
    expect(error.message).toBe('agent "w-2" was asked 1 turn; its script ("w-*") has 2');
  });

  test("a list for an agent never asked fails the test", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "go" }), { agents: { a: answer("x"), b: [answer("1"), answer("2")] } }));
    expect(error.message).toBe('agent "b" was never asked; its script has 2 turns');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "list-never-asked", agent: "b", key: "b", index: 0 });
  });

  test("a pattern's list no agent matched fails the test", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "go" }), { agents: { a: answer("x"), "v-*": [answer("1")] } }));
    expect(error.message).toBe('no agent matching "v-*" was asked; its script has 1 turn');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "list-never-asked", pattern: "v-*" });
  });

  test("a single entry is never one: a shared happy path may script agents a test never opens", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go" }), {
      agents: { a: answer("x"), b: answer("unused"), "v-*": noAnswer.silent() },
    });
    expect(run.value).toEqual({ kind: "answered", value: "x" });
  });

  test("is reported only when nothing else failed the test", async () => {
    const error = await mistake(testWorkflow(askTurns(["one", "two"]), { agents: { a: [answer("1"), answer(() => undefined as never)], b: [answer("b")] } }));
    expect(error.message).toBe('agent "a" turn 2: its script returned nothing. It was asked: two');
  });

  test("beside a workflow that threw, adds what it threw", async () => {
    const throws = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      await agent.run({ prompt: "one" });
      throw new Error("lens ids must be unique");
    });
    const error = await mistake(testWorkflow(throws, { agents: { a: [answer("1"), answer("2")] } }));
    expect(error.message).toBe('agent "a" was asked 1 turn; its script has 2\nthe workflow threw: lens ids must be unique');
    expect(problemsOf(error)?.map((problem) => problem.code)).toEqual(["entry-never-reached", "workflow-threw"]);
  });

  test("a workflow that threw with every list walked is no mistake of the test", async () => {
    const throws = flow(async () => {
      throw new Error("lens ids must be unique");
    });
    const run = await testWorkflow(throws, { agents: { a: answer("x") } });
    expect(() => run.value).toThrow("the workflow threw: lens ids must be unique");
  });
});
