import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, Type } from "agentswf/workflow";
import { problemsOf } from "turnlens/trace";
import { eventFlow, flow, mistake } from "./workflows";

const PLAN = Type.Object({ steps: Type.Array(Type.String()) });
const BRANCH = Type.Object({ branch: Type.String() });
const AT = "2026-01-05T09:00:00.000Z";

/** Three stages whose work counts its calls; between them, a log line every attempt writes. */
function counted(declare = false) {
  const calls: string[] = [];
  const workflow = defineWorkflow({
    name: "counted",
    description: "Plans, builds and ships, counting the work each stage does.",
    ...(declare ? { stages: { plan: PLAN, build: BRANCH, ship: null } } : {}),
    async run(wf) {
      const plan = await wf.stage("plan", { result: PLAN }, async () => (calls.push("plan"), { steps: ["write it"] }));
      wf.log(`attempt ${wf.attempt} between plan and build`);
      const built = await wf.stage("build", { result: BRANCH }, async () => (calls.push("build"), { branch: `feat/${plan.steps.length}` }));
      await wf.stage("ship", async () => void calls.push("ship"));
      return { attempt: wf.attempt, plan, built };
    },
  });
  return { workflow, calls };
}

const APPROVAL = Type.Object({ by: Type.String() });

/** Drafts in a stage, then waits for an approval, a day, and a merge. */
const approvals = defineWorkflow({
  name: "approvals",
  description: "Drafts a change, then waits for its approval, a day, and its merge.",
  events: { approved: APPROVAL, merged: Type.Object({}) },
  async run(wf) {
    await wf.stage("draft", async () => {
      const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
      await writer.run({ prompt: "Draft the change." });
    });
    const approved = await wf.events.wait("approved", { label: "waiting for the approval" });
    const before = wf.now().getTime();
    await wf.sleep("1d", { label: "a day for objections" });
    const merged = await wf.events.wait("merged", { label: "waiting for the merge" });
    return {
      attempt: wf.attempt,
      by: approved.kind === "event" ? (approved.data as { by: string }).by : null,
      waitedMs: wf.now().getTime() - before,
      merged: merged.kind === "event" ? merged.eventId : null,
    };
  },
});

describe("a continue", () => {
  test("reuses each stage the earlier attempt recorded without calling its work, and runs the code between stages", async () => {
    const { workflow, calls } = counted();
    const run = await testWorkflow(workflow, { earlier: { stages: { plan: { steps: ["a", "b"] } } } });
    expect(calls).toEqual(["build", "ship"]);
    expect(run.value).toEqual({ attempt: 2, plan: { steps: ["a", "b"] }, built: { branch: "feat/2" } });
    expect(run.logs.map((line) => line.message)).toEqual(["attempt 2 between plan and build"]);
    expect(run.ending.stages.map((stage) => [stage.name, stage.source, stage.attempt])).toEqual([
      ["plan", "reused", 1],
      ["build", "ran", 2],
      ["ship", "ran", 2],
    ]);
  });

  test("run.stages gives a reused stage the earlier attempt's record, one second apart in the order given", async () => {
    const { workflow } = counted();
    const run = await testWorkflow(workflow, { earlier: { stages: { plan: { steps: ["a"] }, build: { branch: "feat/x" } } } });
    const [plan, build] = run.stages;
    expect(plan).toEqual({ name: "plan", outcome: "succeeded", attempt: 1, started: expect.any(String), at: expect.any(String), value: { steps: ["a"] } });
    expect(Date.parse(build!.started) - Date.parse(plan!.started)).toBe(1_000);
    expect(run.stages.map((stage) => stage.attempt)).toEqual([1, 1, 2]);
  });

  test("is the attempt after the latest its run lines name", async () => {
    const { workflow } = counted();
    const run = await testWorkflow(workflow, { earlier: { run: [{ v: 1, kind: "attempt", attempt: 3, at: AT }] } });
    expect(run.value.attempt).toBe(4);
    expect(run.run[1]).toEqual({ v: 1, kind: "attempt", attempt: 4, at: expect.any(String), id: "test" });
  });

  test("reuses the stages its run lines recorded, so a continued run needs only its lines", async () => {
    const { workflow } = counted();
    const first = await testWorkflow(workflow);
    const { workflow: again, calls } = counted();
    const run = await testWorkflow(again, { earlier: { run: first.run } });
    expect(calls).toEqual([]);
    expect(run.stages).toEqual(first.stages);
  });

  test("closes a turn its run lines began and never ended as failed, as the attempt begins", async () => {
    const { workflow } = counted();
    const run = await testWorkflow(workflow, {
      earlier: {
        run: [
          { v: 1, kind: "attempt", attempt: 1, at: AT },
          { v: 1, kind: "turn-begun", attempt: 1, op: 1, agent: "planner", operation: "turn", n: 1, nudge: false, stage: "plan", at: AT },
        ],
      },
    });
    expect(run.run.slice(2, 4)).toEqual([
      { v: 1, kind: "attempt", attempt: 2, at: expect.any(String), id: "test" },
      {
        v: 1,
        kind: "turn-ended",
        attempt: 1,
        op: 1,
        agent: "planner",
        n: 1,
        end: "failed",
        reason: "attempt 1 ended before the turn did; closed as attempt 2 began",
        at: expect.any(String),
      },
    ]);
  });
});

