// What the testing API page says that no other core test asserted, section by section: the
// defaults and rules of the options issue 5 added, each rule by its exact message.

import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow, type Script, type TestOptions, type Turn } from "agentswf/testing";
import { defineWorkflow, Type } from "agentswf/workflow";
import { problemsOf } from "turnlens/trace";
import { askOnce, deferred, eventFlow, flow, mistake, NOTE, openAgents, thrown } from "./workflows";

const DAY = 86_400_000;

/** Opens agents a and b with a route between them, and asks a one turn; returns its outcome. */
const pair = (b = "b") =>
  defineWorkflow({
    name: "pair",
    description: "Two agents that may message each other.",
    tools: {
      lookup: { description: "Looks a ticket up.", input: Type.Object({ ticket: Type.String() }), run: async (input: { ticket: string }) => `ticket ${input.ticket}` },
    },
    async run(wf) {
      const a = await wf.agents.open({ key: "a", runtime: "claude" });
      await wf.agents.open({ key: b, runtime: "claude", tools: ["lookup"] });
      await wf.messages.allow({ between: ["a", b], purpose: "questions about the cache" });
      const { outcome } = await a.run({ prompt: "Ask b." });
      return outcome.kind === "answered" ? JSON.parse(outcome.value) : outcome.kind;
    },
  });

/** A's turn: one question to `peer`, answered with what the send resolved to. */
const asking = (peer = "b", text = "Which cache?\nThe one in front.") => answer(async (turn) => JSON.stringify(await turn.send(peer, text, { awaitReply: true })));

describe("the defaults of the options", () => {
  test("with neither timeout nor stall given, a hung turn is never timed out: after 2 s of nothing the stall fails the test", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "wait" }), { agents: { a: noAnswer.hang() } }));
    expect(error.message).toBe('the run stalled: nothing started or ended for 2000 ms; in flight: "a" turn 1');
  });

  test("allowance: every harness, pi and cursor too, reads none without the option", async () => {
    const run = await testWorkflow(flow(async (wf) => Promise.all(["claude", "codex", "pi", "cursor"].map((harness) => wf.allowance(harness)))));
    expect(run.value).toEqual([{ kind: "none" }, { kind: "none" }, { kind: "none" }, { kind: "none" }]);
  });

  test("without earlier, fromStage or values, the attempt is the first and runs every stage", async () => {
    const staged = flow(async (wf) => {
      await wf.stage("plan", async () => undefined);
      await wf.stage("ship", async () => undefined);
      return wf.attempt;
    });
    const run = await testWorkflow(staged);
    expect(run.value).toBe(1);
    expect(run.ending.stages.map((stage) => [stage.name, stage.source, stage.attempt])).toEqual([
      ["plan", "ran", 1],
      ["ship", "ran", 1],
    ]);
  });

  test("a shared TestOptions, with no args or events, spreads into each test's own; a script built apart is a Script", async () => {
    const shared: TestOptions = { stall: "1s", maxTurns: 3 };
    const twoTurns: Script = [answer("one"), answer("two")];
    const run = await testWorkflow(
      flow(async (wf) => {
        const a = await wf.agents.open({ key: "a", runtime: "claude" });
        return [(await a.run({ prompt: "1" })).outcome, (await a.run({ prompt: "2" })).outcome];
      }),
      { ...shared, agents: { a: twoTurns } },
    );
    expect(run.value).toEqual([
      { kind: "answered", value: "one" },
      { kind: "answered", value: "two" },
    ]);
  });
});

