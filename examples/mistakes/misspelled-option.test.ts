// An option testWorkflow doesn't take is refused, named, so a misspelling fails rather than
// being ignored. Fails with: testWorkflow takes no option "agnets"; did you mean "agents"?
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a misspelled option", async () => {
  await testWorkflow(note, {
    // @ts-expect-error -- tsc refuses the name too; the test shows what the run says.
    agnets: { writer: answer(NOTE, { title: "Release 1.2" }) },
  });
});