describe("fromStage and values", () => {
  test("fromStage redoes that stage and the later ones, reusing the records before it", async () => {
    const { workflow, calls } = counted();
    const run = await testWorkflow(workflow, {
      earlier: { stages: { plan: { steps: ["a"] }, build: { branch: "feat/old" }, ship: undefined } },
      fromStage: "build",
    });
    expect(calls).toEqual(["build", "ship"]);
    expect(run.value.built).toEqual({ branch: "feat/1" });
    expect(run.ending.stages.map((stage) => stage.source)).toEqual(["reused", "ran", "ran"]);
  });

  test("values give the stages before fromStage that have no record, recorded as provided", async () => {
    const { workflow, calls } = counted();
    const run = await testWorkflow(workflow, { fromStage: "build", values: { plan: { steps: ["x", "y", "z"] } } });
    expect(calls).toEqual(["build", "ship"]);
    expect(run.value).toEqual({ attempt: 1, plan: { steps: ["x", "y", "z"] }, built: { branch: "feat/3" } });
    expect(run.stages[0]).toEqual({
      name: "plan",
      outcome: "succeeded",
      attempt: 1,
      started: expect.any(String),
      at: expect.any(String),
      value: { steps: ["x", "y", "z"] },
      provided: true,
    });
    expect(run.ending.stages[0]?.source).toBe("provided");
    expect(run.run).toContainEqual(expect.objectContaining({ kind: "stage", name: "plan", provided: true, waits: 0 }));
  });

  test("a start at a stage with no values stops once as the first stage it needs is entered, listing each declared one with its schema", async () => {
    const { workflow, calls } = counted(true);
    const run = await testWorkflow(workflow, { fromStage: "ship" });
    expect(calls).toEqual([]);
    expect(run.ending).toMatchObject({ kind: "stopped", stage: "plan" });
    expect(run.ending.kind === "stopped" ? run.ending.reason : "").toBe(
      `stage ship is where this attempt starts, and the stages before it need values: plan (result ${JSON.stringify(PLAN)}), ` +
        `build (result ${JSON.stringify(BRANCH)}); give them in values, as awf run --values does`,
    );
    // The stage the plan stopped as it was entered ran nothing, so it is not among the stages.
    expect(run.stages).toEqual([]);
  });

  test("with no stages declared, the stop names the stage entered, as its result is known only then", async () => {
    const { workflow } = counted();
    const run = await testWorkflow(workflow, { fromStage: "ship", values: { plan: { steps: [] } } });
    expect(run.ending.kind === "stopped" ? run.ending.reason : "").toBe(
      `stage ship is where this attempt starts, and the stages before it need values: build (result ${JSON.stringify(BRANCH)}); give them in values, as awf run --values does`,
    );
    expect(run.stages.map((stage) => stage.name)).toEqual(["plan"]);
  });

  test("a value that does not fit the stage's result fails the attempt", async () => {
    const { workflow } = counted();
    const run = await testWorkflow(workflow, { fromStage: "build", values: { plan: { steps: "one" } } });
    expect(run.ending).toMatchObject({
      kind: "failed",
      stage: "plan",
      reason: 'stage plan\'s value in values does not fit its result: /steps is "one"; allowed: a list',
    });
  });

  test("a value that does not fit a declared stage's result fails the attempt too, in the same words, as the stage is entered", async () => {
    const { workflow, calls } = counted(true);
    const run = await testWorkflow(workflow, { fromStage: "build", values: { plan: { steps: "one" } as never } });
    const reason = 'stage plan\'s value in values does not fit its result: /steps is "one"; allowed: a list';
    expect(run.ending).toEqual({ kind: "failed", stage: "plan", reason, stages: [], continue: "awf run counted --continue test" });
    expect(() => run.value).toThrow(`the workflow threw: ${reason}`);
    expect(calls).toEqual([]);
  });
});