describe("the turn a script function gets", () => {
  test("runs at the model and effort the agent's last set left", async () => {
    const seen: Array<[string, string | undefined]> = [];
    const switching = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      await agent.run({ prompt: "Plan." });
      await agent.set({ model: "opus", effort: "high" });
      await agent.run({ prompt: "Build." });
      await agent.set({ effort: "low" });
      await agent.run({ prompt: "Tidy." });
    });
    await testWorkflow(switching, { agents: { a: answer((turn) => (seen.push([turn.model, turn.effort]), "ok")) } });
    expect(seen).toEqual([
      ["sonnet", undefined],
      ["opus", "high"],
      ["opus", "low"],
    ]);
  });

  test("of a wake has the message that woke it as its cause; a turn the workflow asked has none", async () => {
    const turns: Turn[] = [];
    await testWorkflow(pair(), {
      agents: { a: answer(async (turn) => (turns.push(turn), JSON.stringify(await turn.send("b", "Which cache?")))) },
      messages: { b: (message) => void turns.push(message.turn) },
    });
    expect(turns.map((turn) => [turn.agent, turn.n, turn.cause])).toEqual([
      ["a", 1, undefined],
      ["b", 0, { from: "a", text: "Which cache?", asks: false, answers: false }],
    ]);
  });
});

describe("messages", () => {
  test("turn.reply with awaitReply asks back, and resolves replied once the asker answers", async () => {
    const results: unknown[] = [];
    const run = await testWorkflow(pair(), {
      agents: {
        a: answer(async (turn) => {
          const answered = await turn.send("b", "Which cache?", { awaitReply: true });
          // b's reply asks back, so a owes it a reply before its result.
          await turn.reply("b", "Yes, add it.");
          return JSON.stringify(answered);
        }),
      },
      messages: { b: async (message) => void results.push(await message.reply("The LRU one. Shall I add it?", { awaitReply: true })) },
    });
    expect(run.value).toEqual({ kind: "replied", text: "The LRU one. Shall I add it?" });
    expect(results).toEqual([{ kind: "replied", text: "Yes, add it." }]);
    expect(run.messagesOf("a")).toEqual([{ from: "b", text: "The LRU one. Shall I add it?", awaitReply: true, end: "replied" }]);
  });

  test("a message has from, text, asks and answers, and its send, tool and reply are the woken agent's", async () => {
    const seen: unknown[] = [];
    const run = await testWorkflow(pair(), {
      agents: { a: asking() },
      messages: {
        b: async (message) => {
          seen.push([message.from, message.text, message.asks, message.answers]);
          seen.push(await message.tool("lookup", { ticket: "T-1" }));
          seen.push(await message.send("a", "Looking."));
          return message.reply("The LRU one.");
        },
        a: (message) => void seen.push(["a woken by", message.text]),
      },
    });
    expect(run.value).toEqual({ kind: "replied", text: "The LRU one." });
    expect(seen).toEqual([["a", "Which cache?\nThe one in front.", true, false], { kind: "result", output: "ticket T-1" }, { kind: "sent" }, ["a woken by", "Looking."]]);
  });

  test("a messages script is found by pattern, as agents' are", async () => {
    const run = await testWorkflow(pair("cache-b"), {
      agents: { a: asking("cache-b") },
      messages: { "cache-*": (message) => message.reply(`by pattern, for ${message.turn.agent}`) },
    });
    expect(run.value).toEqual({ kind: "replied", text: "by pattern, for cache-b" });
  });

  test("two patterns matching the woken agent fail the test", async () => {
    const error = await mistake(testWorkflow(pair("cache-b"), { agents: { a: asking("cache-b") }, messages: { "cache-*": () => undefined, "*-b": () => undefined } }));
    expect(error.message).toBe('agent "cache-b" message 1: it matches "cache-*" and "*-b"; give it a script of its own. It was sent by "a": Which cache?');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "glob-conflict", option: "messages", patterns: ["cache-*", "*-b"] });
  });

  test("a messages script that throws at the reminder names the wake as the reminder", async () => {
    const error = await mistake(
      testWorkflow(pair(), {
        agents: { a: asking() },
        messages: {
          b: (message) => {
            if (message.turn.nudge) throw new Error("still no idea");
          },
        },
      }),
    );
    expect(error.message).toBe('agent "b" message 1 (reminder): its messages script threw: still no idea. It was sent by "a": Which cache?');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "message-script-threw", wake: 1, nudge: true });
  });

  test("a messages script that returns answer(…) fails the test: a wake ends with nothing or a noAnswer", async () => {
    const error = await mistake(testWorkflow(pair(), { agents: { a: asking() }, messages: { b: () => answer("The LRU one.") as never } }));
    expect(error.message).toBe('agent "b" message 1: its messages script returned answer(…); a wake ends with nothing or a noAnswer. It was sent by "a": Which cache?');
    expect(problemsOf(error)?.[0]?.code).toBe("message-script-returned");
  });

  test("a noAnswer given as the messages script ends each wake that way", async () => {
    const run = await testWorkflow(pair(), { agents: { a: asking() }, messages: { b: noAnswer.blocked("asks to read the cache") } });
    expect(run.value).toEqual({ kind: "failed", reason: "blocked: asks to read the cache" });
    expect(run.turnsOf("b").map((turn) => turn.outcome)).toEqual(["blocked"]);
  });

  const refusals: Array<[string, unknown, string]> = [
    ["messages that aren't a map", [() => undefined], "messages must map an agent's key to a script for the messages that wake it, not [a function]"],
    ["an empty list", { b: [] }, 'messages["b"] is an empty list; a list has an entry per message'],
    [
      "answer(…), which meets a turn, not a message",
      { b: answer("The LRU one.") },
      'messages["b"] must be (message) => …, noAnswer.…() or a list of them, not answer(…)',
    ],
    [
      "a list holding a value",
      { b: [noAnswer.silent(), "The LRU one."] },
      'messages["b"] must be (message) => …, noAnswer.…() or a list of them, not [noAnswer.silent(), "The LRU one."]',
    ],
  ];
  for (const [what, messages, message] of refusals) {
    test(`given wrongly, is refused before the run: ${what}`, async () => {
      const error = await mistake(testWorkflow(pair(), { agents: { a: asking() }, messages: messages as never }));
      expect(error.message).toBe(message);
      expect(problemsOf(error)?.[0]?.option).toBe("messages");
    });
  }
});

