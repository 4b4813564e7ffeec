// Every workflow API call checks its options at the call (core/workflow/callOptions.ts's table):
// a missing one, a wrong one or no options at all is refused by name with what it takes, in
// testWorkflow's words, never left to fail inside the engine as a TypeError of its own.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, type AgentRef, type WorkflowContext } from "agentswf/workflow";
import { CALL_OPTIONS, type CallName } from "../../core/workflow/callOptions.ts";
import { refusal, refusalFrame } from "./workflows";

type Call = (wf: WorkflowContext, a: AgentRef) => unknown;

// Each row: the table's call, what is wrong, the call, the exact refusal.
const rows: Array<[CallName, string, Call, string]> = [
  [
    "wf.agents.open",
    "no runtime",
    (wf) => wf.agents.open({ key: "judge" } as never),
    `wf.agents.open needs "runtime": a runtime alias such as "claude", or { harness, model }`,
  ],
  [
    "wf.agents.open",
    "a runtime that is none",
    (wf) => wf.agents.open({ key: "judge", runtime: 5 } as never),
    `wf.agents.open's "runtime" must be a runtime alias such as "claude", or { harness, model }, not 5`,
  ],
  [
    "wf.agents.open",
    "no options",
    (wf) => wf.agents.open(undefined as never),
    "wf.agents.open takes { key, runtime, instructions?, skills?, labels?, cwd?, layout?, keepPane?, tools?, sandbox? }, not undefined",
  ],
  [
    "wf.agents.open",
    "instructions that are no text",
    (wf) => wf.agents.open({ key: "j", runtime: "claude", instructions: 5 } as never),
    `wf.agents.open's "instructions" must be text, not 5`,
  ],
  [
    "wf.agents.open",
    "labels that are no object",
    (wf) => wf.agents.open({ key: "j", runtime: "claude", labels: "x" } as never),
    `wf.agents.open's "labels" must be a JSON object such as { team: "infra" }, not "x"`,
  ],
  [
    "wf.agents.open",
    "a cwd that is no path",
    (wf) => wf.agents.open({ key: "j", runtime: "claude", cwd: 5 } as never),
    `wf.agents.open's "cwd" must be a directory's path, not 5`,
  ],
  [
    "runtime",
    "a runtime without its model",
    (wf) => wf.agents.open({ key: "j", runtime: { harness: "claude" } } as never),
    `agent "j": runtime needs "model": a model's name`,
  ],
  [
    "runtime alias",
    "an alias with metered that is no boolean",
    (wf) => wf.agents.open({ key: "j", runtime: { alias: "claude", metered: "yes" } } as never),
    `agent "j": runtime's "metered" must be true or false, not "yes"`,
  ],
  ["agent.run", "no prompt", (_wf, a) => a.run({} as never), `agent "a": run needs "prompt": the turn's prompt, as text`],
  [
    "agent.run",
    "a schema that is none",
    (_wf, a) => a.run({ prompt: "p", schema: 5 } as never),
    `agent "a": run's "schema" must be a TypeBox schema such as Type.Object({ … }), not 5`,
  ],
  ["agent.run", "a label that is no text", (_wf, a) => a.run({ prompt: "p", label: 5 } as never), `agent "a": run's "label" must be text, not 5`],
  ["agent.run", "a nudge that is none", (_wf, a) => a.run({ prompt: "p", nudge: 5 } as never), `agent "a": run's "nudge" must be true, false or { prompt }, not 5`],
  ["nudge", "a nudge without its prompt", (_wf, a) => a.run({ prompt: "p", nudge: {} } as never), `agent "a": run's nudge needs "prompt": the nudge's words, as text`],
  ["agent.compact", "no options", (_wf, a) => a.compact(undefined as never), `agent "a": compact takes { prompt, id?, timeout? }, not undefined`],
  [
    "agent.compact",
    "a timeout that is no duration",
    (_wf, a) => a.compact({ prompt: "p", timeout: "x" } as never),
    `agent "a": compact's "timeout" must be a duration such as "5s", or milliseconds, not "x"`,
  ],
  ["agent.set", "an id that is no text", (_wf, a) => a.set({ model: "opus", id: 5 } as never), `agent "a": set's "id" must be text, not 5`],
  [
    "agent.fork",
    "no options",
    (_wf, a) => a.fork(undefined as never),
    `agent "a": fork takes { key, placement?, metered?, effort?, instructions?, labels?, layout?, keepPane? }, not undefined`,
  ],
  ["agent.fork", "metered that is no boolean", (_wf, a) => a.fork({ key: "f", metered: 1 } as never), `agent "a": fork's "metered" must be true or false, not 1`],
  ["wf.agents.caller", "no options", (wf) => wf.agents.caller(undefined as never), "wf.agents.caller takes { key }, not undefined"],
  ["wf.stage", "options without a result", (wf) => wf.stage("s", {} as never, async () => 1), `stage s needs "result": the stage value's TypeBox schema`],
  [
    "wf.stage",
    "a summary that is no function",
    (wf) => wf.stage("s", { result: {}, summary: "x" } as never, async () => 1),
    `stage s's "summary" must be a function from the stage's value to text, not "x"`,
  ],
  [
    "wf.parallel",
    "a concurrency that is no number",
    (wf) => wf.parallel([1], async () => 1, { concurrency: "x" } as never),
    `wf.parallel's "concurrency" must be a whole number of items at once, at least 1, not "x"`,
  ],
  ["wait", "a sleep's label that is no text", (wf) => wf.sleep("1s", { label: 5 } as never), `wf.sleep's "label" must be text, not 5`],
  ["wait", "a sleep's options that are none", (wf) => wf.sleep("1s", 5 as never), "wf.sleep takes { label? }, not 5"],
  ["wf.events.wait", "a label that is no text", (wf) => wf.events.wait("note", { label: 5 } as never), `wf.events.wait's "label" must be text, not 5`],
  [
    "wf.emit",
    "an event id that is no text",
    (wf) => wf.emit("release/v1", "ready", {}, { eventId: 5 } as never),
    `wf.emit's "eventId" must be an event id, as text, not 5`,
  ],
  ["wf.keepAlive", "options that are none", (wf) => wf.keepAlive(5 as never), "wf.keepAlive takes { window?, onTimeout? }, not 5"],
  [
    "onTimeout",
    "an onTimeout without its prompt",
    (wf) => wf.keepAlive({ onTimeout: { compact: { key: "a" } } } as never),
    `wf.keepAlive's onTimeout needs "prompt": the compaction's focus, as text`,
  ],
  [
    "wf.messages.allow",
    "a route without its end",
    (wf) => wf.messages.allow({ from: "a", purpose: "p" } as never),
    `wf.messages.allow needs "to": an agent or a participant, by ref or key`,
  ],
  [
    "wf.messages.allow between",
    "a between route without its purpose",
    (wf) => wf.messages.allow({ between: ["a", "lead"] } as never),
    `wf.messages.allow needs "purpose": what the ends message each other about, as text`,
  ],
  ["wf.participants.connect", "no options", (wf) => wf.participants.connect(undefined as never), "wf.participants.connect takes { key, labels? }, not undefined"],
  ["defineWorkflow", "no run", () => defineWorkflow({ name: "w", description: "d" } as never), `workflow w needs "run": a run(wf, args) function`],
  [
    "defineWorkflow",
    "starts that are no list",
    () => defineWorkflow({ name: "w", description: "d", starts: "go", run: async () => null } as never),
    `workflow w's "starts" must be a list of the events that start a run, not "go"`,
  ],
  [
    "tool",
    "a tool without its input schema",
    () => defineWorkflow({ name: "w", description: "d", tools: { lookup: { description: "Looks up.", run: async () => null } } as never, run: async () => null }),
    `workflow w: tool "lookup" needs "input": the tool's input schema`,
  ],
  ["wf.decide", "no questions", (wf) => wf.decide({ key: "d" } as never), `wf.decide needs "questions": the questions by id, each built by choice, score or yesNo`],
  [
    "wf.decide",
    "a deadline that is no duration",
    (wf) => wf.decide({ key: "d", questions: {}, deadline: "soon" } as never),
    `wf.decide's "deadline" must be a duration such as "5s", or milliseconds, not "soon"`,
  ],
];

