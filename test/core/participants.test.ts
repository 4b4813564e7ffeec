import { describe, expect, test } from "bun:test";
import { answer, testWorkflow, type ParticipantEvent } from "agentswf/testing";
import { defineWorkflow, type RouteSpec, type SendOptions } from "agentswf/workflow";
import { problemsOf, traceOfRun } from "turnlens/trace";
import { investigating, mistake } from "./workflows";

const PURPOSE = "questions about the incidents";

/** The page's `investigate`: the investigator's answer, or why there is none, and how long its turn took. */
const investigate = (route?: RouteSpec) =>
  investigating(async (investigator, wf) => {
    const started = wf.now().getTime();
    const { outcome } = await investigator.run({
      prompt: "Investigate the checkout incidents. Ask the coordinator whatever you can't decide, and answer with what to do.",
    });
    const tookMs = wf.now().getTime() - started;
    return outcome.kind === "answered" ? { answer: outcome.value, tookMs } : { answer: `no answer: ${outcome.reason}`, tookMs };
  }, route);

/** The investigator asks once, and answers with the reply's text or what the send came to. */
const asking = (options: SendOptions = { awaitReply: true }) =>
  answer(async (turn) => {
    const asked = await turn.send("coordinator", "One incident or two?", options);
    return asked.kind === "replied" ? asked.text : JSON.stringify(asked);
  });

describe("participants", () => {
  test("the page's sample: the coordinator answers the investigator's question", async () => {
    const run = await testWorkflow(
      investigating(async (investigator) => {
        const { outcome } = await investigator.run({ prompt: "Investigate the checkout incidents." });
        return outcome.kind === "answered" ? outcome.value : `no answer: ${outcome.reason}`;
      }),
      {
        agents: { investigator: asking() },
        participants: {
          coordinator: (event) => (event.kind === "message" && event.asks ? event.reply("Keep two, and link them.") : undefined),
        },
      },
    );
    expect(run.value).toBe("Keep two, and link them.");
    expect(run.messagesOf("coordinator")).toEqual([{ from: "investigator", text: "One incident or two?", awaitReply: true, end: "replied" }]);
    expect(run.messagesOf("investigator")).toEqual([{ from: "coordinator", text: "Keep two, and link them.", awaitReply: false, end: "delivered" }]);
    // The reply came in as the coordinator's `awf reply --to`, its `{key}:reply` event.
    expect(run.events).toMatchObject([{ name: "coordinator:reply", data: { text: "Keep two, and link them.", to: "m1" } }]);
  });

  test("a script is told each route as it opens, and each message, with what the calls resolve to", async () => {
    const events: unknown[] = [];
    const run = await testWorkflow(investigate(), {
      agents: { investigator: asking() },
      participants: {
        coordinator: async (event) => {
          // What the script is told, without its calls.
          events.push(Object.fromEntries(Object.entries(event).filter(([, value]) => typeof value !== "function")));
          return event.kind === "message" ? event.reply("Keep two.") : undefined;
        },
      },
    });
    expect(run.value).toEqual({ answer: "Keep two.", tookMs: 0 });
    expect(events).toEqual([
      { kind: "route", agent: "investigator", direction: "both", purpose: PURPOSE },
      { kind: "message", id: "m1", from: "investigator", text: "One incident or two?", asks: true },
    ]);
    expect(traceOfRun(run)?.participants).toEqual([
      { participant: "coordinator", kind: "route", agent: "investigator", direction: "both", purpose: PURPOSE, key: "coordinator" },
      { participant: "coordinator", kind: "message", from: "investigator", id: "m1", text: "One incident or two?", key: "coordinator", returned: { id: "m2" } },
    ]);
  });

  test("a route's direction is told from the participant's side, and send needs a route its way", async () => {
    const seen: Array<[string, unknown]> = [];
    const oneWay = (route: RouteSpec) =>
      testWorkflow(investigate(route), {
        agents: { investigator: answer("nothing to ask") },
        messages: { investigator: (message) => void seen.push(["woken by", message.text]) },
        participants: {
          coordinator: async (event) => {
            if (event.kind === "route") seen.push([event.direction, await event.send("Start with checkout.")]);
          },
        },
      });
    await oneWay({ from: "investigator", to: "coordinator", purpose: PURPOSE });
    await oneWay({ from: "coordinator", to: "investigator", purpose: PURPOSE });
    expect(seen).toEqual([
      ["to-participant", { code: "no-route" }],
      ["from-participant", { id: "m1" }],
      ["woken by", "Start with checkout."],
    ]);
  });

  test("a message to a participant is delivered once recorded", async () => {
    const run = await testWorkflow(investigate(), {
      agents: { investigator: asking({}) },
      participants: { coordinator: () => undefined },
    });
    expect(run.value).toEqual({ answer: JSON.stringify({ kind: "sent" }), tookMs: 0 });
    expect(run.messagesOf("coordinator")).toEqual([{ from: "investigator", text: "One incident or two?", awaitReply: false, end: "delivered" }]);
  });

  test("a question with no until, left open, ends the attempt rather than hanging", async () => {
    const run = await testWorkflow(investigate(), {
      agents: { investigator: asking() },
      participants: { coordinator: () => undefined },
    });
    const label = 'waiting on "coordinator" to answer "One incident or two?"';
    expect(run.ending).toMatchObject({ kind: "parked", label });
    expect(run.ending).not.toHaveProperty("until");
    expect(run.messagesOf("coordinator")).toEqual([{ from: "investigator", text: "One incident or two?", awaitReply: true, end: "failed", reason: "attempt-ended" }]);
    expect(() => run.value).toThrow(`the run parked, ${label}: it returns nothing until a continue`);
    expect(run.turnsOf("investigator").map((turn) => turn.outcome)).toEqual(["awaiting-reply"]);
  });

  test("a question with an until expires timeout on the virtual clock, counting toward no maxTimers", async () => {
    const run = await testWorkflow(investigate(), {
      maxTimers: 0,
      agents: { investigator: asking({ awaitReply: true, timeout: "2d" }) },
      participants: { coordinator: () => undefined },
    });
    expect(run.value).toEqual({ answer: JSON.stringify({ kind: "failed", reason: "timeout" }), tookMs: 2 * 86_400_000 });
    expect(run.messagesOf("coordinator")).toEqual([{ from: "investigator", text: "One incident or two?", awaitReply: true, end: "failed", reason: "timeout" }]);
    expect(run.timers).toEqual([{ label: 'waiting on "coordinator" to answer "One incident or two?"', due: expect.any(String), state: "fired", kind: "question" }]);
  });

  test("a reply after the question expired is refused no-question", async () => {
    let question: ParticipantEvent | undefined;
    let late: unknown;
    const run = await testWorkflow(investigate(), {
      agents: {
        investigator: answer(async (turn) => {
          const asked = await turn.send("coordinator", "One incident or two?", { awaitReply: true, timeout: "1h" });
          await turn.send("coordinator", "Never mind.");
          return asked.kind;
        }),
      },
      participants: {
        coordinator: async (event) => {
          if (event.kind !== "message") return;
          if (event.asks) question = event;
          else if (question?.kind === "message") late = await question.reply("Two.");
        },
      },
    });
    expect(run.value).toEqual({ answer: "failed", tookMs: 3_600_000 });
    expect(late).toEqual({ code: "no-question" });
  });

  test("a participant a route reaches with no script fails the test", async () => {
    const error = await mistake(testWorkflow(investigate(), { agents: { investigator: answer("done") } }));
    expect(error.message).toBe(`participant "coordinator": no participant is scripted. A route opened with "investigator" (both), for: ${PURPOSE}`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "participant-unscripted", option: "participants", participant: "coordinator" });
  });

  test("names the participants that are scripted when the one reached is not", async () => {
    const error = await mistake(testWorkflow(investigate(), { agents: { investigator: answer("done") }, participants: { lead: () => undefined } }));
    expect(error.message).toBe(`participant "coordinator": no script for it; scripted: "lead". A route opened with "investigator" (both), for: ${PURPOSE}`);
  });

  test("a participants script that throws fails the test", async () => {
    const error = await mistake(
      testWorkflow(investigate(), {
        agents: { investigator: asking() },
        participants: {
          coordinator: (event) => {
            if (event.kind === "message") throw new Error("out of office");
          },
        },
      }),
    );
    expect(error.message).toBe('participant "coordinator": its script threw: out of office. It was sent by "investigator": One incident or two?');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "participant-script-threw", key: "coordinator" });
  });
});