describe("participants", () => {
  /** The investigator asks the coordinator; b only hears from it, along a one-way route. */
  const relayed = defineWorkflow({
    name: "relayed",
    description: "The coordinator passes what it is told on to b.",
    async run(wf) {
      await wf.participants.connect({ key: "coordinator" });
      const investigator = await wf.agents.open({ key: "investigator", runtime: "claude" });
      await wf.agents.open({ key: "b", runtime: "claude" });
      await wf.messages.allow({ between: ["investigator", "coordinator"], purpose: "the incidents" });
      await wf.messages.allow({ from: "coordinator", to: "b", purpose: "what to look at" });
      const { outcome } = await investigator.run({ prompt: "Tell the coordinator." });
      return outcome.kind === "answered" ? outcome.value : outcome.kind;
    },
  });

  test("a message event's send messages an agent, as awf send would, resolving { id } or { code }", async () => {
    const results: unknown[] = [];
    const run = await testWorkflow(relayed, {
      agents: { investigator: answer(async (turn) => (await turn.send("coordinator", "Checkout is down.")).kind) },
      messages: { b: (message) => void results.push(["b woken by", message.from, message.text]) },
      participants: {
        coordinator: async (event) => {
          if (event.kind === "message") results.push(await event.send("b", "Look at checkout."), await event.send("nobody", "hello"));
        },
      },
    });
    expect(run.value).toBe("sent");
    expect(results).toEqual([{ id: "m2" }, { code: "unknown-peer" }, ["b woken by", "coordinator", "Look at checkout."]]);
    expect(run.messagesOf("b")).toEqual([{ from: "coordinator", text: "Look at checkout.", awaitReply: false, end: "delivered" }]);
  });

  const refusals: Array<[string, unknown, string]> = [
    ["participants that aren't a map", 5, "participants must map a participant's key to (event) => …, not 5"],
    ["a script that isn't a function", { coordinator: "Keep two." }, 'participants["coordinator"] must be (event) => …, not "Keep two."'],
    ["answer(…), which meets an agent's turn", { coordinator: answer("Keep two.") }, 'participants["coordinator"] must be (event) => …, not answer(…)'],
  ];
  for (const [what, participants, message] of refusals) {
    test(`given wrongly, are refused before the run: ${what}`, async () => {
      const error = await mistake(testWorkflow(relayed, { participants: participants as never }));
      expect(error.message).toBe(message);
      expect(problemsOf(error)?.[0]).toMatchObject({ code: "script-invalid", option: "participants" });
    });
  }
});