describe("a continue keeps a first attempt's rules", () => {
  /** Two stages entered at once, which one stage open at a time forbids. */
  const beside = defineWorkflow({
    name: "beside",
    description: "Enters two stages at once.",
    async run(wf) {
      await wf.parallel(["a", "b"], (name) => wf.stage(name, async () => {}));
      return "both ran";
    },
  });

  test("a fromStage the workflow never reaches stops the attempt, naming it and the nearest stage it entered", async () => {
    const { workflow, calls } = counted();
    const run = await testWorkflow(workflow, {
      earlier: { stages: { plan: { steps: ["a"] }, build: { branch: "feat/a" }, ship: undefined } },
      fromStage: "buld",
    });
    expect(run.ending).toMatchObject({
      kind: "stopped",
      reason: `fromStage "buld" is a stage this attempt never reached: it entered "plan", "build", "ship" and returned; did you mean "build"?`,
    });
    expect(() => run.value).toThrow('fromStage "buld"');
    expect(calls).toEqual([]);
  });

  test("a first attempt's start at a misspelt stage stops as the stage is entered, suggesting it", async () => {
    const { workflow } = counted();
    const run = await testWorkflow(workflow, { fromStage: "buld", values: { plan: { steps: [] } } });
    expect(run.ending).toMatchObject({
      kind: "stopped",
      stage: "build",
      reason: `stage buld is where this attempt starts, and the stages before it need values: build (result ${JSON.stringify(BRANCH)}); give them in values, as awf run --values does; did you mean "build"?`,
    });
  });

  test("a fromStage on a workflow that enters no stage stops it too, with no stage to suggest", async () => {
    const run = await testWorkflow(
      flow(async () => "no stages"),
      { earlier: {}, fromStage: "qa" },
    );
    expect(run.ending).toMatchObject({ kind: "stopped", reason: `fromStage "qa" is a stage this attempt never reached: it entered no stage and returned` });
  });

  test("an earlier value that does not fit its stage's result fails the attempt there, in the words a value in values gets", async () => {
    const { workflow, calls } = counted();
    const run = await testWorkflow(workflow, { earlier: { stages: { plan: { file: "a" } } } });
    expect(run.ending).toMatchObject({
      kind: "failed",
      stage: "plan",
      reason: 'stage plan\'s value in the earlier attempt does not fit its result: / has no "steps"; required: "steps"',
      stages: [],
    });
    expect(calls).toEqual([]);
  });

  test("an earlier stage with no value fails the attempt when its stage returns one, and one with a value when it returns none, declared or not", async () => {
    for (const declare of [false, true]) {
      const { workflow } = counted(declare);
      const none = await testWorkflow(workflow, { earlier: { stages: { plan: undefined } } });
      expect(none.ending).toMatchObject({ kind: "failed", stage: "plan", reason: "the earlier attempt gives stage plan no value, but it returns one (its result)" });
      const extra = await testWorkflow(workflow, { earlier: { stages: { plan: { steps: [] }, build: { branch: "b" }, ship: { shipped: true } as never } } });
      expect(extra.ending).toMatchObject({
        kind: "failed",
        stage: "ship",
        reason: "the earlier attempt gives stage ship a value, but it has no result schema, so it returns nothing",
      });
    }
  });

  test("a record in the earlier run lines is judged by the stage's current result too", async () => {
    const { workflow } = counted();
    const run = await testWorkflow(workflow, {
      earlier: { run: [{ v: 1, kind: "stage", attempt: 1, name: "plan", outcome: "succeeded", started: AT, at: AT, value: { steps: "one" }, waits: 0 }] },
    });
    expect(run.ending).toMatchObject({
      kind: "failed",
      stage: "plan",
      reason: 'stage plan\'s value in the earlier attempt does not fit its result: /steps is "one"; allowed: a list',
    });
  });

  test("a reused stage is open as it is entered, so a stage entered beside it fails the attempt as on a first attempt", async () => {
    const first = await testWorkflow(beside);
    expect(first.ending).toMatchObject({ kind: "failed", reason: "stage b was entered while stage a is open" });
    const reused = await testWorkflow(beside, { earlier: { stages: { a: undefined } } });
    expect(reused.ending).toEqual(first.ending.kind === "failed" ? { ...first.ending, stages: [{ ...first.ending.stages[0], source: "reused" }] } : undefined);
    const provided = await testWorkflow(beside, { fromStage: "c", values: { a: undefined } });
    expect(provided.ending).toMatchObject({ kind: "failed", reason: "stage b was entered while stage a is open" });
  });

  test("a reused stage entered after another closed is no stage beside it", async () => {
    const { workflow, calls } = counted();
    const run = await testWorkflow(workflow, { earlier: { stages: { plan: { steps: ["a"] }, build: { branch: "feat/a" } } } });
    expect(run.ending.kind).toBe("completed");
    expect(calls).toEqual(["ship"]);
  });
});

