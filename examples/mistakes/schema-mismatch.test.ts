// An answer's schema must be the turn's. The writer is asked for NOTE; its script answers STEP.
// Fails with: agent "writer" turn 1: it asks for {"properties":{"title":…; its script answers
// {"properties":{"done":…. It was asked: Title the release note. (Each schema is cut at 80 characters.)
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, STEP } from "./workflows";

test("an answer for another schema", async () => {
  await testWorkflow(note, {
    agents: { writer: answer(STEP, { done: true }) },
  });
});
