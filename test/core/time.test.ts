import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { parseDuration } from "agentswf/workflow";
import { problemsOf } from "turnlens/trace";
import { ScriptedHost } from "../../core/testing/scriptedHost.ts";
import { readScripts, ScriptBook } from "../../core/testing/scripts.ts";
import { StallGuard } from "../../core/testing/stallGuard.ts";
import { askOnce, askTurns, flow, forever, mistake } from "./workflows";

describe("stall", () => {
  test("a script still deciding fails the test, naming the turn in flight and where its entry was written", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "think" }), { stall: "30ms", agents: { a: answer(() => forever<string>()) } }));
    expect(error.message).toBe('the run stalled: nothing started or ended for 30 ms; in flight: "a" turn 1');
    // The entry's site is where every reporter and the editor place the stall.
    const sites = [{ file: import.meta.filename, line: 12, column: 106 }];
    expect(problemsOf(error)).toEqual([{ code: "stall", option: "stall", inFlight: [{ agent: "a", n: 1, nudge: false }], sites, message: error.message }]);
  });

  test("names a nudge in flight as one", async () => {
    const error = await mistake(
      testWorkflow(askOnce({ prompt: "think" }), {
        stall: "30ms",
        agents: { a: answer((turn) => (turn.nudge ? forever<string>() : noAnswer.silent())) },
      }),
    );
    expect(error.message).toBe('the run stalled: nothing started or ended for 30 ms; in flight: "a" turn 1 (nudge)');
  });

  test("lists every turn in flight", async () => {
    const both = flow(async (wf) => {
      const [a, b] = await Promise.all(["a", "b"].map((key) => wf.agents.open({ key, runtime: "claude" })));
      return Promise.all([a!.run({ prompt: "one" }), b!.run({ prompt: "two" })]);
    });
    const error = await mistake(testWorkflow(both, { stall: "30ms", agents: { a: noAnswer.hang(), b: noAnswer.hang() } }));
    expect(error.message).toBe('the run stalled: nothing started or ended for 30 ms; in flight: "a" turn 1, "b" turn 1');
  });

  test("says so when no turn is in flight", async () => {
    const waits = flow(async () => forever<string>());
    const error = await mistake(testWorkflow(waits, { stall: "20ms" }));
    expect(error.message).toBe("the run stalled: nothing started or ended for 20 ms; no turn in flight");
    expect(problemsOf(error)?.[0]?.inFlight).toEqual([]);
  });

  test("a run busier than the stall, but never quiet for it, passes", async () => {
    const prompts = Array.from({ length: 8 }, (_, index) => `step ${index + 1}`);
    const run = await testWorkflow(askTurns(prompts), {
      stall: "1s",
      agents: { a: answer(async () => (await new Promise((done) => setImmediate(done)), "ok")) },
    });
    expect(run.value).toEqual(prompts.map(() => "answered"));
  });
});

describe("maxTurns", () => {
  const loop = flow(async (wf) => {
    const agent = await wf.agents.open({ key: "a", runtime: "claude" });
    for (let n = 1; ; n++) await agent.run({ prompt: `turn ${n}\nmore detail` });
  }, "loop");

  test("a run that starts more than 20 turns fails the test by default", async () => {
    const error = await mistake(testWorkflow(loop, { agents: { a: answer("again") } }));
    expect(error.message).toBe('agent "a" turn 21: the run started more than 20 turns (maxTurns). It was asked: turn 21');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "max-turns", option: "maxTurns", agent: "a", turn: 21 });
  });

  test("given, is the limit", async () => {
    const error = await mistake(testWorkflow(loop, { maxTurns: 2, agents: { a: answer("again") } }));
    expect(error.message).toBe('agent "a" turn 3: the run started more than 2 turns (maxTurns). It was asked: turn 3');
  });

  test("one turn is worded as one", async () => {
    const error = await mistake(testWorkflow(loop, { maxTurns: 1, agents: { a: answer("again") } }));
    expect(error.message).toBe('agent "a" turn 2: the run started more than 1 turn (maxTurns). It was asked: turn 2');
  });

  test("0 fails at the first turn", async () => {
    const error = await mistake(testWorkflow(loop, { maxTurns: 0, agents: { a: answer("again") } }));
    expect(error.message).toBe('agent "a" turn 1: the run started more than 0 turns (maxTurns). It was asked: turn 1');
  });

  test("exactly maxTurns turns pass", async () => {
    const run = await testWorkflow(askTurns(["one", "two"]), { maxTurns: 2, agents: { a: answer("ok") } });
    expect(run.value).toEqual(["answered", "answered"]);
  });

  test("nudges don't count toward it", async () => {
    const run = await testWorkflow(askOnce({ prompt: "quiet" }), { maxTurns: 1, agents: { a: noAnswer.silent() } });
    expect(run.turns.map((turn) => turn.nudge)).toEqual([false, true]);
  });
});