describe("what a continue refuses", () => {
  test("values without fromStage", async () => {
    const { workflow } = counted();
    const error = await mistake(testWorkflow(workflow, { values: { plan: { steps: [] } } }));
    expect(error.message).toBe("values give the stages before fromStage: give fromStage too");
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "option-invalid", option: "values" });
  });

  test("fromStage without earlier, for a workflow with events", async () => {
    const error = await mistake(testWorkflow(approvals, { fromStage: "draft" }));
    expect(error.message).toBe(`a workflow with events takes "fromStage" only with "earlier", as awf run takes --from-stage only with --continue`);
  });

  test("values for a workflow with events, which takes none", async () => {
    const error = await mistake(testWorkflow(approvals, { earlier: {}, fromStage: "draft", values: {} } as never));
    expect(error.message).toStartWith(`testWorkflow takes no option "values"; it takes "args", "id", `);
  });

  test("values for fromStage itself, or for a declared stage after it (a value that does not fit is the attempt's to fail)", async () => {
    const { workflow } = counted(true);
    const error = await mistake(testWorkflow(workflow, { fromStage: "build", values: { build: { branch: "b" }, ship: undefined, plan: { steps: 1 } } as never }));
    expect(error.message).toBe(
      [
        `values["build"]: stage build is fromStage, which the attempt runs; values give the stages before it`,
        `values["ship"]: stage ship comes after fromStage "build"; values give the stages before it`,
      ].join("\n"),
    );
  });

  test("a fromStage the workflow does not declare", async () => {
    const { workflow } = counted(true);
    const error = await mistake(testWorkflow(workflow, { fromStage: "deploy" }));
    expect(error.message).toBe(`fromStage: counted has no stage "deploy"; its stages are "plan", "build", "ship"`);
  });

  test("an earlier event's id given again", async () => {
    const error = await mistake(
      testWorkflow(approvals, {
        earlier: { events: [{ v: 1, kind: "event", eventId: "e-1", name: "approved", data: { by: "ann" }, at: AT }] },
        event: { name: "merged", data: {}, eventId: "e-1" },
      }),
    );
    expect(error.message).toBe(`event id "e-1" is given twice: earlier.events[0] and event`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "event-id-reused" });
  });

  test("a field earlier doesn't take", async () => {
    const { workflow } = counted();
    const error = await mistake(testWorkflow(workflow, { earlier: { stage: {} } as never }));
    expect(error.message).toBe(`testWorkflow's "earlier" takes "stages", "events", "run", not "stage"`);
  });

  test("a malformed run line, by its line number and what is wrong with it", async () => {
    const { workflow } = counted();
    const cases: Array<[unknown, string]> = [
      [
        [
          { v: 1, kind: "attempt", attempt: 1, at: AT },
          { v: 1, kind: "timer", attempt: 1, wait: 1, label: "x", due: "tomorrow", state: "pending" },
        ],
        `earlier.run line 2: "due" of a timer line must be an ISO time, not "tomorrow"`,
      ],
      [[{ kind: "attempt", attempt: 1, at: AT }], `earlier.run line 1: "v" is missing: every line has its version, 1`],
      [[{ v: 2, kind: "attempt", attempt: 1, at: AT }], `earlier.run line 1: version 2 is not one this Turnlens reads; it reads version 1`],
      [
        [{ v: 1, kind: "race", attempt: 1 }],
        `earlier.run line 1: kind "race" is not a line of earlier.run; its kinds are "attempt", "stage", "timer", "wait", "session", "turn-begun", "turn-ended", "decision"`,
      ],
      [[{ v: 1, kind: "wait", attempt: 1, wait: 1, took: "timeout" }], `earlier.run line 1: a wait line needs "label"`],
      [[{ v: 1, kind: "attempt", at: AT }], `earlier.run line 1: an attempt line needs "attempt"`],
      [`{"v":1,"kind":"attempt","attempt":1,"at":"${AT}"}\nnot json\n`, `earlier.run line 2: not JSON: `],
    ];
    for (const [lines, message] of cases) {
      const error = await mistake(testWorkflow(workflow, { earlier: { run: lines as never } }));
      expect(error.message).toStartWith(message);
      expect(problemsOf(error)?.[0]).toMatchObject({ code: "option-invalid", option: "earlier" });
    }
  });

  test("a wait line taking an event the earlier events don't have", async () => {
    const error = await mistake(
      testWorkflow(approvals, { earlier: { run: [{ v: 1, kind: "wait", attempt: 1, wait: 1, label: "waiting for the approval", took: { eventId: "gone" } }] } }),
    );
    expect(error.message).toBe(`earlier.run line 1: wait 1 took event "gone", which earlier.events does not have`);
  });
});

