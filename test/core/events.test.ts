import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { problemsOf } from "turnlens/trace";
import { defineWorkflow, Type } from "agentswf/workflow";
import { eventFlow, mistake, NOTE } from "./workflows";

const CHANGED = Type.Object({ case: Type.String() });

/** Opens a writer, runs `turns` turns, then waits for notes until `stopAfter` of them came. */
const notes = (options: { keepAlive?: boolean; stopAfter?: number; turns?: number } = {}) =>
  defineWorkflow({
    name: "notes",
    description: "Writes a note per event.",
    events: { "case.changed": CHANGED, note: NOTE },
    starts: ["case.changed"],
    async run(wf) {
      if (options.keepAlive) wf.keepAlive();
      const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
      for (let turn = 1; turn <= (options.turns ?? 1); turn++) await writer.run({ prompt: `Write part ${turn}.` });
      const taken: string[] = [];
      while (taken.length < (options.stopAfter ?? Infinity)) {
        const event = await wf.events.wait("note", { label: `waiting for note ${taken.length + 1}` });
        if (event.kind === "event") taken.push((event.data as { text: string }).text);
      }
      return { started: wf.event?.name ?? null, taken };
    },
  });

const writer = { writer: answer("written") };

describe("a workflow with events", () => {
  test("its starting event is wf.event, with the id awf.start, checked against starts", async () => {
    const run = await testWorkflow(notes({ stopAfter: 0 }), { event: { name: "case.changed", data: { case: "c-1" } }, agents: writer });
    expect(run.value).toEqual({ started: "case.changed", taken: [] });
    expect(run.events).toEqual([{ v: 1, kind: "event", eventId: "awf.start", name: "case.changed", data: { case: "c-1" }, at: expect.any(String), runLines: 0 }]);
  });

  test("without an event it starts with none, and wf.event is null", async () => {
    const run = await testWorkflow(notes({ stopAfter: 0 }), { agents: writer });
    expect(run.value).toEqual({ started: null, taken: [] });
    expect(run.events).toEqual([]);
  });

  test("an event that does not start it fails the test before the run", async () => {
    const error = await mistake(testWorkflow(notes(), { event: { name: "note", data: { text: "x" } }, agents: writer }));
    expect(error.message).toBe(`event "note" does not start notes; its starts are "case.changed"`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "event-refused", option: "event" });
  });

  test("a starting event whose data does not fit its schema fails the test", async () => {
    // @ts-expect-error the data the schema refuses is a type error too; the run's check is for a JS caller
    const error = await mistake(testWorkflow(notes(), { event: { name: "case.changed", data: { case: 7 } }, agents: writer }));
    expect(error.message).toStartWith(`event "case.changed"'s data does not fit its schema: `);
  });

  test("a during event is sent while the turn runs, with id awf.test.{n}, and a wait takes it", async () => {
    const run = await testWorkflow(notes({ stopAfter: 1 }), {
      agents: writer,
      events: [{ during: "writer#1", name: "note", data: { text: "first" } }],
    });
    expect(run.value).toEqual({ started: null, taken: ["first"] });
    expect(run.events.map((event) => event.eventId)).toEqual(["awf.test.1"]);
    expect(run.run).toContainEqual({ v: 1, kind: "wait", attempt: 1, wait: 1, label: "waiting for note 1", took: { eventId: "awf.test.1" } });
  });

  test("#n counts the turns the workflow started, as Turn.n does: a nudge keeps its turn's number", async () => {
    // Turn 1 is silent and nudged: three operations, but only turns 1 and 2.
    const silentFirst = { writer: answer((turn) => (turn.n === 1 && !turn.nudge ? noAnswer.silent() : "written")) };
    const run = await testWorkflow(notes({ stopAfter: 1, turns: 2 }), {
      agents: silentFirst,
      events: [{ during: "writer#2", name: "note", data: { text: "second" } }],
    });
    expect(run.turnsOf("writer").map((turn) => [turn.n, turn.nudge])).toEqual([
      [1, false],
      [1, true],
      [2, false],
    ]);
    expect(run.value).toEqual({ started: null, taken: ["second"] });
    const error = await mistake(
      testWorkflow(notes({ stopAfter: 0, turns: 2 }), { agents: silentFirst, events: [{ during: "writer#3", name: "note", data: { text: "x" } }] }),
    );
    expect(error.message).toBe(`event "note" (during writer#3): agent "writer" never had turn 3`);
  });

  test("an event whose turn never runs fails the test", async () => {
    const error = await mistake(testWorkflow(notes({ stopAfter: 0 }), { agents: writer, events: [{ during: "writer#3", name: "note", data: { text: "late" } }] }));
    expect(error.message).toBe(`event "note" (during writer#3): agent "writer" never had turn 3`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "event-never-sent", option: "events", index: 0 });
  });

  test("an after event is sent once the turn ended and the run waits live in a keepAlive window", async () => {
    const run = await testWorkflow(notes({ keepAlive: true, stopAfter: 2 }), {
      agents: writer,
      events: [
        { after: "writer#1", name: "note", data: { text: "one" } },
        { after: "writer#1", name: "note", data: { text: "two" }, eventId: "mine" },
      ],
    });
    expect(run.value).toEqual({ started: null, taken: ["one", "two"] });
    expect(run.events.map((event) => event.eventId)).toEqual(["awf.test.1", "mine"]);
  });

  test("a kept-alive run with nothing more to come parks after its window", async () => {
    const run = await testWorkflow(notes({ keepAlive: true }), { agents: writer });
    expect(run.ending).toMatchObject({ kind: "parked", label: "waiting for note 1" });
  });

  test("an after event the run parked before sending fails the test", async () => {
    const error = await mistake(testWorkflow(notes(), { agents: writer, events: [{ after: "writer#1", name: "note", data: { text: "too late" } }] }));
    expect(error.message).toBe(`event "note" (after writer#1): the run parked before it was sent; an after event is sent while the run waits live in a keepAlive window`);
  });

  test("an event the workflow does not declare fails the test as it is sent", async () => {
    const error = await mistake(
      // @ts-expect-error a name the workflow doesn't declare is a type error too
      testWorkflow(notes({ stopAfter: 1 }), { agents: writer, events: [{ during: "writer#1", name: "nite", data: {} }] }),
    );
    expect(error.message.split("\n")[0]).toBe(`event "nite" (during writer#1): the workflow declares no event "nite"; did you mean "note"?`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "event-refused" });
  });

  test("an agent's {key}:ended is awf's own and cannot be sent", async () => {
    const error = await mistake(
      // @ts-expect-error {key}:ended is no name a test may send, for tsc too
      testWorkflow(notes({ stopAfter: 1 }), { agents: writer, events: [{ during: "writer#1", name: "writer:ended", data: {} }] }),
    );
    expect(error.message.split("\n")[0]).toBe(
      `event "writer:ended" (during writer#1): "writer:ended" is awf's own event, sent when agent "writer" ends; nobody else sends it`,
    );
  });

  test("an event id given twice fails the test before the run", async () => {
    const error = await mistake(
      testWorkflow(notes(), {
        event: { name: "case.changed", data: { case: "c" }, eventId: "e-1" },
        agents: writer,
        events: [{ during: "writer#1", name: "note", data: { text: "x" }, eventId: "e-1" }],
      }),
    );
    expect(error.message).toBe(`event id "e-1" is given twice: event and events[0]`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "event-id-reused" });
  });

  test("an events entry needs one of during or after, naming a turn as agent#n", async () => {
    const neither = await mistake(testWorkflow(notes(), { agents: writer, events: [{ name: "note", data: {} } as never] }));
    expect(neither.message).toBe(`events[0] ("note") needs one of during or after, such as during: "writer#1"`);
    const badTurn = await mistake(testWorkflow(notes(), { agents: writer, events: [{ during: "writer", name: "note", data: { text: "x" } }] }));
    expect(badTurn.message).toBe(`events[0]'s during must name an agent's turn as "agent#n", not "writer"`);
  });

  test("wf.emit records an event for another run, which a test never delivers", async () => {
    const emitting = eventFlow("emitting", { go: Type.Object({}) }, async (wf) => {
      await wf.emit("release/v1", "ready", { by: "emitting" }, { eventId: "d-1" });
      await wf.emit({ workflow: "docs", id: "main" }, "refresh", null);
      return "told";
    });
    const run = await testWorkflow(emitting);
    expect(run.value).toBe("told");
    expect(run.emits).toEqual([
      { ref: "release/v1", name: "ready", data: { by: "emitting" }, eventId: "d-1" },
      { ref: "docs/main", name: "refresh", data: null },
    ]);
  });

  test("the trace lists each scripted event and whether it was sent", async () => {
    const { traceOfRun } = await import("turnlens/trace");
    const run = await testWorkflow(notes({ stopAfter: 1 }), { agents: writer, events: [{ during: "writer#1", name: "note", data: { text: "x" } }] });
    expect(traceOfRun(run)?.events).toEqual([
      { index: 1, name: "note", eventId: "awf.test.1", when: "during", agent: "writer", n: 1, sent: true, at: expect.any(String) },
    ]);
  });
});