describe("compactions", () => {
  /** Opens "w-1", asks it one turn, then compacts it once. */
  const compacting = flow(async (wf) => {
    const agent = await wf.agents.open({ key: "w-1", runtime: "claude" });
    await agent.run({ prompt: "Plan." });
    return agent.compact({ prompt: "Keep the plan.\nAll of it." });
  });
  const agents = { "w-1": answer("planned") };

  test("a compaction script function gets the compaction as a turn: its number, and its focus as the prompt", async () => {
    const run = await testWorkflow(compacting, { agents, compactions: { "w-*": answer((turn) => `${turn.agent} #${turn.n}: ${turn.prompt.split("\n")[0]}`) } });
    expect(run.value).toEqual({ kind: "answered", value: "w-1 #1: Keep the plan." });
  });

  const mistakes: Array<[string, Record<string, Script>, string, string]> = [
    [
      "a script that throws",
      {
        "w-1": answer(() => {
          throw new Error("no summary");
        }),
      },
      'agent "w-1" compaction 1: its script threw: no summary. It was asked: Keep the plan.',
      "script-threw",
    ],
    [
      "a script that returns nothing",
      { "w-1": answer(() => undefined as never) },
      'agent "w-1" compaction 1: its script returned nothing. It was asked: Keep the plan.',
      "script-returned-nothing",
    ],
    [
      "a script that returns answer(…)",
      { "w-1": answer(() => answer("x") as never) },
      'agent "w-1" compaction 1: its script returned answer(…); a function returns the value itself. It was asked: Keep the plan.',
      "script-returned-entry",
    ],
    [
      "two patterns matching the agent",
      { "w-*": answer("x"), "*-1": answer("y") },
      'agent "w-1" compaction 1: it matches "w-*" and "*-1"; give it a script of its own. It was asked: Keep the plan.',
      "glob-conflict",
    ],
  ];
  for (const [what, compactions, message, code] of mistakes) {
    test(`fail the test: ${what}`, async () => {
      const error = await mistake(testWorkflow(compacting, { agents, compactions }));
      expect(error.message).toBe(message);
      expect(problemsOf(error)?.[0]).toMatchObject({ code, agent: "w-1", compaction: 1 });
    });
  }

  test("that aren't a map are refused before the run", async () => {
    const error = await mistake(testWorkflow(compacting, { agents, compactions: 3 as never }));
    expect(error.message).toBe("compactions must map a key to a script, not 3");
  });
});

