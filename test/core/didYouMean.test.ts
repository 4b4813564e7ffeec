// Every name the run refuses because it does not know it gets the nearest name it does know, in
// testWorkflow's words (`did you mean "during"?`), and a refusal's example is taken from the test
// at hand (its agents), never made up.

import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { choice, defineWorkflow, score, Type } from "agentswf/workflow";
import { problemsOf } from "turnlens/trace";
import { askOnce, mistake, NOTE } from "./workflows";

/** Opens a writer for one turn, then waits for a note; started by "case.changed". */
const noted = defineWorkflow({
  name: "noted",
  description: "Writes, then waits for a note.",
  events: { "case.changed": Type.Object({ case: Type.String() }), note: NOTE },
  starts: ["case.changed"],
  async run(wf) {
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    await writer.run({ prompt: "Write." });
    const note = await wf.events.wait("note");
    return note.kind;
  },
});

const writer = { writer: answer("written") };

describe("a misspelt name in testWorkflow's options is refused with the nearest", () => {
  test("a misspelt key in an events entry: durring for during", async () => {
    const error = await mistake(testWorkflow(noted, { agents: writer, events: [{ durring: "writer#1", name: "note", data: { text: "x" } } as never] }));
    expect(error.message).toBe(`events[0] takes no option "durring"; did you mean "during"?`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "option-invalid", option: "events", index: 0 });
  });

  test("a key far from any an events entry takes: the keys it takes", async () => {
    const error = await mistake(testWorkflow(noted, { agents: writer, events: [{ during: "writer#1", name: "note", data: { text: "x" }, when: 1 } as never] }));
    expect(error.message).toBe(`events[0] takes no option "when"; it takes "during", "after", "name", "data", "eventId"`);
  });

  test("a misspelt key in the starting event: dat for data", async () => {
    const error = await mistake(testWorkflow(noted, { agents: writer, event: { name: "case.changed", dat: { case: "c" } } as never }));
    expect(error.message).toBe(`event takes no option "dat"; did you mean "data"?`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "option-invalid", option: "event" });
  });

  test("a misspelt starting event", async () => {
    const error = await mistake(testWorkflow(noted, { agents: writer, event: { name: "case.chnged", data: { case: "c" } } as never }));
    expect(error.message).toBe(`event "case.chnged" does not start noted; did you mean "case.changed"?`);
  });

  test("a misspelt harness in allowance", async () => {
    const error = await mistake(testWorkflow(noted, { agents: writer, allowance: { claud: { kind: "none" } } as never }));
    expect(error.message).toBe(`allowance names no harness "claud"; did you mean "claude"?`);
  });
});

describe("an events entry without its turn names an agent of the test at hand as its example", () => {
  test("the first agent the test scripts", async () => {
    const error = await mistake(testWorkflow(noted, { agents: { editor: answer("x"), ...writer }, events: [{ name: "note", data: { text: "x" } } as never] }));
    expect(error.message).toBe(`events[0] ("note") needs one of during or after, such as during: "editor#1"`);
  });

  test("with no agent scripted by key, the form alone", async () => {
    const error = await mistake(testWorkflow(noted, { agents: { "*": answer("x") }, events: [{ name: "note", data: { text: "x" } } as never] }));
    expect(error.message).toBe(`events[0] ("note") needs one of during or after, naming an agent's turn as "agent#n"`);
  });
});

describe("a misspelt name the engine refuses is refused with the nearest", () => {
  test("a runtime alias, which fails the test", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "go" }, { runtime: "claud" }), { agents: { a: answer("x") } }));
    expect(error.message).toStartWith(`agent "a": no runtime "claud"; did you mean "claude"? (wf.agents.open at `);
  });

  test("a harness", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go" }, { runtime: { harness: "codx", model: "m" } }), { agents: { a: answer("x") } });
    expect(run.ending).toMatchObject({ kind: "failed", reason: `agent "a": no harness "codx"; did you mean "codex"?` });
  });

  test("an event the workflow waits for", async () => {
    const waiting = defineWorkflow({ name: "waiting", description: "Waits.", events: { note: NOTE }, run: async (wf) => (await wf.events.wait("nte" as never)).kind });
    const run = await testWorkflow(waiting);
    expect(run.ending).toMatchObject({ kind: "failed", reason: `wf.events.wait: the workflow declares no event "nte"; did you mean "note"?` });
  });

  test("a tool an agent is given", async () => {
    const tooled = defineWorkflow({
      name: "tooled",
      description: "Grants a tool.",
      tools: { lookup: { description: "Looks up.", input: Type.Object({}), run: async () => "found" } },
      run: async (wf) => (await wf.agents.open({ key: "a", runtime: "claude", tools: ["lookpu"] })).key,
    });
    const run = await testWorkflow(tooled);
    expect(run.ending).toMatchObject({ kind: "failed", reason: `agent "a" is given tool "lookpu", which the workflow does not declare; did you mean "lookup"?` });
  });
});

describe("a misspelt name in a decision script is refused with the nearest", () => {
  const deciding = defineWorkflow({
    name: "deciding",
    description: "Decides once.",
    run: async (wf) =>
      (
        await wf.decide({
          key: "route",
          questions: { team: choice("Which team?", { payments: null, accounts: null }), urgency: score("How urgent?", ["low", "high"]) },
        })
      ).answers,
  });

  test("a question id", async () => {
    const error = await mistake(testWorkflow(deciding, { decisions: { route: { team: "payments", urgncy: 1 } as never } }));
    expect(error.message).toBe(`decision "route": its script answers "urgncy", which it did not ask; did you mean "urgency"?`);
  });

  test("a choice's option", async () => {
    const error = await mistake(testWorkflow(deciding, { decisions: { route: { team: "acounts", urgency: 1 } as never } }));
    expect(error.message).toBe(`decision "route": its script's answer is refused: question team: "acounts" is not one of its options; did you mean "accounts"?`);
  });
});
