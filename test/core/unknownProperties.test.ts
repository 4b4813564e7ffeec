// Every workflow API call refuses a property it doesn't take, naming it and the nearest name it
// does take, in testWorkflow's words (`… takes no option "x"; did you mean "y"?`), so a ported
// workflow never loses a setting silently. Each `@ts-expect-error` line is also a tsc error.

import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, type AgentRef, type WorkflowContext } from "agentswf/workflow";
import { flow, mistake, NOTE, openAgents, refusal } from "./workflows";

describe("a workflow call given a property it doesn't take refuses it by name, with the nearest", () => {
  // biome-ignore format: each row stays on the line under its @ts-expect-error
  const refusals: Array<[string, (wf: WorkflowContext, a: AgentRef) => unknown, string]> = [
    // @ts-expect-error timeoutMs is no TurnSpec property
    ["agent.run, timeoutMs for timeout", (_wf, a) => a.run({ prompt: "Go.", timeoutMs: 50 }), `agent "a": run takes no option "timeoutMs"; did you mean "timeout"?`],
    // @ts-expect-error nudge's prompt is its only property
    ["agent.run's nudge, text for prompt", (_wf, a) => a.run({ prompt: "Go.", nudge: { text: "Answer." } }), `agent "a": run's nudge takes no option "text"; it takes "prompt"`],
    // @ts-expect-error instruction is no AgentSpec property
    ["wf.agents.open, instruction", (wf) => wf.agents.open({ key: "b", runtime: "claude", instruction: "Be brief." }), `wf.agents.open takes no option "instruction"; did you mean "instructions"?`],
    // @ts-expect-error modle is no runtime property
    ["wf.agents.open's runtime, modle", (wf) => wf.agents.open({ key: "b", runtime: { harness: "claude", modle: "opus" } }), `agent "b": runtime takes no option "modle"; did you mean "model"?`],
    // @ts-expect-error summery is no stage option
    ["wf.stage, summery", (wf) => wf.stage("plan", { result: NOTE, summery: () => "s" }, async () => ({ text: "t" })), `stage plan takes no option "summery"; did you mean "summary"?`],
    // @ts-expect-error limit is no parallel option
    ["wf.parallel, limit", (wf) => wf.parallel([1], async () => 1, { limit: 1 }), `wf.parallel takes no option "limit"; it takes "concurrency", "deadline", "label"`],
    // @ts-expect-error labl is no wait option
    ["wf.sleep, labl", (wf) => wf.sleep("1s", { labl: "nap" }), `wf.sleep takes no option "labl"; did you mean "label"?`],
    // @ts-expect-error labels is no wait option
    ["wf.waitUntil, labels", (wf) => wf.waitUntil("1s", { labels: "nap" }), `wf.waitUntil takes no option "labels"; did you mean "label"?`],
    // @ts-expect-error timeout is no event wait option
    ["wf.events.wait, timeout", (wf) => wf.events.wait("note", { timeout: "1s" }), `wf.events.wait takes no option "timeout"; it takes "label", "until"`],
    // @ts-expect-error id is no emit option
    ["wf.emit, id", (wf) => wf.emit("release/v1", "ready", {}, { id: "e-1" }), `wf.emit takes no option "id"; it takes "eventId"`],
    // @ts-expect-error windowMs is no keepAlive option
    ["wf.keepAlive, windowMs", (wf) => wf.keepAlive({ windowMs: 50 }), `wf.keepAlive takes no option "windowMs"; did you mean "window"?`],
    // @ts-expect-error reason is no route property
    ["wf.messages.allow, reason", (wf) => wf.messages.allow({ from: "a", to: "b", purpose: "p", reason: "r" }), `wf.messages.allow takes no option "reason"; it takes "from", "to", "purpose"`],
    // @ts-expect-error label is no participant property
    ["wf.participants.connect, label", (wf) => wf.participants.connect({ key: "lead", label: { team: "x" } }), `wf.participants.connect takes no option "label"; did you mean "labels"?`],
    // @ts-expect-error writes is no sandbox rule
    ["wf.sandboxes.open, writes", (wf) => wf.sandboxes.open({ key: "box", writes: ["."] }), `sandbox "box" takes no option "writes"; did you mean "write"?`],
    // @ts-expect-error question is no decision property
    ["wf.decide, question", (wf) => wf.decide({ key: "d", question: {} }), `wf.decide takes no option "question"; did you mean "questions"?`],
    // @ts-expect-error focus is no compaction property
    ["agent.compact, focus", (_wf, a) => a.compact({ prompt: "keep the plan", focus: "plan" }), `agent "a": compact takes no option "focus"; it takes "prompt", "id", "timeout"`],
    // @ts-expect-error efort is no set property
    ["agent.set, efort", (_wf, a) => a.set({ efort: "high" }), `agent "a": set takes no option "efort"; did you mean "effort"?`],
    // @ts-expect-error runtime is no fork property
    ["agent.fork, runtime", (_wf, a) => a.fork({ key: "f", runtime: "codex" }), `agent "a": fork takes no option "runtime"; it takes "key", "placement", "metered", "effort", "instructions", "labels", "layout", "keepPane"`],
    // @ts-expect-error name is no caller property
    ["wf.agents.caller, name", (wf) => wf.agents.caller({ key: "me", name: "me" }), `wf.agents.caller takes no option "name"; it takes "key"`],
    // @ts-expect-error keys is no fork property
    ["wf.agents.forkCaller, keys", (wf) => wf.agents.forkCaller({ key: "f", keys: "f" }), `wf.agents.forkCaller takes no option "keys"; did you mean "key"?`],
  ];
  for (const [what, call, message] of refusals) {
    test(what, async () => {
      expect(await refusal(call)).toBe(`TypeError: ${message}`);
    });
  }

  test("wf.agents.open's layout, a split's sid", async () => {
    // @ts-expect-error sid is no split property
    const call = (wf: WorkflowContext) => wf.agents.open({ key: "b", runtime: "claude", layout: { beside: "a", sid: "right" } });
    expect(await refusal(call)).toBe(`TypeError: agent "b": layout takes no option "sid"; did you mean "side"?`);
  });
});