describe("time", () => {
  test("a turn's timeout stays on real time: the virtual clock never jumps to it, so a hung turn stalls", async () => {
    const patient = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      return (await agent.run({ prompt: "Take two days.", timeout: "2d" })).outcome;
    });
    const error = await mistake(testWorkflow(patient, { stall: "50ms", agents: { a: noAnswer.hang() } }));
    expect(error.message).toBe('the run stalled: nothing started or ended for 50 ms; in flight: "a" turn 1');
  });

  test("a keepAlive window stays on real time: the virtual clock never jumps to its end", async () => {
    const keptTwoDays = eventFlow("kept", { note: Type.Object({}) }, async (wf) => {
      wf.keepAlive({ window: "2d" });
      return (await wf.events.wait("note", { label: "waiting for a note" })).kind;
    });
    const error = await mistake(testWorkflow(keptTwoDays, { stall: "200ms" }));
    expect(error.message).toStartWith("the run stalled: nothing started or ended for 200 ms; no turn in flight; it waits live in a keepAlive window of 48h");
  });

  test("the events a test sends are stamped with the virtual clock, as wf.now() reads it", async () => {
    const later = defineWorkflow({
      name: "later",
      description: "Sleeps two days, then asks, then takes a note.",
      events: { go: Type.Object({}), note: Type.Object({ text: Type.String() }) },
      starts: ["go"],
      async run(wf) {
        const started = wf.now().getTime();
        await wf.sleep("2d", { label: "two days" });
        const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
        await writer.run({ prompt: "Write." });
        const note = await wf.events.wait("note", { label: "waiting for a note" });
        return { started, now: wf.now().getTime(), noteAt: note.kind === "event" ? Date.parse(note.at) : null };
      },
    });
    const run = await testWorkflow(later, {
      event: { name: "go", data: {} },
      agents: { writer: answer("written") },
      events: [{ during: "writer#1", name: "note", data: { text: "hi" } }],
    });
    expect(run.value.now - run.value.started).toBe(2 * DAY);
    expect(run.value.noteAt).toBe(run.value.now);
    expect(run.events.map((event) => Date.parse(event.at) - run.value.started)).toEqual([0, 2 * DAY]);
  });
});

