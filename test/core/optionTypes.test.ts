// What `tsc` checks of a test's options and a workflow's events: each `@ts-expect-error` line must
// be a type error (npm run typecheck fails on one that isn't), and each test also runs, asserting
// the refusal a JS caller gets at run time for the same mistake, or that the allowed call works.

import { describe, expect, test } from "bun:test";
import { answer, answersTo, testWorkflow, type DecisionAnswers, type TestOptions } from "agentswf/testing";
import { choice, defineWorkflow, score, Type, yesNo, type Workflow } from "agentswf/workflow";
import { eventFlow, flow, mistake, needsFile, NOTE, openAgents } from "./workflows";

const GO = Type.Object({ ticket: Type.String() });

/** Takes a file, or none (null). */
const maybeFile = defineWorkflow({
  name: "maybe-file",
  description: "Reads the file its args name, if any.",
  prepare: ({ argv }) => (argv[0] ? { file: argv[0] } : null),
  run: async (_wf, args) => (args ? `read ${args.file}` : "nothing to read"),
});

/** Started by `go`, then takes one `note` from its writer's turn; its args are what prepare makes. */
const ticketRun = defineWorkflow({
  name: "ticket-run",
  description: "Writes up a ticket an event names, with the note it is sent.",
  events: { go: GO, note: NOTE },
  starts: ["go"],
  prepare: ({ argv }) => ({ team: argv[0] ?? "payments" }),
  async run(wf, { team }) {
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    await writer.run({ prompt: "Write it up." });
    const note = await wf.events.wait("note", { label: "waiting for a note" });
    // The data is typed by NOTE, and wf.event's by GO once its name says which it is.
    const text: string | null = note.kind === "event" ? note.data.text : null;
    const ticket: string | null = wf.event?.name === "go" ? wf.event.data.ticket : null;
    return { team, ticket, text, runId: wf.runId };
  },
});

const writer = { writer: answer("written") };
const aNote = { during: "writer#1", name: "note", data: { text: "hi" } } as const;

describe("args, as tsc checks them", () => {
  test("a workflow whose args can't be null must be given them: options, and args in them", async () => {
    // @ts-expect-error no options, so no args
    const withoutOptions = await mistake(testWorkflow(needsFile));
    // @ts-expect-error options without args
    const withoutArgs = await mistake(testWorkflow(needsFile, {}));
    expect(withoutOptions.message).toBe("needs-file needs args: its prepare refused none: give a file");
    expect(withoutArgs.message).toBe(withoutOptions.message);
    expect((await testWorkflow(needsFile, { args: { file: "README.md" } })).value).toBe("read README.md");
  });

  test("args of the wrong type are refused by tsc, and go to run as given", async () => {
    // @ts-expect-error `file` is a string
    const run = await testWorkflow(needsFile, { args: { file: 7 } });
    expect(run.value).toBe("read 7");
  });

  test("a workflow whose args may be null may leave them out, or the options", async () => {
    expect((await testWorkflow(maybeFile)).value).toBe("nothing to read");
    expect((await testWorkflow(maybeFile, {})).value).toBe("nothing to read");
    expect((await testWorkflow(maybeFile, { args: null })).value).toBe("nothing to read");
  });

  test("a workflow with events may leave its args out: prepare makes them of no argv", async () => {
    const run = await testWorkflow(ticketRun, { agents: writer, events: [aNote] });
    expect(run.value).toEqual({ team: "payments", ticket: null, text: "hi", runId: "test" });
  });
});