describe("waits on a continue", () => {
  test("replay in order: a wait takes again the event its line says it took, and a fired timer fires at once", async () => {
    const first = await testWorkflow(approvals, {
      agents: { writer: answer("drafted") },
      events: [{ during: "writer#1", name: "approved", data: { by: "ann" } }],
    });
    expect(first.ending).toMatchObject({ kind: "parked", label: "waiting for the merge" });
    const run = await testWorkflow(approvals, {
      earlier: { run: first.run, events: first.events },
      event: { name: "merged", data: {}, eventId: "merge-1" },
      // The day already passed: its timer fires without the clock skipping to it.
      maxTimers: 0,
    });
    expect(run.value).toEqual({ attempt: 2, by: "ann", waitedMs: 0, merged: "merge-1" });
    expect(run.turns).toEqual([]);
    expect(run.timers).toEqual([{ label: "a day for objections", due: first.timers[0]!.due, state: "fired", kind: "timer" }]);
    expect(run.events.map((event) => event.eventId)).toEqual(["awf.test.1", "merge-1"]);
  });

  test("a parked test continues as the page shows, with no ids given: the defaults skip the ids the earlier attempt holds", async () => {
    const started = defineWorkflow({
      name: "started",
      description: "Started by a request; waits for its approval, then for its merge.",
      events: { requested: Type.Object({}), approved: APPROVAL, merged: Type.Object({}) },
      starts: ["requested"],
      async run(wf) {
        const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
        await writer.run({ prompt: "Draft the change." });
        const approved = await wf.events.wait("approved", { label: "waiting for the approval" });
        const merged = await wf.events.wait("merged", { label: "waiting for the merge" });
        return { started: wf.event?.eventId, approved: approved.kind === "event" ? approved.eventId : null, merged: merged.kind === "event" ? merged.eventId : null };
      },
    });
    const first = await testWorkflow(started, {
      event: { name: "requested", data: {} },
      agents: { writer: answer("drafted") },
      events: [{ during: "writer#1", name: "approved", data: { by: "ann" } }],
    });
    expect(first.ending).toMatchObject({ kind: "parked", label: "waiting for the merge" });
    const run = await testWorkflow(started, {
      earlier: { events: first.events, run: first.run },
      event: { name: "merged", data: {} },
      agents: { writer: answer("drafted again") },
      events: [{ during: "writer#1", name: "approved", data: { by: "bob" } }],
    });
    expect(run.value).toEqual({ started: "awf.start.2", approved: "awf.test.1", merged: "awf.start.2" });
    expect(run.events.map((event) => event.eventId)).toEqual(["awf.start", "awf.test.1", "awf.start.2", "awf.test.1.2"]);
  });

  test("a workflow whose waits no longer match the lines fails the attempt", async () => {
    const renamed = eventFlow("renamed", { approved: APPROVAL }, async (wf) => {
      await wf.events.wait("approved", { label: "waiting for the sign-off" });
    });
    const run = await testWorkflow(renamed, {
      earlier: {
        events: [{ v: 1, kind: "event", eventId: "e-1", name: "approved", data: { by: "ann" }, at: AT }],
        run: [{ v: 1, kind: "wait", attempt: 1, wait: 1, label: "waiting for the approval", took: { eventId: "e-1" } }],
      },
    });
    expect(run.ending).toMatchObject({
      kind: "failed",
      reason:
        `wait 1 is "waiting for the sign-off" in this attempt, but "waiting for the approval" in the run's lines: ` +
        "a continue replays the waits in the order the earlier attempt made them, and the workflow's waits no longer match them",
    });
  });

  test("a parked test's run.run and run.events continue it: its pending timer keeps its due time and fires", async () => {
    const reminder = flow(async (wf) => {
      await wf.sleep("2d", { label: "remind the reviewer" });
      return { attempt: wf.attempt, now: wf.now().toISOString() };
    });
    const parked = await testWorkflow(reminder, { maxTimers: 0 });
    expect(parked.ending).toMatchObject({ kind: "parked", label: "remind the reviewer" });
    const due = parked.timers[0]!.due;
    expect(parked.run).toContainEqual({ v: 1, kind: "timer", attempt: 1, wait: 1, label: "remind the reviewer", due, state: "pending" });

    const run = await testWorkflow(reminder, { earlier: { run: parked.run, events: parked.events } });
    expect(run.value).toEqual({ attempt: 2, now: due });
    expect(run.timers).toEqual([{ label: "remind the reviewer", due, state: "fired", kind: "timer" }]);
    expect(run.run.filter((line) => line.kind === "timer")).toEqual([
      { v: 1, kind: "timer", attempt: 1, wait: 1, label: "remind the reviewer", due, state: "pending" },
      { v: 1, kind: "timer", attempt: 2, wait: 1, label: "remind the reviewer", due, state: "fired" },
    ]);
  });

  test("waits inside a reused stage keep their numbers, so the waits after it still match the lines", async () => {
    const staged = eventFlow("staged", { approved: APPROVAL }, async (wf) => {
      await wf.stage("cool-off", async () => wf.sleep("1h", { label: "an hour" }));
      const approved = await wf.events.wait("approved", { label: "waiting for the approval" });
      return approved.kind === "event" ? approved.eventId : null;
    });
    const parked = await testWorkflow(staged);
    expect(parked.ending).toMatchObject({ kind: "parked", label: "waiting for the approval" });
    const run = await testWorkflow(staged, {
      earlier: { run: parked.run, events: parked.events },
      event: { name: "approved", data: { by: "bo" }, eventId: "ok-1" },
    });
    expect(run.value).toBe("ok-1");
    expect(run.run).toContainEqual({ v: 1, kind: "wait", attempt: 2, wait: 2, label: "waiting for the approval", took: { eventId: "ok-1" } });
  });
});