describe("a workflow with events", () => {
  test("left without args, its prepare is called with no argv, as for a run an event starts", async () => {
    const prepared = defineWorkflow({
      name: "prepared",
      description: "Prepares its args from argv.",
      events: { note: NOTE },
      prepare: ({ argv }) => ({ argv }),
      run: async (_wf, args) => args,
    });
    expect((await testWorkflow(prepared, {})).value).toEqual({ argv: [] });
  });

  /** Asks the writer `turns` turns, compacting between them, then waits for a note. */
  const noted = (turns = 1) =>
    eventFlow("noted", { note: NOTE }, async (wf) => {
      await wf.participants.connect({ key: "coordinator" });
      const [writer] = await openAgents(wf, "writer");
      for (let turn = 1; turn <= turns; turn++) {
        if (turn > 1) await writer.compact({ prompt: "Keep the draft." });
        await writer.run({ prompt: `Write part ${turn}.` });
      }
      const taken = await wf.events.wait(["note", "coordinator:reply"], { label: "waiting for a note" });
      return taken.kind === "event" ? { name: taken.name, data: taken.data } : taken.kind;
    });
  const writer = { writer: answer("written") };

  test("an events entry whose data does not fit its schema fails the test as it is sent", async () => {
    // @ts-expect-error the data the schema refuses is a type error too; the run's check is for a JS caller
    const error = await mistake(testWorkflow(noted(), { agents: writer, events: [{ during: "writer#1", name: "note", data: { text: 5 } }] }));
    expect(error.message.split("\n")[0]).toBe(`event "note" (during writer#1): event "note"'s data does not fit its schema: /text is 5; allowed: a string`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "event-refused", option: "events", index: 0 });
  });

  test("a participant's {key}:reply is an event a test may send", async () => {
    const run = await testWorkflow(noted(), { agents: writer, events: [{ during: "writer#1", name: "coordinator:reply", data: { text: "Ship it." } }] });
    expect(run.value).toEqual({ name: "coordinator:reply", data: { text: "Ship it." } });
  });

  test("#n counts the agent's turns, not its compactions", async () => {
    const run = await testWorkflow(noted(2), { agents: writer, events: [{ during: "writer#2", name: "note", data: { text: "second" } }] });
    expect(run.value).toEqual({ name: "note", data: { text: "second" } });
    expect(run.compactionsOf("writer")).toHaveLength(1);
    expect(run.turnsOf("writer").map((turn) => turn.prompt)).toEqual(["Write part 1.", "Write part 2."]);
  });

  test("events are sent in the order given: one whose turn came while an earlier one was unsent is never sent", async () => {
    const error = await mistake(
      testWorkflow(noted(2), {
        agents: writer,
        events: [
          { during: "writer#3", name: "note", data: { text: "third" } },
          { during: "writer#1", name: "note", data: { text: "first" } },
        ],
      }),
    );
    expect(error.message.split("\n")).toEqual([
      `event "note" (during writer#3): agent "writer" never had turn 3`,
      `event "note" (during writer#1): agent "writer" never had turn 1 after the events before it were sent`,
    ]);
    expect(problemsOf(error)?.map((problem) => [problem.code, problem.index])).toEqual([
      ["event-never-sent", 0],
      ["event-never-sent", 1],
    ]);
  });

  test("an after event of a run that returned without waiting live fails the test", async () => {
    const quick = eventFlow("quick", { note: NOTE }, async (wf) => {
      const [author] = await openAgents(wf, "writer");
      return (await author.run({ prompt: "Write." })).outcome.kind;
    });
    const error = await mistake(testWorkflow(quick, { agents: writer, events: [{ after: "writer#1", name: "note", data: { text: "too late" } }] }));
    expect(error.message).toBe(
      `event "note" (after writer#1): the run returned before it was sent; an after event is sent while the run waits live in a keepAlive window`,
    );
  });

  test("a compaction keepAlive's onTimeout asks for is in compactionsOf", async () => {
    const kept = eventFlow("kept", { note: NOTE }, async (wf) => {
      const [writer] = await openAgents(wf, "writer");
      wf.keepAlive({ onTimeout: { compact: writer, prompt: "Keep what matters." } });
      await writer.run({ prompt: "Write." });
      return (await wf.events.wait("note", { label: "waiting for a note" })).kind;
    });
    const run = await testWorkflow(kept, { agents: writer, compactions: { writer: answer("What matters.") } });
    expect(run.ending).toMatchObject({ kind: "parked", label: "waiting for a note" });
    expect(run.compactionsOf("writer")).toEqual([{ agent: "writer", n: 1, id: "compaction-1", focus: "Keep what matters.", outcome: "answered" }]);
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ["event that is no object", { event: "note" }, `testWorkflow's "event" must be { name, data, eventId? }, not "note"`],
    ["event with an id that is no string", { event: { name: "note", data: { text: "x" }, eventId: 5 } }, "event's eventId must be a string, not 5"],
    ["event that does not start it", { event: { name: "nope", data: {} } }, `event "nope" does not start noted; no event starts it`],
    [
      "event the workflow does not declare, waking a continue",
      { earlier: {}, event: { name: "nope", data: {} } },
      `event "nope" is no event noted declares; did you mean "note"?`,
    ],
    ["events that aren't a list", { events: {} }, `testWorkflow's "events" must be a list of { during | after, name, data }, not {}`],
    ["an events entry that is no object", { events: [5] }, `events[0] must be { during | after: "agent#n", name, data, eventId? }, not 5`],
    ["an events entry with an id that is no string", { events: [{ during: "writer#1", name: "note", eventId: 7 }] }, "events[0]'s eventId must be a string, not 7"],
  ];
  for (const [what, options, message] of refusals) {
    test(`is refused before the run: ${what}`, async () => {
      const error = await mistake(testWorkflow(noted(), { agents: writer, ...options } as never));
      expect(error.message).toBe(message);
    });
  }
});

