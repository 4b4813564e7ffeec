import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import Type from "typebox";
import { flow } from "./workflows";

const PLAN = Type.Object({ steps: Type.Array(Type.String()) });
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("a stage", () => {
  test("without a result runs its work and returns nothing", async () => {
    const run = await testWorkflow(flow(async (wf) => ({ returned: (await wf.stage("notify", async () => undefined)) ?? "nothing" })));
    expect(run.value).toEqual({ returned: "nothing" });
    expect(run.stages).toEqual([{ name: "notify", outcome: "succeeded", attempt: 1, started: expect.stringMatching(ISO), at: expect.stringMatching(ISO) }]);
  });

  test("with a result returns its value, recorded with its summary", async () => {
    const planned = flow(async (wf) => wf.stage("plan", { result: PLAN, summary: (plan) => `${plan.steps.length} steps` }, async () => ({ steps: ["a", "b"] })));
    const run = await testWorkflow(planned);
    expect(run.value).toEqual({ steps: ["a", "b"] });
    const [record] = run.stages;
    expect(record).toEqual({
      name: "plan",
      outcome: "succeeded",
      attempt: 1,
      started: expect.stringMatching(ISO),
      at: expect.stringMatching(ISO),
      summary: "2 steps",
      value: { steps: ["a", "b"] },
    });
    expect(Date.parse(record!.at)).toBeGreaterThanOrEqual(Date.parse(record!.started));
    expect(run.ending).toEqual({
      kind: "completed",
      value: { steps: ["a", "b"] },
      stages: [{ name: "plan", outcome: "succeeded", attempt: 1, source: "ran", summary: "2 steps", value: { steps: ["a", "b"] } }],
    });
  });

  test("returns its value after a JSON round trip", async () => {
    const when = flow(async (wf) => wf.stage("when", { result: Type.Object({ skipped: Type.Optional(Type.String()) }) }, async () => ({ skipped: undefined })));
    const run = await testWorkflow(when);
    expect(run.value).toEqual({});
    expect(Object.keys(run.value)).toEqual([]);
  });

  test("records in order, and a turn inside it carries its name", async () => {
    const staged = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      await wf.stage("one", async () => void (await agent.run({ prompt: "in one" })));
      await agent.run({ prompt: "between" });
      await wf.stage("two", async () => void (await agent.run({ prompt: "in two" })));
    });
    const run = await testWorkflow(staged, { agents: { a: answer("ok") } });
    expect(run.stages.map((stage) => stage.name)).toEqual(["one", "two"]);
    expect(run.turns.map((turn) => turn.stage)).toEqual(["one", undefined, "two"]);
  });

  test("whose summary throws drops the summary and logs why", async () => {
    const summarised = flow(async (wf) =>
      wf.stage(
        "plan",
        {
          result: PLAN,
          summary: () => {
            throw new Error("no words");
          },
        },
        async () => ({ steps: [] }),
      ),
    );
    const run = await testWorkflow(summarised);
    expect(run.stages[0]).not.toHaveProperty("summary");
    expect(run.stages[0]?.outcome).toBe("succeeded");
    expect(run.logs).toEqual([{ message: "awf: stage plan's summary failed: no words" }]);
  });

  test("that throws is recorded failed with the reason, names the ending's stage, and cancels its open turns", async () => {
    const failing = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      let open: Promise<{ outcome: unknown }> | undefined;
      const error = await wf
        .stage("build", async () => {
          open = agent.run({ prompt: "compile" });
          throw new Error("no compiler");
        })
        .catch((caught: Error) => caught.message);
      return { error, outcome: (await open!).outcome };
    });
    const run = await testWorkflow(failing, { agents: { a: noAnswer.hang() } });
    expect(run.value).toEqual({ error: "no compiler", outcome: { kind: "cancelled", reason: "stage build failed: no compiler" } });
    expect(run.stages).toEqual([expect.objectContaining({ name: "build", outcome: "failed", reason: "no compiler" })]);
  });

  test("that throws uncaught fails the run in that stage", async () => {
    const run = await testWorkflow(
      flow(async (wf) =>
        wf.stage("build", async () => {
          throw new Error("no compiler");
        }),
      ),
    );
    expect(run.ending).toMatchObject({ kind: "failed", stage: "build", reason: "no compiler" });
  });
});

