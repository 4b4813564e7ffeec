import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow, type Script } from "agentswf/testing";
import { isAnswered } from "agentswf/workflow";
import { problemsOf } from "turnlens/trace";
import { askOnce, deferred, flow, forever, mistake, SUMMARY } from "./workflows";

const asked = askOnce({ prompt: "go" });
const outcomesOf = (run: { turns: readonly { outcome: string }[] }) => run.turns.map((turn) => turn.outcome);

describe("an answer", () => {
  test("ends the turn answered with the value", async () => {
    const run = await testWorkflow(askOnce({ prompt: "sum up", schema: SUMMARY }), { agents: { a: answer(SUMMARY, { summary: "ok" }) } });
    expect(run.value).toEqual({ kind: "answered", value: { summary: "ok" } });
    expect(outcomesOf(run)).toEqual(["answered"]);
  });

  test('answer("text") answers a text turn', async () => {
    const run = await testWorkflow(asked, { agents: { a: answer("plain text") } });
    expect(run.value).toEqual({ kind: "answered", value: "plain text" });
  });

  test("answer(fn) answers a text turn from the turn", async () => {
    const run = await testWorkflow(asked, { agents: { a: answer((turn) => `you said ${turn.prompt}`) } });
    expect(run.value).toEqual({ kind: "answered", value: "you said go" });
  });

  test("answer(SCHEMA, fn) answers from the turn, and may be async", async () => {
    const run = await testWorkflow(askOnce({ prompt: "sum up", schema: SUMMARY }), {
      agents: { a: answer(SUMMARY, async (turn) => ({ summary: `${turn.agent}: ${turn.prompt}` })) },
    });
    expect(run.value).toEqual({ kind: "answered", value: { summary: "a: sum up" } });
  });

  test("isAnswered narrows an outcome to answered", async () => {
    const narrowed = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      const { outcome } = await agent.run({ prompt: "go" });
      return isAnswered(outcome) ? `answered ${outcome.value}` : `not answered: ${outcome.kind}`;
    });
    expect((await testWorkflow(narrowed, { agents: { a: answer("yes") } })).value).toBe("answered yes");
    expect((await testWorkflow(narrowed, { agents: { a: noAnswer.blocked() } })).value).toBe("not answered: blocked");
  });
});

