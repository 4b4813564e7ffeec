import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { askEach, deferred, flow } from "./workflows";

const tick = () => new Promise<void>((done) => setImmediate(done));

describe("wf.parallel", () => {
  test("gives results in item order, whatever order the items finish in", async () => {
    const finished: number[] = [];
    const fan = flow((wf) =>
      wf.parallel([3, 1, 2], async (ticks, index) => {
        for (let n = 0; n < ticks; n++) await tick();
        finished.push(index);
        return `item ${index} after ${ticks}`;
      }),
    );
    const run = await testWorkflow(fan);
    expect(finished).toEqual([1, 2, 0]);
    expect(run.value).toEqual(["item 0 after 3", "item 1 after 1", "item 2 after 2"]);
  });

  test("runs agents' turns at once, read back by key", async () => {
    const run = await testWorkflow(askEach(["w-1", "w-2", "w-3"]), { agents: { "w-*": answer((turn) => `by ${turn.agent}`) } });
    expect(run.value).toEqual(["by w-1", "by w-2", "by w-3"]);
    expect(run.turnsOf("w-2").map((turn) => turn.outcome)).toEqual(["answered"]);
  });

  test("runs every item at once by default", async () => {
    let running = 0;
    let most = 0;
    const fan = flow((wf) =>
      wf.parallel([1, 2, 3, 4, 5], async () => {
        most = Math.max(most, ++running);
        for (let n = 0; n < 3; n++) await tick();
        running--;
      }),
    );
    await testWorkflow(fan);
    expect(most).toBe(5);
  });

  test("runs at most concurrency items at once", async () => {
    let running = 0;
    let most = 0;
    const fan = flow((wf) =>
      wf.parallel(
        [1, 2, 3, 4, 5],
        async (item) => {
          most = Math.max(most, ++running);
          for (let n = 0; n < 3; n++) await tick();
          running--;
          return item * 10;
        },
        { concurrency: 2 },
      ),
    );
    const run = await testWorkflow(fan);
    expect(most).toBe(2);
    expect(run.value).toEqual([10, 20, 30, 40, 50]);
  });

  test("of no items gives no results", async () => {
    expect((await testWorkflow(flow((wf) => wf.parallel([], async () => 1)))).value).toEqual([]);
  });

  test("is fail-fast: the first item to throw cancels its siblings' turns, aborts their signals, and rejects with its error", async () => {
    const started = deferred();
    const signals: AbortSignal[] = [];
    const fan = flow(async (wf) => {
      const turns: Array<Promise<unknown>> = [];
      const failure = await wf
        .parallel(["w-1", "w-2", "boom"], async (key) => {
          if (key === "boom") {
            await started.promise;
            throw new Error("one broke");
          }
          const agent = await wf.agents.open({ key, runtime: "claude" });
          const turn = agent.run({ prompt: "work" });
          turns.push(turn);
          return turn;
        })
        .catch((error: Error) => error.message);
      return { failure, outcomes: (await Promise.all(turns)).map((turn) => (turn as { outcome: unknown }).outcome) };
    });
    const run = await testWorkflow(fan, {
      agents: {
        "w-*": answer((turn) => {
          signals.push(turn.signal);
          if (signals.length === 2) started.resolve();
          return new Promise<string>(() => {});
        }),
      },
    });
    const cancelled = { kind: "cancelled", reason: "a parallel item failed: one broke" };
    expect(run.value).toEqual({ failure: "one broke", outcomes: [cancelled, cancelled] });
    expect(run.turns.map((turn) => turn.outcome)).toEqual(["cancelled", "cancelled"]);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
  });

  test("that fails takes the workflow with it when uncaught", async () => {
    const fan = flow((wf) =>
      wf.parallel([1, 2], async (item) => {
        if (item === 2) throw new Error("item 2 broke");
        return item;
      }),
    );
    const run = await testWorkflow(fan);
    expect(() => run.value).toThrow("the workflow threw: item 2 broke");
    expect(run.ending).toMatchObject({ kind: "failed", reason: "item 2 broke" });
  });

  test("past its deadline rejects with DeadlineExceededError", async () => {
    const fan = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      const error = await wf
        .parallel([1], () => agent.run({ prompt: "wait" }), { deadline: "20ms" })
        .then(
          () => undefined,
          (caught: Error & { code?: string }) => caught,
        );
      return { name: error?.name, code: error?.code, message: error?.message };
    });
    const run = await testWorkflow(fan, { agents: { a: noAnswer.hang() } });
    expect(run.value).toEqual({ name: "DeadlineExceededError", code: "deadline-exceeded", message: "parallel's deadline passed" });
  });

  test("past its deadline times out the turns inside it", async () => {
    const fan = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      let inside: Promise<{ outcome: unknown }> | undefined;
      await wf.parallel([1], () => (inside = agent.run({ prompt: "wait" })), { deadline: 20 }).catch(() => undefined);
      return (await inside!).outcome;
    });
    const run = await testWorkflow(fan, { agents: { a: noAnswer.hang() } });
    expect(run.value).toEqual({ kind: "timed-out", reason: "the deadline passed" });
    expect(run.turns.map((turn) => turn.outcome)).toEqual(["timed-out"]);
  });

  test("past its own deadline, uncaught, fails the run rather than timing it out", async () => {
    const fan = flow((wf) => wf.parallel([1], () => new Promise(() => {}), { deadline: "20ms" }));
    const run = await testWorkflow(fan);
    expect(run.ending).toMatchObject({ kind: "failed", reason: "parallel's deadline passed" });
  });

  test("with a deadline that is no duration rejects", async () => {
    const run = await testWorkflow(flow((wf) => wf.parallel([1], async () => 1, { deadline: "later" })));
    expect(() => run.value).toThrow(`the workflow threw: wf.parallel's "deadline" must be a duration such as "5s", or milliseconds, not "later"`);
  });

  test("without an array of items or a function rejects", async () => {
    const noItems = await testWorkflow(flow((wf) => wf.parallel("abc" as never, async () => 1)));
    expect(() => noItems.value).toThrow("the workflow threw: wf.parallel takes an array of items");
    const noWork = await testWorkflow(flow((wf) => wf.parallel([1], undefined as never)));
    expect(() => noWork.value).toThrow("the workflow threw: wf.parallel takes a function to run for each item");
  });
});

describe("the run's deadline", () => {
  test("passing inside parallel with a later deadline of its own times the run out", async () => {
    const fan = flow((wf) => wf.parallel([1], () => new Promise(() => {}), { deadline: "1h" }));
    const run = await testWorkflow(fan, { timeout: "20ms" });
    expect(run.ending).toMatchObject({ kind: "timed-out", reason: "the run's deadline passed" });
  });

  test("is the only deadline when parallel has none of its own", async () => {
    const fan = flow((wf) => wf.parallel([1], () => new Promise(() => {})));
    const run = await testWorkflow(fan, { timeout: "20ms" });
    expect(run.ending).toMatchObject({ kind: "timed-out", reason: "the run's deadline passed" });
  });
});