describe("event, events and values, as tsc checks them", () => {
  test("event and events are type errors on a workflow without events", async () => {
    const error = await mistake(
      // @ts-expect-error maybe-file declares no events
      testWorkflow(maybeFile, { event: { name: "go", data: { ticket: "T-1" } } }),
    );
    expect(error.message).toBe('testWorkflow takes "event" only for a workflow with events; maybe-file declares none');
    // @ts-expect-error maybe-file declares no events
    const listed = await mistake(testWorkflow(maybeFile, { events: [aNote] }));
    expect(listed.message).toBe('testWorkflow takes "events" only for a workflow with events; maybe-file declares none');
  });

  test("values is a type error on a workflow with events", async () => {
    // @ts-expect-error no values for a workflow with events
    const error = await mistake(testWorkflow(ticketRun, { fromStage: "write", values: {} }));
    expect(error.message).toStartWith('testWorkflow takes no option "values"; it takes "args", "id", ');
  });

  test("a starting event is named and its data typed by the workflow's events", async () => {
    const run = await testWorkflow(ticketRun, { event: { name: "go", data: { ticket: "T-1" } }, agents: writer, events: [aNote] });
    expect(run.value).toMatchObject({ ticket: "T-1", text: "hi" });
    // @ts-expect-error ticket-run declares no "gone"
    const undeclared = await mistake(testWorkflow(ticketRun, { event: { name: "gone", data: {} } }));
    expect(undeclared.message).toBe('event "gone" does not start ticket-run; did you mean "go"?');
    // @ts-expect-error GO's ticket is a string
    const misfit = await mistake(testWorkflow(ticketRun, { event: { name: "go", data: { ticket: 1 } } }));
    expect(misfit.message).toStartWith(`event "go"'s data does not fit its schema: `);
    // @ts-expect-error GO's data is an object, so it can't be left out (it would be sent as null)
    const missing = await mistake(testWorkflow(ticketRun, { event: { name: "go" } }));
    expect(missing.message).toStartWith(`event "go"'s data does not fit its schema: `);
  });

  test("an event sent during a turn is named and its data typed by the workflow's events", async () => {
    const misnamed = await mistake(
      // @ts-expect-error ticket-run declares no "nite"
      testWorkflow(ticketRun, { agents: writer, events: [{ during: "writer#1", name: "nite", data: { text: "hi" } }] }),
    );
    expect(misnamed.message.split("\n")[0]).toBe(`event "nite" (during writer#1): the workflow declares no event "nite"; did you mean "note"?`);
    const misfit = await mistake(
      // @ts-expect-error NOTE's text is a string
      testWorkflow(ticketRun, { agents: writer, events: [{ during: "writer#1", name: "note", data: { text: 1 } }] }),
    );
    expect(misfit.message.split("\n")[0]).toStartWith(`event "note" (during writer#1): event "note"'s data does not fit its schema: `);
  });

  test("a participant's {key}:reply may be sent, typed as its reply; an agent's {key}:ended may not", async () => {
    const threaded = eventFlow("threaded", { note: NOTE }, async (wf) => {
      await wf.participants.connect({ key: "thread" });
      const [writer] = await openAgents(wf, "writer");
      await writer.run({ prompt: "Write." });
      const said = await wf.events.wait("thread:reply");
      return said.kind === "event" ? said.data.text : null;
    });
    const run = await testWorkflow(threaded, { agents: writer, events: [{ during: "writer#1", name: "thread:reply", data: { text: "yes" } }] });
    expect(run.value).toBe("yes");
    const error = await mistake(
      // @ts-expect-error {key}:ended is awf's own
      testWorkflow(threaded, { agents: writer, events: [{ during: "writer#1", name: "writer:ended", data: {} }] }),
    );
    expect(error.message.split("\n")[0]).toBe(
      `event "writer:ended" (during writer#1): "writer:ended" is awf's own event, sent when agent "writer" ends; nobody else sends it`,
    );
  });

  test("a Workflow typed without its events takes every option; the run checks them", async () => {
    const loose = ticketRun as Workflow<{ team: string }, unknown>;
    const error = await mistake(testWorkflow(loose, { values: {}, event: { name: "gone" } }));
    expect(error.message).toStartWith('testWorkflow takes no option "values"');
  });
});

describe("the workflow's side of its events, as tsc checks them", () => {
  test("wf.events.wait on a name the workflow doesn't declare is a type error, and fails the run", async () => {
    const waiting = eventFlow("waiting", { note: NOTE }, async (wf) => {
      // @ts-expect-error "nite" is no event waiting declares
      await wf.events.wait("nite");
    });
    const run = await testWorkflow(waiting);
    expect(() => run.value).toThrow('the workflow threw: wf.events.wait: the workflow declares no event "nite"; did you mean "note"?');
  });

  test("starts names declared events only: an undeclared one starts no run", async () => {
    const misstarted = defineWorkflow({
      name: "misstarted",
      description: "Starts on an event it doesn't declare.",
      events: { note: NOTE },
      // @ts-expect-error "go" is not declared
      starts: ["go"],
      run: async () => "ran",
    });
    // @ts-expect-error nor can a test name it
    const error = await mistake(testWorkflow(misstarted, { event: { name: "go", data: {} } }));
    expect(error.message).toBe('the workflow declares no event "go"; it takes "note"');
  });
});

describe("bare TestOptions", () => {
  const shared: TestOptions = { id: "shared", stall: "1s" };

  test("spreads into the options of any workflow: with args, without, and with events", async () => {
    expect(
      (
        await testWorkflow(
          flow(async (wf) => wf.runId),
          { ...shared },
        )
      ).value,
    ).toBe("shared");
    expect((await testWorkflow(needsFile, { ...shared, args: { file: "a.md" } })).value).toBe("read a.md");
    const run = await testWorkflow(ticketRun, { ...shared, agents: writer, events: [aNote] });
    expect(run.value).toMatchObject({ runId: "shared" });
  });

  test("holds no args, values, event or events, which not every workflow takes", async () => {
    // @ts-expect-error no args in what any test shares
    const _withArgs: TestOptions = { args: { file: "a.md" } };
    // @ts-expect-error no values: a workflow with events takes none
    const withValues: TestOptions = { values: {} };
    // @ts-expect-error no event: a workflow without events takes none
    const _withEvent: TestOptions = { event: { name: "go", data: {} } };
    const error = await mistake(testWorkflow(ticketRun, { ...withValues }));
    expect(error.message).toStartWith('testWorkflow takes no option "values"');
  });
});