describe("a workflow's definition given a property it doesn't take refuses it by name as the file loads", () => {
  test("defineWorkflow, stage for stages", () => {
    // @ts-expect-error stage is no WorkflowSpec property
    expect(() => defineWorkflow({ name: "w", description: "d", stage: {}, run: async () => null })).toThrow(`workflow w takes no option "stage"; did you mean "stages"?`);
  });

  test("a tool, handler for run", () => {
    const tools = { lookup: { description: "Looks up.", input: NOTE, handler: async () => "x" } };
    expect(() => defineWorkflow({ name: "w", description: "d", tools: tools as never, run: async () => null })).toThrow(
      `workflow w: tool "lookup" takes no option "handler"; it takes "description", "input", "run"`,
    );
  });
});

test("a turn given timeoutMs fails the run, naming timeout, rather than running unbounded", async () => {
  const ported = flow(async (wf) => {
    const [a] = await openAgents(wf, "a");
    // @ts-expect-error timeoutMs is no TurnSpec property
    return (await a.run({ prompt: "Go.", timeoutMs: 50 })).outcome.kind;
  }, "ported");
  const run = await testWorkflow(ported, { agents: { a: answer("done") } });
  expect(run.ending).toMatchObject({ kind: "failed", reason: `agent "a": run takes no option "timeoutMs"; did you mean "timeout"?` });
  expect(run.turns).toEqual([]);
});

test("a script's turn.send given an option wfa send doesn't take fails the test, naming the nearest", async () => {
  const chatty = flow(async (wf) => {
    const [a] = await openAgents(wf, "a", "b");
    await wf.messages.allow({ from: "a", to: "b", purpose: "questions" });
    return (await a.run({ prompt: "Ask b." })).outcome.kind;
  }, "chatty");
  const error = await mistake(
    testWorkflow(chatty, {
      agents: {
        a: answer(async (turn) => {
          // @ts-expect-error awaitreply is no send option
          await turn.send("b", "Which first?", { awaitreply: true });
          return "asked";
        }),
      },
    }),
  );
  expect(error.message).toBe(`agent "a" turn 1: its script threw: turn.send takes no option "awaitreply"; did you mean "awaitReply"?. It was asked: Ask b.`);
});
