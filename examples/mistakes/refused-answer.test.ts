// A script's answer goes through the real validator, which checks what types can't: NOTE's title
// has at least 3 characters. Fails with:
// agent "writer" turn 1: the schema refused its script's answer: /title is "v2", 2 characters; allowed: at least 3 characters
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("an answer the schema refuses", async () => {
  await testWorkflow(note, {
    agents: { writer: answer(NOTE, { title: "v2" }) },
  });
});