describe("each noAnswer", () => {
  // Each row: the test's name, the script, the outcome the workflow got, and the turns' records.
  const endings: Array<[string, Script, unknown, string[]]> = [
    [
      "silent: unanswered after the one nudge, both records unanswered",
      noAnswer.silent(),
      { kind: "unanswered", reason: "the agent did not answer, even after a nudge" },
      ["unanswered", "unanswered"],
    ],
    [
      "blocked: ends blocked on a permission prompt by default, never nudged",
      noAnswer.blocked(),
      { kind: "blocked", reason: "waiting on a permission prompt" },
      ["blocked"],
    ],
    ["blocked: with the reason given", noAnswer.blocked("asks to run rm"), { kind: "blocked", reason: "asks to run rm" }, ["blocked"]],
    [
      "failed: ends failed, retryable, as a crashed harness does by default",
      noAnswer.failed(),
      { kind: "failed", reason: "harness crashed", retryable: true },
      ["failed"],
    ],
    ["failed: with the reason given", noAnswer.failed("out of memory"), { kind: "failed", reason: "out of memory", retryable: true }, ["failed"]],
    ["timedOut: ends timed-out at once", noAnswer.timedOut(), { kind: "timed-out", reason: "turn timed out" }, ["timed-out"]],
    ["timedOut: with the reason given", noAnswer.timedOut("took 10m"), { kind: "timed-out", reason: "took 10m" }, ["timed-out"]],
  ];
  for (const [name, script, outcome, records] of endings) {
    test(name, async () => {
      const run = await testWorkflow(asked, { agents: { a: script } });
      expect(run.value).toEqual(outcome);
      expect(outcomesOf(run)).toEqual(records);
    });
  }

  test("needsLogin: fails, not retryable, with login naming the agent's harness; never nudged", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go" }, { runtime: "codex" }), { agents: { a: noAnswer.needsLogin() } });
    expect(run.value).toEqual({
      kind: "failed",
      reason: "codex needs a login: run `codex login`",
      retryable: false,
      login: { harness: "codex", run: "codex login" },
    });
    expect(outcomesOf(run)).toEqual(["failed"]);
  });

  test("needsLogin: with the provider given", async () => {
    const run = await testWorkflow(asked, { agents: { a: noAnswer.needsLogin("bedrock") } });
    expect(run.value).toEqual({
      kind: "failed",
      reason: "claude needs a login to bedrock: run `claude login`",
      retryable: false,
      login: { harness: "claude", provider: "bedrock", run: "claude login" },
    });
  });

  test("interrupted: on an agent other than the calling session, fails the test", async () => {
    const error = await mistake(testWorkflow(asked, { agents: { a: noAnswer.interrupted() } }));
    expect(error.message).toBe('agent "a" turn 1: only the calling session can be interrupted by the operator');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "interrupted-not-caller", agent: "a", turn: 1 });
  });

  test("hang: cancelled by a parallel sibling's failure", async () => {
    const sibling = deferred();
    const fan = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      let hung: Promise<{ outcome: unknown }> | undefined;
      const failure = await wf
        .parallel(["hang", "fail"], async (item) => {
          if (item === "hang") return (hung = agent.run({ prompt: "wait" }));
          await sibling.promise;
          throw new Error("sibling broke");
        })
        .catch((error: Error) => error.message);
      return { failure, outcome: (await hung!).outcome };
    });
    const run = await testWorkflow(fan, { agents: { a: answer(() => (sibling.resolve(), noAnswer.hang())) } });
    expect(run.value).toEqual({ failure: "sibling broke", outcome: { kind: "cancelled", reason: "a parallel item failed: sibling broke" } });
    expect(outcomesOf(run)).toEqual(["cancelled"]);
  });

  test("hang: timed-out by the turn's own timeout", async () => {
    const run = await testWorkflow(askOnce({ prompt: "wait", timeout: "20ms" }), { agents: { a: noAnswer.hang() } });
    expect(run.value).toEqual({ kind: "timed-out", reason: "the deadline passed" });
    expect(outcomesOf(run)).toEqual(["timed-out"]);
  });

  test("hang: a turn's timeout may be milliseconds", async () => {
    const run = await testWorkflow(askOnce({ prompt: "wait", timeout: 20 }), { agents: { a: noAnswer.hang() } });
    expect(run.value).toEqual({ kind: "timed-out", reason: "the deadline passed" });
  });

  test("hang: timed-out by the run's timeout", async () => {
    const run = await testWorkflow(asked, { timeout: "20ms", agents: { a: noAnswer.hang() } });
    expect(run.value).toEqual({ kind: "timed-out", reason: "the deadline passed" });
  });

  test("hang: a turn left running when the workflow returns is cancelled", async () => {
    const leaves = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      void agent.run({ prompt: "background" });
      return "returned";
    });
    let signal: AbortSignal | undefined;
    const run = await testWorkflow(leaves, { agents: { a: answer((turn) => ((signal = turn.signal), forever<string>())) } });
    expect(run.value).toBe("returned");
    expect(outcomesOf(run)).toEqual(["cancelled"]);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ kind: "cancelled", reason: "the attempt ended" });
  });
});

describe("a turn the workflow asks wrongly", () => {
  test("with a timeout that is no duration, rejects in the workflow", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go", timeout: "soon" }), { agents: { a: answer("x") } });
    expect(() => run.value).toThrow(`the workflow threw: agent "a": run's "timeout" must be a duration such as "5s", or milliseconds, not "soon"`);
  });

  test("without a prompt, rejects in the workflow", async () => {
    const run = await testWorkflow(askOnce({} as never), { agents: { a: answer("x") } });
    expect(() => run.value).toThrow(`the workflow threw: agent "a": run needs "prompt": the turn's prompt, as text`);
  });
});