describe("a stage rule broken", () => {
  const cases: Array<[string, Parameters<typeof flow>[0], string, string | undefined]> = [
    [
      "a name that isn't one",
      (wf) => wf.stage("Doc Review", async () => undefined),
      `stage "Doc Review" is not a stage's name: lowercase letters, digits and '-'`,
      undefined,
    ],
    ["a name starting with a digit", (wf) => wf.stage("1st", async () => undefined), `stage "1st" is not a stage's name: lowercase letters, digits and '-'`, undefined],
    [
      "entered twice",
      async (wf) => {
        await wf.stage("qa", async () => undefined);
        await wf.stage("qa", async () => undefined);
      },
      "stage qa was entered twice; a loop goes inside one stage",
      undefined,
    ],
    ["nested", (wf) => wf.stage("outer", () => wf.stage("inner", async () => undefined)), "stage inner was entered while stage outer is open", "outer"],
    [
      "run at once",
      (wf) =>
        wf.parallel(["one", "two"], (name) =>
          wf.stage(name, async () => {
            await new Promise((done) => setImmediate(done));
          }),
        ),
      "stage two was entered while stage one is open",
      "one",
    ],
    [
      "a value that doesn't fit its result",
      (wf) => wf.stage("doc-review", { result: PLAN }, async () => ({ steps: "all" }) as never),
      `stage doc-review's value does not fit its result: /steps is "all"; allowed: a list`,
      "doc-review",
    ],
    [
      "a value that isn't JSON",
      (wf) => wf.stage("dated", { result: Type.Any() }, async () => ({ when: new Date(0) })),
      "stage dated's value is not JSON: $.when is a Date, not a plain object",
      "dated",
    ],
    ["a value with no result schema", (wf) => wf.stage("notify", async () => "sent"), "stage notify has no result schema, so it returns nothing", "notify"],
    [
      "nothing returned for a result",
      (wf) => wf.stage("doc-review", { result: PLAN }, async () => undefined as never),
      "stage doc-review returned nothing",
      "doc-review",
    ],
  ];
  for (const [what, run, message, stage] of cases) {
    test(`fails the attempt: ${what}`, async () => {
      const result = await testWorkflow(flow(run));
      expect(() => result.value).toThrow(`the workflow threw: ${message}`);
      expect(result.ending).toMatchObject({ kind: "failed", reason: message });
      if (stage) expect(result.ending).toHaveProperty("stage", stage);
      else expect(result.ending).not.toHaveProperty("stage");
    });
  }

  test("fails the attempt even when the workflow catches it", async () => {
    const catches = flow(async (wf) => {
      await wf.stage("Bad Name", async () => undefined).catch(() => undefined);
      return "carried on";
    });
    const run = await testWorkflow(catches);
    expect(run.ending).toMatchObject({ kind: "failed", reason: `stage "Bad Name" is not a stage's name: lowercase letters, digits and '-'` });
  });

  test("the failing stage is recorded failed with the rule as its reason", async () => {
    const run = await testWorkflow(flow((wf) => wf.stage("notify", async () => "sent")));
    expect(run.stages).toEqual([expect.objectContaining({ name: "notify", outcome: "failed", reason: "stage notify has no result schema, so it returns nothing" })]);
  });

  test("a stage without work is refused", async () => {
    const run = await testWorkflow(flow((wf) => wf.stage("plan", { result: PLAN } as never)));
    expect(() => run.value).toThrow("the workflow threw: stage plan needs a function to run");
  });
});

describe("stop", () => {
  test("ends the attempt stopped, in the stage it was called from, which is recorded stopped", async () => {
    const stops = flow(async (wf) => {
      await wf.stage("triage", async () => undefined);
      await wf.stage("plan", async () => wf.stop("needs a human"));
    });
    const run = await testWorkflow(stops, { id: "t-1" });
    expect(run.ending).toEqual({
      kind: "stopped",
      stage: "plan",
      reason: "needs a human",
      stages: [
        { name: "triage", outcome: "succeeded", attempt: 1, source: "ran" },
        { name: "plan", outcome: "stopped", attempt: 1, source: "ran", reason: "needs a human" },
      ],
      continue: "awf run flow --continue t-1",
    });
    expect(run.stages[1]).toMatchObject({ name: "plan", outcome: "stopped", reason: "needs a human" });
    expect(() => run.value).toThrow("the workflow stopped in stage plan: needs a human");
  });

  test("outside a stage ends the attempt stopped with no stage", async () => {
    const run = await testWorkflow(flow(async (wf) => wf.stop("nothing to do")));
    expect(run.ending).toEqual({ kind: "stopped", reason: "nothing to do", stages: [], continue: "awf run flow --continue test" });
    expect(() => run.value).toThrow("the workflow stopped: nothing to do");
  });

  test("caught, fails the attempt: stop was caught", async () => {
    const catches = flow(async (wf) => {
      await wf.stage("plan", async () => {
        try {
          wf.stop("needs a human");
        } catch {
          // swallowed
        }
      });
      return "carried on";
    });
    const run = await testWorkflow(catches);
    expect(run.ending).toMatchObject({ kind: "failed", stage: "plan", reason: "stop was caught: needs a human" });
    expect(() => run.value).toThrow("the workflow threw: stop was caught: needs a human");
  });
});

