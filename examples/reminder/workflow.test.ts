// workflow.test.ts
import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import reminder from "./workflow";

const DAY = 86_400_000;
const agents = { author: answer("done") };

test("with no review, each two-day reminder fires at once on the virtual clock", async () => {
  const run = await testWorkflow(reminder, { agents });
  expect(run.value).toMatchObject({ verdict: "none", reminders: 2 });
  expect(run.turnsOf("author").map((turn) => turn.prompt)).toEqual([
    "Open the pull request and request a review.",
    "Nobody reviewed in two days: post reminder 1 on the pull request.",
    "Nobody reviewed in two days: post reminder 2 on the pull request.",
  ]);
  expect(run.timers.map((timer) => timer.state)).toEqual(["fired", "fired", "fired"]);
  // Six days passed on the run's clock, none in real time.
  expect(Date.parse(run.timers[2]!.due) - Date.parse(run.timers[0]!.due)).toBe(4 * DAY);
});

test("maxTimers: 0 parks at the first reminder, to test the parking", async () => {
  const run = await testWorkflow(reminder, { agents, maxTimers: 0 });
  expect(run.ending).toMatchObject({ kind: "parked", label: "waiting on the review (0 reminders sent)", until: run.timers[0]!.due });
  expect(run.timers).toEqual([{ label: "waiting on the review (0 reminders sent)", due: expect.any(String), state: "pending", kind: "event" }]);
  expect(() => run.value).toThrow("the run parked");
});

test("a review during the first reminder's turn ends the wait: its timer is cancelled", async () => {
  const run = await testWorkflow(reminder, {
    agents,
    events: [{ during: "author#2", name: "reviewed", data: { verdict: "approved" } }],
  });
  expect(run.value).toEqual({ verdict: "approved", reminders: 1 });
  expect(run.timers.map((timer) => timer.state)).toEqual(["fired", "cancelled"]);
});
