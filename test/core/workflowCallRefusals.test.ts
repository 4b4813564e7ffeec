// The workflow calls issue 5 added (time, events, messages, participants, tools, compact, set,
// fork, the calling session, panes) refuse what they can't take: each throws into the workflow
// with its own message, which the workflow may catch, rather than failing the test.

import { describe, expect, test } from "bun:test";
import { defineWorkflow, type AgentRef, type WorkflowContext } from "agentswf/workflow";
import { refusal } from "./workflows";

describe("a workflow call given what it can't take throws into the workflow", () => {
  const refusals: Array<[string, (wf: WorkflowContext, a: AgentRef) => unknown, string]> = [
    [
      "wf.waitUntil, a time that is none",
      (wf) => wf.waitUntil("soon" as never),
      `wf.waitUntil's time must be a Date, an ISO time or a duration such as "2d", not "soon"`,
    ],
    ["wf.events.wait, no event name", (wf) => wf.events.wait([] as never), "wf.events.wait needs an event name"],
    [
      "wf.events.wait, an until that is no time",
      (wf) => wf.events.wait("note", { until: "soon" }),
      `wf.events.wait's until must be a Date, an ISO time or a duration such as "2d", not "soon"`,
    ],
    ["wf.keepAlive, a window that is no duration", (wf) => wf.keepAlive({ window: "soon" }), `keepAlive's window must be a duration such as "5s", not "soon"`],
    ["wf.emit, a run that is none", (wf) => wf.emit(5 as never, "ready", {}), `wf.emit needs a run, "workflow/id" or { workflow, id }, not 5`],
    [
      "wf.emit, a run object without its id",
      (wf) => wf.emit({ workflow: "release" } as never, "ready", {}),
      `wf.emit needs a run, "workflow/id" or { workflow, id }, not {"workflow":"release"}`,
    ],
    ["wf.emit, no event name", (wf) => wf.emit("release/v1", "", {}), "wf.emit needs an event name"],
    [
      "wf.emit, data that is no JSON",
      (wf) => wf.emit("release/v1", "ready", { at: new Date(0) } as never),
      `wf.emit: event "ready"'s data is not JSON: $.at is a Date, not a plain object`,
    ],
    ["wf.participants.connect, no key", (wf) => wf.participants.connect({} as never), `wf.participants.connect needs "key": a participant's key, as text`],
    [
      "wf.participants.connect, labels that are no JSON",
      (wf) => wf.participants.connect({ key: "lead", labels: { since: new Date(0) } } as never),
      `participant "lead": labels must be a JSON object; $.since is a Date, not a plain object`,
    ],
    ["wf.messages.allow, no route", (wf) => wf.messages.allow(5 as never), "wf.messages.allow takes { from, to, purpose } or { between, purpose }, not 5"],
    [
      "wf.messages.allow, no purpose",
      (wf) => wf.messages.allow({ from: "a", to: "lead", purpose: " " }),
      `wf.messages.allow's "purpose" must be what the ends message each other about, as text, not " "`,
    ],
    [
      "wf.messages.allow, between one end",
      (wf) => wf.messages.allow({ between: ["a"], purpose: "p" } as never),
      `wf.messages.allow's "between" must be two ends, [a, b], each an agent or a participant, not ["a"]`,
    ],
    [
      "wf.messages.allow, an end that is none",
      (wf) => wf.messages.allow({ from: 5, to: "a", purpose: "p" } as never),
      "wf.messages.allow: from is an agent or a participant, by ref or key, not 5",
    ],
    ["wf.messages.allow, one end at both", (wf) => wf.messages.allow({ from: "a", to: "a", purpose: "p" }), `wf.messages.allow: a route joins two ends; "a" is at both`],
    [
      "wf.agents.open, tools that aren't a list",
      (wf) => wf.agents.open({ key: "t", runtime: "claude", tools: "lookup" as never }),
      `wf.agents.open's "tools" must be a list of the workflow's tool names, not "lookup"`,
    ],
    [
      "wf.agents.open, a keepPane that is none",
      (wf) => wf.agents.open({ key: "k", runtime: "claude", keepPane: "sometimes" as never }),
      `wf.agents.open's "keepPane" must be "never", "on-failure" or "always", not "sometimes"`,
    ],
    [
      "wf.agents.open, a layout that is none",
      (wf) => wf.agents.open({ key: "l", runtime: "claude", layout: { nowhere: 1 } as never }),
      `agent "l": layout takes no option "nowhere"; it takes "session", "workspace", "tab"`,
    ],
    [
      "wf.agents.open, a split's share past 1",
      (wf) => wf.agents.open({ key: "m", runtime: "claude", layout: { beside: "a", side: "right", share: 2 } }),
      `agent "m": a split's share is a fraction between 0 and 1, not 2`,
    ],
    ["agent.compact, no prompt", (_wf, a) => a.compact({} as never), `agent "a": compact needs "prompt": the compaction's focus, as text`],
    ["agent.compact, an id that is no text", (_wf, a) => a.compact({ prompt: "focus", id: 5 as never }), `agent "a": compact's "id" must be text, not 5`],
    ["agent.set, no settings", (_wf, a) => a.set(5 as never), 'agent "a": set takes { model?, effort?, id? }, not 5'],
    ["agent.set, a model that is no name", (_wf, a) => a.set({ model: 5 as never }), `agent "a": set's "model" must be a model's name, not 5`],
    ["agent.set, an effort that is no name", (_wf, a) => a.set({ effort: 5 as never }), `agent "a": set's "effort" must be an effort level's name, not 5`],
    ["agent.set, neither model nor effort", (_wf, a) => a.set({}), `agent "a": set needs a model or an effort`],
    ["agent.fork, no key", (_wf, a) => a.fork({} as never), `agent "a": fork needs "key": the fork's key, new to the run`],
    ["wf.agents.caller, no key", (wf) => wf.agents.caller({} as never), `wf.agents.caller needs "key": the key to drive the calling session under`],
    ["wf.agents.forkCaller, no key", (wf) => wf.agents.forkCaller({} as never), `wf.agents.forkCaller needs "key": the fork's key, new to the run`],
  ];
  for (const [what, call, message] of refusals) {
    test(what, async () => {
      expect(await refusal(call)).toBe(`TypeError: ${message}`);
    });
  }
});

describe("defineWorkflow refuses tools it can't run", () => {
  const refusals: Array<[string, unknown, string]> = [
    ["tools that aren't a map", 5, `workflow w's "tools" must be a map of each tool's name to { description, input, run }, not 5`],
    ["a tool's name with a space", { "look up": {} }, `workflow w: a tool's name is letters, digits, '.', '_' and '-', not "look up"`],
    ["a tool that is no object", { lookup: 5 }, `workflow w: tool "lookup" takes { description, input, run }, not 5`],
    ["a tool without a description", { lookup: { description: " " } }, `workflow w: tool "lookup"'s "description" must be what the tool does, as text, not " "`],
    ["a tool without an input schema", { lookup: { description: "Looks up." } }, `workflow w: tool "lookup" needs "input": the tool's input schema`],
  ];
  for (const [what, tools, message] of refusals) {
    test(what, () => {
      expect(() => defineWorkflow({ name: "w", description: "d", tools: tools as never, run: async () => null })).toThrow(message);
    });
  }
});