describe("a stage still open when the attempt ends", () => {
  const settleTimers = () => new Promise((resolve) => setTimeout(resolve, 40));
  const openRecord = (name: string, outcome: string, reason: string) => ({
    name,
    outcome,
    attempt: 1,
    started: expect.stringMatching(ISO),
    at: expect.stringMatching(ISO),
    reason,
  });
  /** The ending of workflow `name`'s attempt that failed, for `reason`, while its stage a was open. */
  const failedInStageA = (name: string, reason: string) => ({
    kind: "failed",
    stage: "a",
    reason,
    stages: [{ name: "a", outcome: "failed", attempt: 1, source: "ran", reason }],
    continue: `awf run ${name} --continue test`,
  });

  test("because a parallel sibling entered another stage is recorded failed, and is the ending's stage", async () => {
    const staged = flow(async (wf) => {
      await wf.parallel(["a", "b"], (name) => wf.stage(name, () => new Promise<void>((resolve) => setTimeout(resolve, 20))));
      return null;
    }, "staged");
    const run = await testWorkflow(staged, { args: null });
    const reason = "stage b was entered while stage a is open";
    expect(run.stages).toEqual([openRecord("a", "failed", reason)]);
    expect(run.ending).toEqual(failedInStageA("staged", reason));
    // a's work finishes after the attempt ended: it records nothing more.
    await settleTimers();
    expect(run.stages).toEqual([openRecord("a", "failed", reason)]);
  });

  test("because a sibling outside any stage stopped is recorded stopped, and is the ending's stage", async () => {
    const stopping = flow(async (wf) => {
      await wf.parallel([0, 1], async (index) => {
        if (index === 0) return wf.stage("a", () => new Promise<void>((resolve) => setTimeout(resolve, 20)));
        await Promise.resolve();
        wf.stop("nothing to do");
      });
      return null;
    });
    const run = await testWorkflow(stopping);
    expect(run.ending).toMatchObject({ kind: "stopped", stage: "a", reason: "nothing to do", stages: [{ name: "a", outcome: "stopped", reason: "nothing to do" }] });
    await settleTimers();
    expect(run.stages).toEqual([openRecord("a", "stopped", "nothing to do")]);
  });

  test("because a sibling threw while it waits on a turn is recorded failed, and its work goes no further", async () => {
    const throwing = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      await wf.parallel([0, 1], async (index) => {
        if (index === 0) {
          return wf.stage("a", async () => {
            const { outcome } = await agent.run({ prompt: "Work." });
            wf.log(`after the turn: ${outcome.kind}`);
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error("the sibling broke");
      });
      return null;
    });
    const run = await testWorkflow(throwing, { agents: { a: noAnswer.hang() } });
    const reason = "the sibling broke";
    expect(run.ending).toEqual(failedInStageA("flow", reason));
    await settleTimers();
    expect(run.stages).toEqual([openRecord("a", "failed", reason)]);
    expect(run.logs).toEqual([]);
  });

  test("that the workflow returned past (it caught its parallel's failure) is recorded failed with what cancelled it", async () => {
    const catching = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      try {
        await wf.parallel([0, 1], async (index) => {
          if (index === 0) return wf.stage("a", async () => void (await agent.run({ prompt: "Work." })));
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw new Error("the sibling broke");
        });
      } catch {
        return "partial";
      }
      return "whole";
    });
    const run = await testWorkflow(catching, { agents: { a: noAnswer.hang() } });
    expect(run.value).toBe("partial");
    await settleTimers();
    expect(run.stages).toEqual([openRecord("a", "failed", "a parallel item failed: the sibling broke")]);
    expect(run.ending).toEqual({
      kind: "completed",
      value: "partial",
      stages: [{ name: "a", outcome: "failed", attempt: 1, source: "ran", reason: "a parallel item failed: the sibling broke" }],
    });
  });
});
