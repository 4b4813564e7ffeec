import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { eventFlow, flow, mistake } from "./workflows";

const DAY = 86_400_000;
/** An event schema written as plain JSON Schema, as a JS caller would: any object. */
const ANY_OBJECT = { type: "object" } as never;

const reminder = (waitFor: "2d" | "30m" = "2d") =>
  flow(async (wf) => {
    const before = wf.now().getTime();
    await wf.sleep(waitFor, { label: "remind the reviewer" });
    return { waited: wf.now().getTime() - before };
  });

describe("the virtual clock", () => {
  test("a two-day timer fires with no real wait, and wf.now() reads the moved clock", async () => {
    // On real time this would wait two days, and the stall guard (2 s) would fail the test first.
    const run = await testWorkflow(reminder("2d"));
    expect(run.value).toEqual({ waited: 2 * DAY });
    expect(run.timers).toEqual([{ label: "remind the reviewer", due: expect.any(String), state: "fired", kind: "timer" }]);
  });

  test("maxTimers: 0 parks at the first timer, naming its label and due time", async () => {
    const run = await testWorkflow(reminder("2d"), { maxTimers: 0 });
    expect(run.ending).toMatchObject({ kind: "parked", label: "remind the reviewer", until: run.timers[0]!.due });
    expect(run.timers).toEqual([{ label: "remind the reviewer", due: expect.any(String), state: "pending", kind: "timer" }]);
    expect(() => run.value).toThrow(`the run parked, remind the reviewer until ${run.timers[0]!.due}: it returns nothing until a continue`);
  });

  test("maxTimers is 20 by default: the 21st timer parks the run", async () => {
    const ticking = flow(async (wf) => {
      for (let tick = 1; ; tick++) await wf.sleep("1h", { label: `tick ${tick}` });
    });
    const run = await testWorkflow(ticking);
    expect(run.ending).toMatchObject({ kind: "parked", label: "tick 21" });
    expect(run.timers.filter((timer) => timer.state === "fired")).toHaveLength(20);
  });

  test("timers fire in due order, and waitUntil waits until a time", async () => {
    const order: string[] = [];
    const racing = flow(async (wf) => {
      const start = wf.now().getTime();
      await wf.parallel(["3h", "1h", "2h"], async (wait) => {
        await wf.sleep(wait, { label: wait });
        order.push(wait);
      });
      await wf.waitUntil(new Date(start + 5 * 3_600_000), { label: "five hours in" });
      return (wf.now().getTime() - start) / 3_600_000;
    });
    const run = await testWorkflow(racing);
    expect(run.value).toBe(5);
    expect(order).toEqual(["1h", "2h", "3h"]);
  });

  test("the clock does not jump while a turn's script is still working", async () => {
    const working = flow(async (wf) => {
      const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
      const start = wf.now().getTime();
      let answeredAt = 0;
      await Promise.all([wf.sleep("1h", { label: "an hour" }), writer.run({ prompt: "Write it." }).then(() => (answeredAt = wf.now().getTime()))]);
      return { answeredAfter: answeredAt - start, endedAfter: wf.now().getTime() - start };
    });
    const run = await testWorkflow(working, {
      // Real work in the script: 20 ms of it, during which the run is busy, not idle.
      agents: { writer: answer(() => new Promise<string>((resolve) => setTimeout(() => resolve("written"), 20))) },
    });
    expect(run.value).toEqual({ answeredAfter: 0, endedAfter: 3_600_000 });
  });

  test("maxTimers must be a whole number", async () => {
    const error = await mistake(testWorkflow(reminder(), { maxTimers: -1 }));
    expect(error.message).toBe(`testWorkflow's "maxTimers" must be a whole number of timers, not -1`);
  });

  test("a sleep's duration that is no duration throws into the workflow", async () => {
    const run = await testWorkflow(flow(async (wf) => wf.sleep("two days")));
    expect(() => run.value).toThrow(`wf.sleep's duration must be a duration such as "5s", not "two days"`);
  });
});

describe("a run that parks", () => {
  test("waiting on an event with no keepAlive parks at once, with the wait's label and no until", async () => {
    const approved = { type: "object", properties: { by: { type: "string" } }, required: ["by"] } as never;
    const waiting = eventFlow("waiting", { approved }, async (wf) => (await wf.events.wait("approved", { label: "waiting on an approval" })).kind);
    const run = await testWorkflow(waiting);
    expect(run.ending).toEqual({
      kind: "parked",
      label: "waiting on an approval",
      reason: "the run parked waiting on an approval",
      stages: [],
      continue: "awf run waiting --continue test",
    });
  });

  test("an event wait with an until parks at its until after maxTimers, and times out under the clock before", async () => {
    const timing = eventFlow("timing", { approved: ANY_OBJECT }, async (wf) => (await wf.events.wait("approved", { label: "a day for approval", until: "1d" })).kind);
    expect((await testWorkflow(timing)).value).toBe("timeout");
    const parked = await testWorkflow(timing, { maxTimers: 0 });
    expect(parked.ending).toMatchObject({ kind: "parked", label: "a day for approval", until: parked.timers[0]!.due });
  });
});

describe("a keepAlive window in a test", () => {
  test("longer than stall, stalls the test with a message that says why", async () => {
    const waiting = eventFlow("kept", { approved: ANY_OBJECT }, async (wf) => {
      wf.keepAlive({ window: "1h" });
      return (await wf.events.wait("approved", { label: "waiting on an approval" })).kind;
    });
    const error = await mistake(testWorkflow(waiting, { stall: "200ms" }));
    expect(error.message).toBe(
      "the run stalled: nothing started or ended for 200 ms; no turn in flight; it waits live in a keepAlive window of 1h, which stays on real time in a test: give keepAlive a shorter window, or none (100 ms)",
    );
  });
});