describe("continuing: earlier, fromStage and values given wrongly are refused before the run", () => {
  const declared = defineWorkflow({
    name: "declared",
    description: "Plans, then ships.",
    stages: { plan: Type.Object({ steps: Type.Array(Type.String()) }), ship: null },
    run: async () => "ran",
  });
  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ["earlier that is no object", { earlier: "yesterday" }, `testWorkflow's "earlier" must be { stages?, events?, run? }, not "yesterday"`],
    ["stages that aren't a map", { earlier: { stages: [] } }, `testWorkflow's "earlier.stages" must map each stage's name to its value, not []`],
    ["a stage name that is none", { earlier: { stages: { Plan: {} } } }, `earlier.stages: "Plan" is not a stage's name: lowercase letters, digits and '-'`],
    [
      "a stage value that is no JSON",
      { earlier: { stages: { plan: { steps: [], at: new Date(0) } } } },
      `earlier.stages["plan"] is not JSON: the value.at is a Date, not a plain object`,
    ],
    ["an earlier event that is no in.jsonl line", { earlier: { events: [{ name: "note" }] } }, `earlier.events line 1: "v" is missing: every line has its version, 1`],
    ["fromStage that is no name", { fromStage: 3 }, `testWorkflow's "fromStage" must be a stage's name, not 3`],
    ["values that aren't a map", { fromStage: "ship", values: 3 }, `testWorkflow's "values" must map each stage's name to its value, not 3`],
  ];
  for (const [what, options, message] of refusals) {
    test(what, async () => {
      const error = await mistake(testWorkflow(declared, options as never));
      expect(error.message).toBe(message);
      expect(problemsOf(error)?.[0]?.code).toBe("option-invalid");
    });
  }
});

describe("caller, allowance and panes given wrongly are refused before the run, naming the option", () => {
  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ["caller that is no object", { caller: "claude" }, `testWorkflow's "caller" must be { harness, model?, here? }, not "claude"`],
    ["caller.model that is no name", { caller: { harness: "claude", model: 5 } }, "caller.model must be the model its files show, not 5"],
    ["caller.here that is no boolean", { caller: { harness: "claude", here: "yes" } }, `caller.here must be true or false, not "yes"`],
    ["allowance that isn't a map", { allowance: [] }, `testWorkflow's "allowance" must map a harness to its HarnessAllowance, not []`],
    [
      "allowance for a harness there is none of",
      { allowance: { gemini: { kind: "none" } } },
      `allowance names no harness "gemini"; known: "claude", "codex", "pi", "cursor"`,
    ],
    ["panes that is no object", { panes: "run" }, `testWorkflow's "panes" must be { workspace?, keep? }, not "run"`],
    ["panes.workspace that is none", { panes: { workspace: "tab" } }, `panes.workspace is "run", "origin" or { name }, not "tab"`],
  ];
  for (const [what, options, message] of refusals) {
    test(what, async () => {
      const error = await mistake(
        testWorkflow(
          flow(async () => null),
          options as never,
        ),
      );
      expect(error.message).toBe(message);
      expect(problemsOf(error)?.[0]).toMatchObject({ code: "option-invalid", option: Object.keys(options)[0] });
    });
  }
});

describe("what the run did, under parallel", () => {
  test("two agents asked one after the other can't wait on each other: the test stalls and fails", async () => {
    const oneThenOther = flow(async (wf) => {
      const [a, b] = await openAgents(wf, "a", "b");
      await a.run({ prompt: "first" });
      await b.run({ prompt: "second" });
    });
    const bStarted = deferred();
    const error = await mistake(
      testWorkflow(oneThenOther, {
        stall: "50ms",
        agents: { a: answer(async () => (await bStarted.promise, "after b")), b: answer(() => (bStarted.resolve(), "started")) },
      }),
    );
    expect(error.message).toBe('the run stalled: nothing started or ended for 50 ms; in flight: "a" turn 1');
  });
});

describe("an entry where it cannot go", () => {
  test("is named as written, not by its fields", async () => {
    expect(thrown(() => answer(noAnswer.silent() as never, 1 as never)).message).toBe("answer takes a schema and a value, or text; not noAnswer.silent()");
    const error = await mistake(
      testWorkflow(
        flow(async () => null),
        { decisions: { "triage-1": answer("payments") as never } },
      ),
    );
    expect(error.message).toBe('decisions["triage-1"] must be answers by question id, an Error or a function, not answer(…)');
  });
});
