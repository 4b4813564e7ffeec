import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, type Outcome } from "agentswf/workflow";
import { traceOfTurn } from "turnlens/trace";
import type { AgentHost, HostEnd, TurnOperation } from "../../core/workflow/host.ts";
import { askOnce, askTurns, SUMMARY } from "./workflows";
import { runOnEngine } from "./engineRun";

const shape = (run: { turns: readonly { n: number; nudge: boolean; outcome: string }[] }) => run.turns.map(({ n, nudge, outcome }) => ({ n, nudge, outcome }));

describe("a turn that ends without an answer", () => {
  test("is nudged once: two records, the nudge keeping the turn's number, both unanswered", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go" }), { agents: { a: noAnswer.silent() } });
    expect(shape(run)).toEqual([
      { n: 1, nudge: false, outcome: "unanswered" },
      { n: 1, nudge: true, outcome: "unanswered" },
    ]);
    expect(run.turns.map((turn) => turn.prompt)).toEqual(["go", "go"]);
    expect(traceOfTurn(run.turns[0]!)?.reason).toBe("a nudge followed");
    expect(traceOfTurn(run.turns[1]!)?.reason).toBe("the agent did not answer, even after a nudge");
  });

  test("with nudge: false, isn't nudged", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go", nudge: false }), { agents: { a: noAnswer.silent() } });
    expect(run.value).toEqual({ kind: "unanswered", reason: "the turn ended without an answer" });
    expect(shape(run)).toEqual([{ n: 1, nudge: false, outcome: "unanswered" }]);
  });

  test("with nudge: { prompt }, is nudged once all the same", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go", nudge: { prompt: "Answer, please." } }), { agents: { a: noAnswer.silent() } });
    expect(run.turns.map((turn) => turn.nudge)).toEqual([false, true]);
  });

  test("answer(SCHEMA, fn) is called again for the nudge, with turn.nudge true", async () => {
    const seen: Array<{ n: number; nudge: boolean }> = [];
    const run = await testWorkflow(askOnce({ prompt: "sum up", schema: SUMMARY }), {
      agents: {
        a: answer(SUMMARY, (turn) => {
          seen.push({ n: turn.n, nudge: turn.nudge });
          return turn.nudge ? { summary: "on the nudge" } : noAnswer.silent();
        }),
      },
    });
    expect(seen).toEqual([
      { n: 1, nudge: false },
      { n: 1, nudge: true },
    ]);
    expect(run.value).toEqual({ kind: "answered", value: { summary: "on the nudge" } });
    expect(shape(run)).toEqual([
      { n: 1, nudge: false, outcome: "unanswered" },
      { n: 1, nudge: true, outcome: "answered" },
    ]);
  });

  test("a nudge takes no slot in a list: the same entry meets it", async () => {
    const run = await testWorkflow(askTurns(["one", "two"]), {
      agents: { a: [answer((turn) => (turn.nudge ? "late" : noAnswer.silent())), answer("second")] },
    });
    expect(run.value).toEqual(["answered", "answered"]);
    expect(shape(run)).toEqual([
      { n: 1, nudge: false, outcome: "unanswered" },
      { n: 1, nudge: true, outcome: "answered" },
      { n: 2, nudge: false, outcome: "answered" },
    ]);
  });

  test("a value entry always answers, so it is never nudged", async () => {
    const run = await testWorkflow(askTurns(["one", "two"]), { agents: { a: answer("ok") } });
    expect(shape(run)).toEqual([
      { n: 1, nudge: false, outcome: "answered" },
      { n: 2, nudge: false, outcome: "answered" },
    ]);
  });

  for (const [what, entry] of [
    ["blocked", noAnswer.blocked()],
    ["failed", noAnswer.failed()],
    ["timed out", noAnswer.timedOut()],
    ["needing a login", noAnswer.needsLogin()],
  ] as const) {
    test(`one ${what} is never nudged`, async () => {
      const run = await testWorkflow(askOnce({ prompt: "go" }), { agents: { a: entry } });
      expect(run.turns.map((turn) => turn.nudge)).toEqual([false]);
    });
  }
});

describe("the nudge the engine hands the host", () => {
  // The nudge's wording isn't part of a Turn, so these drive the engine with a host of their own.
  async function operations(nudge?: boolean | { prompt: string }) {
    const seen: TurnOperation[] = [];
    const settled: Array<{ nudge: boolean; outcome: Outcome }> = [];
    const host: AgentHost = {
      opened: () => {},
      run: async (operation): Promise<HostEnd> => (seen.push(operation), { kind: "silent" }),
      settle: (operation, outcome) => void settled.push({ nudge: operation.nudge, outcome }),
    };
    const workflow = defineWorkflow({
      name: "nudged",
      description: "Asks once.",
      run: async (wf) => {
        const agent = await wf.agents.open({ key: "a", runtime: "claude" });
        return (await agent.run({ prompt: "go", ...(nudge !== undefined ? { nudge } : {}) })).outcome;
      },
    });
    const result = await runOnEngine(workflow, host);
    return { seen, settled, ending: result.ending };
  }

  test("words the nudge by default, on the nudge only, keeping the authored prompt", async () => {
    const { seen, settled } = await operations();
    expect(seen.map((operation) => [operation.nudge, operation.prompt, operation.nudgePrompt])).toEqual([
      [false, "go", undefined],
      [true, "go", "You ended your turn without an answer. Answer now, as the turn asked."],
    ]);
    expect(settled).toEqual([
      { nudge: false, outcome: { kind: "unanswered", reason: "a nudge followed" } },
      { nudge: true, outcome: { kind: "unanswered", reason: "the agent did not answer, even after a nudge" } },
    ]);
  });

  test("words it as nudge: { prompt } says", async () => {
    const { seen } = await operations({ prompt: "Answer, please." });
    expect(seen.map((operation) => operation.nudgePrompt)).toEqual([undefined, "Answer, please."]);
  });

  test("asks no nudge with nudge: false", async () => {
    const { seen, ending } = await operations(false);
    expect(seen).toHaveLength(1);
    expect(ending).toMatchObject({ kind: "completed", value: { kind: "unanswered", reason: "the turn ended without an answer" } });
  });
});
