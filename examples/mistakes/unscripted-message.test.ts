// A message that wakes an idle agent is met by its `messages` script, not its `agents` one, which
// meets only the turns the workflow asks. The editor is asked nothing; the writer's question wakes it.
// Fails with: agent "editor" message 1: a message woke it, and "messages" has no script for it.
// It was sent by "writer": Which version goes first?
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { asking } from "./workflows";

test("a message wakes an agent with no messages script", async () => {
  await testWorkflow(asking, {
    agents: {
      writer: answer(async (turn) => {
        const asked = await turn.send("editor", "Which version goes first?", { awaitReply: true });
        return asked.kind === "replied" ? asked.text : asked.kind;
      }),
      editor: answer("1.3 first."),
    },
  });
});
