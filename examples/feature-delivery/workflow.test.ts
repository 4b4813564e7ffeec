// examples/feature-delivery/workflow.test.ts
import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import featureDelivery, { CHANGE, VERDICT, WORK } from "./workflow";

const args = { ticket: "CACHE-12" };
const doc = "docs/tickets/CACHE-12.md";
const planned = { docPath: doc, summary: "plan v1", decisions: [] };
const ready = (summary: string) => answer(VERDICT, { kind: "ready", summary });

// A reviewer that asks the doc's or the change's author for a change, and waits for the reply.
const asking = (change: string, summary: string) =>
  answer(VERDICT, async (turn) => {
    const author = turn.label === "Review ticket doc" ? "planner" : "implementer";
    const revised = await turn.send(author, change, { awaitReply: true });
    return revised.kind === "replied" ? { kind: "ready", summary: `${summary}: ${revised.text}` } : { kind: "inconclusive", reason: `no revision: ${revised.kind}` };
  });

const happyPath = {
  planner: answer(WORK, planned),
  implementer: answer(CHANGE, { branch: "feat/cache" }),
  reviewer: ready("looks good"),
};

test("the happy path delivers with no messages", async () => {
  const run = await testWorkflow(featureDelivery, { args, agents: happyPath });
  expect(run.value).toMatchObject({ delivered: true, plan: "plan v1", branch: "feat/cache" });
  expect(run.messagesOf("planner")).toEqual([]);
});

test("a reviewer asks the planner to change the doc, and reviews once it replied", async () => {
  const run = await testWorkflow(featureDelivery, {
    args,
    agents: {
      ...happyPath,
      planner: [answer(WORK, planned), answer(WORK, { docPath: doc, summary: "plan v2", decisions: ["name the cache"] })],
      reviewer: [asking("name the cache", "doc ok"), ready("code ok")],
    },
    messages: { planner: (message) => message.reply("Named it in the doc.") },
  });
  expect(run.value).toMatchObject({
    delivered: true,
    plan: "plan v2",
    decisions: ["name the cache"],
    verdicts: [
      { kind: "ready", summary: "doc ok: Named it in the doc." },
      { kind: "ready", summary: "code ok" },
    ],
  });
  expect(run.messagesOf("planner")).toMatchObject([{ from: "reviewer", awaitReply: true, end: "replied" }]);
  // The wake for the message keeps the planner's turn number; its next turn is turn 2.
  expect(run.turnsOf("planner").map((turn) => [turn.n, turn.cause?.from ?? null])).toEqual([
    [1, null],
    [1, "reviewer"],
    [2, null],
  ]);
});

test("an author that never replies leaves the review inconclusive", async () => {
  const run = await testWorkflow(featureDelivery, {
    args,
    agents: { ...happyPath, reviewer: asking("name the cache", "doc ok") },
    messages: { planner: () => undefined },
  });
  expect(run.value).toMatchObject({ delivered: false, why: "the ticket doc was not approved" });
  expect(run.messagesOf("planner")[0]).toMatchObject({ end: "failed" });
});
