// The run lines a replay needs (docs/data.md): the attempt's id and args, each turn's prompt, schema
// and answer, a decision's line, and how many run lines an event arrived after.
import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, Type, yesNo } from "agentswf/workflow";
import { readRunLines } from "../../core/workflow/runLog.ts";

const NOTE = Type.Object({ text: Type.String({ minLength: 1 }) });

const writing = defineWorkflow({
  name: "writing",
  description: "A writer drafts a note, then says it is done; it waits for one approval.",
  events: { approved: Type.Object({ by: Type.String() }) },
  prepare: ({ argv }) => ({ topic: argv[0] ?? "tests" }),
  async run(wf, { topic }) {
    wf.keepAlive();
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    const draft = await writer.run({ prompt: `Draft a note on ${topic}.`, schema: NOTE });
    const done = await writer.run({ prompt: "Say done." });
    const approval = await wf.events.wait("approved");
    return { draft: draft.outcome.kind, done: done.outcome.kind, approval: approval.kind };
  },
});

describe("the run lines keep what turnlens record writes a test from", () => {
  test("the attempt line has the run's id and args; each turn its prompt and schema; each answered end its answer", async () => {
    const run = await testWorkflow(writing, {
      args: { topic: "lines" },
      id: "run-7",
      agents: { writer: [answer(NOTE, { text: "A note." }), answer("done")] },
      events: [{ after: "writer#2", name: "approved", data: { by: "ann" } }],
    });
    expect(run.run.filter((line) => line.kind !== "wait")).toEqual([
      { v: 1, kind: "attempt", attempt: 1, at: expect.any(String), id: "run-7", args: { topic: "lines" } },
      { v: 1, kind: "session", attempt: 1, agent: "writer", harness: "claude", model: "sonnet", at: expect.any(String) },
      {
        v: 1,
        kind: "turn-begun",
        attempt: 1,
        op: 1,
        agent: "writer",
        operation: "turn",
        n: 1,
        nudge: false,
        at: expect.any(String),
        prompt: "Draft a note on lines.",
        schema: JSON.parse(JSON.stringify(NOTE)),
      },
      { v: 1, kind: "turn-ended", attempt: 1, op: 1, agent: "writer", n: 1, end: "answered", at: expect.any(String), answer: { text: "A note." } },
      { v: 1, kind: "turn-begun", attempt: 1, op: 2, agent: "writer", operation: "turn", n: 2, nudge: false, at: expect.any(String), prompt: "Say done." },
      { v: 1, kind: "turn-ended", attempt: 1, op: 2, agent: "writer", n: 2, end: "answered", at: expect.any(String), answer: "done" },
    ]);
    // The event arrived after the six lines above: where it falls among them.
    expect(run.events).toEqual([{ v: 1, kind: "event", eventId: "awf.test.1", name: "approved", data: { by: "ann" }, at: expect.any(String), runLines: 6 }]);
    expect(readRunLines(run.run)).toHaveLength(7);
  });

  test("a nudge's line has no prompt of its own, and a silent end no answer", async () => {
    const run = await testWorkflow(writing, {
      agents: { writer: [noAnswer.silent(), answer("done")] },
      events: [{ after: "writer#2", name: "approved", data: { by: "ann" } }],
    });
    const turns = run.run.filter((line) => line.kind === "turn-begun" || line.kind === "turn-ended");
    expect(turns.map((line) => [line.kind, line.n, "prompt" in line, "answer" in line])).toEqual([
      ["turn-begun", 1, true, false],
      ["turn-ended", 1, false, false],
      ["turn-begun", 1, false, false],
      ["turn-ended", 1, false, false],
      ["turn-begun", 2, true, false],
      ["turn-ended", 2, false, true],
    ]);
  });

  test("a decision line keeps what the provider answered, or its error's message", async () => {
    const deciding = defineWorkflow({
      name: "deciding",
      description: "Decides twice.",
      async run(wf) {
        const first = await wf.decide({ key: "ship", questions: { ready: yesNo("Ready?") } });
        const second = await wf.decide({ key: "again", questions: { ready: yesNo("Ready?") } }).catch((error: Error) => error.message);
        return { first: first.answers.ready, second };
      },
    });
    const run = await testWorkflow(deciding, { decisions: { ship: { ready: 0.9 }, again: new Error("provider unavailable") } });
    expect(run.run.filter((line) => line.kind === "decision")).toEqual([
      { v: 1, kind: "decision", attempt: 1, key: "ship", answers: { ready: 0.9 }, at: expect.any(String) },
      { v: 1, kind: "decision", attempt: 1, key: "again", error: "provider unavailable", at: expect.any(String) },
    ]);
  });

  test("a reader refuses a recorded field of the wrong type, naming the line", () => {
    expect(() => readRunLines([{ v: 1, kind: "attempt", attempt: 1, at: "2026-01-05T09:00:00.000Z", id: 7 }])).toThrow(
      'run.jsonl line 1: "id" of an attempt line must be text, not 7',
    );
  });
});