/** A release's one decision: how risky (a score), whether to ship (a yes-no) and who watches (a choice). */
const RELEASE = {
  risk: score("How risky is this release?", ["low", "medium", "high"]),
  ship: yesNo("Ship it now?"),
  watcher: choice("Who watches the rollout?", { payments: null, platform: "the on-call platform engineer" }),
};
const release = flow(async (wf) => {
  const { answers } = await wf.decide({ key: "release-1", questions: RELEASE });
  return { risk: RELEASE.risk.levels[answers.risk.level], ship: answers.ship.yes, watcher: answers.watcher.choice };
}, "release");

describe("decisions, as tsc checks them against the questions (answersTo)", () => {
  test("each question takes its kind's shorthand: a level index or probabilities, a yes or a probability, an option or probabilities", async () => {
    const shorthand = await testWorkflow(release, { decisions: { "release-*": answersTo(RELEASE, { risk: 2, ship: true, watcher: "platform" }) } });
    expect(shorthand.value).toEqual({ risk: "high", ship: true, watcher: "platform" });
    const probabilities = answersTo(RELEASE, { risk: [0.1, 0.8, 0.1], ship: 0.2, watcher: { payments: 0.7, platform: 0.3 } });
    expect((await testWorkflow(release, { decisions: { "release-*": probabilities } })).value).toEqual({ risk: "medium", ship: false, watcher: "payments" });
    // A function gets the questions as typed, and returns answers checked the same way.
    const byFunction = answersTo(RELEASE, (request) => ({ risk: request.questions.risk.levels.indexOf("low") as 0, ship: false, watcher: "payments" }));
    expect((await testWorkflow(release, { decisions: { "release-*": byFunction } })).value).toEqual({ risk: "low", ship: false, watcher: "payments" });
  });

  test("a score answered with a level's name is refused by tsc, as the run refuses it", async () => {
    // @ts-expect-error "risk" is a score: a level index (0, 1 or 2) or a probability per level, not a level's name
    const error = await mistake(testWorkflow(release, { decisions: { "release-*": answersTo(RELEASE, { risk: "high", ship: true, watcher: "payments" }) } }));
    expect(error.message).toContain('decision "release-1": "risk" is a score question; its script answers "high"');
  });

  test("a level past the score's levels, an option the choice does not have and a yes-no given a word are refused by tsc, as the run refuses them", async () => {
    // @ts-expect-error the levels are 0 to 2
    const past = await mistake(testWorkflow(release, { decisions: { "release-*": answersTo(RELEASE, { risk: 3, ship: true, watcher: "payments" }) } }));
    expect(past.message).toContain('decision "release-1": "risk" has levels 0 to 2; its script answers 3');
    // @ts-expect-error "billing" is no option of "watcher"
    const option = await mistake(testWorkflow(release, { decisions: { "release-*": answersTo(RELEASE, { risk: 0, ship: true, watcher: "billing" }) } }));
    expect(option.message).toContain('"billing" is not one of its options (payments, platform)');
    // @ts-expect-error "ship" is a yes-no: true, false or a probability of yes
    const word = await mistake(testWorkflow(release, { decisions: { "release-*": answersTo(RELEASE, { risk: 0, ship: "yes", watcher: "payments" }) } }));
    expect(word.message).toContain('decision "release-1": "ship" is a yes-no question; its script answers "yes"');
  });

  test("an id the questions do not have is refused by tsc, as the run refuses it", async () => {
    // @ts-expect-error "rsik" is not one of the questions
    const error = await mistake(testWorkflow(release, { decisions: { "release-*": answersTo(RELEASE, { rsik: 2, ship: true, watcher: "payments" }) } }));
    expect(error.message).toContain('decision "release-1": its script answers "rsik", which it did not ask');
  });

  test("DecisionAnswers of the questions types a bare object the same way", () => {
    const right = { risk: 1, ship: false } satisfies DecisionAnswers<typeof RELEASE>;
    // @ts-expect-error "risk" is a score question
    const wrong = { risk: "medium" } satisfies DecisionAnswers<typeof RELEASE>;
    expect([right, wrong]).toEqual([{ risk: 1, ship: false }, { risk: "medium" }]);
  });
});