describe("timeout", () => {
  test("is the run's deadline: a hung turn past it ends timed-out", async () => {
    const run = await testWorkflow(askOnce({ prompt: "wait" }), { timeout: "20ms", agents: { a: noAnswer.hang() } });
    expect(run.value).toEqual({ kind: "timed-out", reason: "the deadline passed" });
    expect(run.turnsOf("a").map((turn) => turn.outcome)).toEqual(["timed-out"]);
  });

  test("a run waiting on parallel past it ends timed-out", async () => {
    const fan = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      return wf.parallel([1], () => agent.run({ prompt: "wait" }));
    });
    const run = await testWorkflow(fan, { timeout: "20ms", agents: { a: answer(() => forever<string>()) } });
    expect(run.ending).toEqual({
      kind: "timed-out",
      reason: "the run's deadline passed",
      stages: [],
      continue: "awf run flow --continue test",
    });
    expect(() => run.value).toThrow("the run timed out: the run's deadline passed");
  });
});

describe("durations", () => {
  test("are whole or fractional amounts of ms, s, m, h and d, summed when chained", () => {
    expect(["500ms", "5s", "1.5s", "2m", "1h30m", "2d", " 20ms "].map(parseDuration)).toEqual([500, 5_000, 1_500, 120_000, 5_400_000, 172_800_000, 20]);
  });

  test("anything else is no duration", () => {
    expect(["5", "5 s", "", "s", "2 secs", "-1s", "1w"].map(parseDuration)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});

describe("the stall guard", () => {
  // Its timer runs on the clock it is given: a hand-driven clock makes each step exact.
  function handClock() {
    let now = 0;
    const timers = new Map<number, { at: number; fire: () => void }>();
    let ids = 0;
    return {
      clock: {
        now: () => now,
        setTimer(milliseconds: number, fire: () => void) {
          const id = ++ids;
          timers.set(id, { at: now + milliseconds, fire });
          return () => void timers.delete(id);
        },
      },
      advance(milliseconds: number) {
        now += milliseconds;
        for (const [id, timer] of [...timers]) if (timer.at <= now) timers.delete(id), timer.fire();
      },
      pending: () => timers.size,
    };
  }

  test("fires once after the stall with nothing poked, and each poke starts its time again", () => {
    const hand = handClock();
    let stalls = 0;
    const guard = new StallGuard(hand.clock, 100, () => stalls++);
    hand.advance(90);
    guard.poke();
    hand.advance(90);
    expect(stalls).toBe(0);
    expect(hand.pending()).toBe(1);
    hand.advance(10);
    expect(stalls).toBe(1);
    hand.advance(500);
    expect(stalls).toBe(1);
  });

  test("stopped, never fires and ignores pokes", () => {
    const hand = handClock();
    let stalls = 0;
    const guard = new StallGuard(hand.clock, 100, () => stalls++);
    guard.stop();
    guard.poke();
    hand.advance(1_000);
    expect(stalls).toBe(0);
  });

  test("is poked as each turn starts, before its script answers", async () => {
    let activity = 0;
    const host = new ScriptedHost(
      new ScriptBook("agents", readScripts("agents", { a: answer(() => forever<string>()) })),
      { fail: () => {}, activity: () => activity++ },
      20,
    );
    void host.run({
      id: 1,
      agent: "a",
      n: 1,
      nudge: false,
      prompt: "go",
      cwd: "/tmp",
      execution: { harness: "claude", model: "sonnet", placement: "pane" },
      signal: new AbortController().signal,
      submit: () => ({ accepted: true, value: "x" }),
      idleWhile: (waiting) => waiting,
      messages: [],
      send: async () => ({ kind: "sent" }),
      reply: async () => ({ kind: "sent" }),
      tool: async () => ({ kind: "result", output: null }),
      owes: () => [],
    });
    expect(activity).toBe(1);
  });
});