describe("wf.participants.connect", () => {
  test("a route between two participants is refused: the engine relays nothing between people", async () => {
    const people = defineWorkflow({
      name: "people",
      description: "Connects two participants and tries to route them.",
      async run(wf) {
        await wf.participants.connect({ key: "coordinator" });
        await wf.participants.connect({ key: "lead" });
        return wf.messages.allow({ between: ["coordinator", "lead"], purpose: "x" }).then(
          () => "allowed",
          (error: Error) => error.message,
        );
      },
    });
    const run = await testWorkflow(people);
    expect(run.value).toBe('wf.messages.allow: "coordinator" and "lead" are both participants; a route has an agent at one end');
  });

  test("the same key again is the same participant; other labels reject; an agent's key is refused", async () => {
    const connecting = defineWorkflow({
      name: "connecting",
      description: "Connects participants.",
      async run(wf) {
        const first = await wf.participants.connect({ key: "coordinator", labels: { team: "payments" } });
        const again = await wf.participants.connect({ key: "coordinator" });
        const refusals = [];
        for (const attempt of [
          () => wf.participants.connect({ key: "coordinator", labels: { team: "accounts" } }),
          async () => (await wf.agents.open({ key: "worker", runtime: "claude" }), wf.participants.connect({ key: "worker" })),
          () => wf.agents.open({ key: "coordinator", runtime: "claude" }),
        ]) {
          refusals.push(
            await attempt().then(
              () => "connected",
              (error: Error) => error.message,
            ),
          );
        }
        return { same: first === again, labels: again.labels ?? null, refusals };
      },
    });
    const run = await testWorkflow(connecting);
    expect(run.value).toEqual({
      same: true,
      labels: { team: "payments" },
      refusals: [
        'participant "coordinator" is already connected with other labels',
        '"worker" is an agent of the run; a participant needs a key of its own',
        '"coordinator" is a participant of the run; an agent needs a key of its own',
      ],
    });
  });
});
