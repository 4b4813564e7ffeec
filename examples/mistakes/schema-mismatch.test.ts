// An answer's schema must be the turn's. The writer is asked for NOTE; its script answers STEP.
// Fails with: agent "writer" turn 1: it asks for NOTE; its script answers STEP: at /title NOTE
// wants a string, STEP has no title. It was asked: Title the release note.
// (Each schema named as ./workflows exports it; the report's detail shows both whole.)
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, STEP } from "./workflows";

test("an answer for another schema", async () => {
  await testWorkflow(note, {
    agents: { writer: answer(STEP, { done: true }) },
  });
});