describe("a workflow call given a missing or wrong option refuses it by name, with what it takes", () => {
  for (const [call, what, run, message] of rows) {
    test(`${call}, ${what}`, async () => {
      expect(await refusal(run)).toBe(`TypeError: ${message}`);
    });
  }

  // refusalFrame awaits each call in workflows.ts: a refusal thrown after the call's first await
  // would have that file's line as its first frame outside the engine, not this one's.
  test("each refusal is thrown at the call: the first frame of its stack outside the engine is the workflow's line", async () => {
    const frames = await Promise.all(rows.map(([, , run]) => refusalFrame(run)));
    expect(frames.map((frame) => (frame.includes(import.meta.filename) ? "the call" : frame))).toEqual(rows.map(() => "the call"));
  });

  test("every call of the table has a refusal here", () => {
    const tested = new Set(rows.map(([call]) => call));
    expect(Object.keys(CALL_OPTIONS).filter((call) => !tested.has(call as CallName))).toEqual([]);
  });

  test("wf.log, fields that are no object", async () => {
    expect(await refusal((wf) => wf.log("note", 5 as never))).toBe(`TypeError: wf.log's fields must be a JSON object such as { ticket: "T-1" }, not 5`);
  });
});

describe("a refused option fails the run at the workflow's call", () => {
  const judging = defineWorkflow({
    name: "judging",
    description: "Opens a judge without its runtime.",
    async run(wf) {
      const judge = await wf.agents.open({ key: "judge" } as never); // the call's line
      return (await judge.run({ prompt: "Judge." })).outcome.kind;
    },
  });

  test("run.value throws the refusal, not a TypeError from inside the engine", async () => {
    const run = await testWorkflow(judging, { agents: { judge: answer("fine") } });
    expect(run.ending).toMatchObject({ kind: "failed", reason: `wf.agents.open needs "runtime": a runtime alias such as "claude", or { harness, model }` });
    expect(() => run.value).toThrow(`the workflow threw: wf.agents.open needs "runtime": a runtime alias such as "claude", or { harness, model }`);
  });

  test("the error run.value throws has the workflow's call as a frame, as the refusal's own stack does", async () => {
    const run = await testWorkflow(judging, { agents: { judge: answer("fine") } });
    const source = readFileSync(import.meta.filename, "utf8");
    const line = source.split("\n").findIndex((text) => text.includes("// the call's line")) + 1;
    const column = source.split("\n")[line - 1]!.indexOf("open(") + 1;
    const error = (() => {
      try {
        return run.value;
      } catch (thrown) {
        return thrown as Error;
      }
    })() as Error;
    expect(error.stack).toContain(`at the workflow (${import.meta.filename}:${line}:${column})`);
    expect((error.cause as Error).stack).toContain(`${import.meta.filename}:${line}:${column}`);
  });
});
