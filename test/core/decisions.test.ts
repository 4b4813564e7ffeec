import { describe, expect, test } from "bun:test";
import { testWorkflow } from "agentswf/testing";
import { choice, defineWorkflow, score, yesNo } from "agentswf/workflow";
import { problemsOf } from "turnlens/trace";
import { flow, forever, mistake, thrown } from "./workflows";

const QUESTIONS = {
  team: choice("Which team owns it?", { payments: "Card flows", accounts: null, frontend: "The web app" }),
  bug: yesNo("Is it a bug?", "Something that worked stopped working."),
  urgency: score("How urgent is it?", ["low", "medium", "high"]),
};

/** Decides `keys` in order and returns each decision's answers and record, or what decide threw. */
const triage = (...keys: string[]) =>
  flow(async (wf) => {
    const results: unknown[] = [];
    for (const key of keys) {
      results.push(
        await wf.decide({ key, questions: QUESTIONS, state: { ticket: key } }).then(
          (decision) => ({ answers: decision.answers, record: decision.record }),
          (error: Error & { code?: string; cause?: unknown }) => ({
            error: error.name,
            code: error.code,
            message: error.message,
            cause: (error.cause as Error | undefined)?.message,
          }),
        ),
      );
    }
    return results;
  }, "triage");

const decided = async (answers: Record<string, unknown>) =>
  ((await testWorkflow(triage("triage-1"), { decisions: { "triage-1": answers as never } })).value[0] as { answers: unknown }).answers;

describe("a decision's answers", () => {
  test("from shorthand: an option, a level index, true", async () => {
    expect(await decided({ team: "accounts", bug: true, urgency: 2 })).toEqual({
      team: { choice: "accounts", probabilities: { payments: 0, accounts: 1, frontend: 0 } },
      bug: { yes: true, probability: 1 },
      urgency: { level: 2, expected: 2, probabilities: [0, 0, 1] },
    });
  });

  test("from shorthand: false is no", async () => {
    expect(await decided({ team: "payments", bug: false, urgency: 0 })).toMatchObject({ bug: { yes: false, probability: 0 } });
  });

  test("from probabilities: as given, the top pick chosen, an option left out at 0", async () => {
    expect(await decided({ team: { payments: 0.95, frontend: 0.05 }, bug: 0.97, urgency: [0.1, 0.3, 0.6] })).toEqual({
      team: { choice: "payments", probabilities: { payments: 0.95, accounts: 0, frontend: 0.05 } },
      bug: { yes: true, probability: 0.97 },
      urgency: { level: 2, expected: 1.5, probabilities: [0.1, 0.3, 0.6] },
    });
  });

  test("ties go to the first option and the lowest level; below one half is no", async () => {
    expect(await decided({ team: { payments: 0.1, accounts: 0.45, frontend: 0.45 }, bug: 0.3, urgency: [0.5, 0.5, 0] })).toEqual({
      team: { choice: "accounts", probabilities: { payments: 0.1, accounts: 0.45, frontend: 0.45 } },
      bug: { yes: false, probability: 0.3 },
      urgency: { level: 0, expected: 0.5, probabilities: [0.5, 0.5, 0] },
    });
  });

  test("a sum the provider rounded, such as 0.99, is accepted", async () => {
    expect(await decided({ team: { payments: 0.5, accounts: 0.49 }, bug: true, urgency: [0.33, 0.33, 0.33] })).toMatchObject({
      team: { choice: "payments" },
    });
  });

  test("come with the decision's record", async () => {
    const run = await testWorkflow(triage("triage-1"), { decisions: { "triage-1": { team: "payments", bug: true, urgency: 1 } } });
    expect(run.value[0]).toMatchObject({ record: { key: "triage-1", model: "jev", provider: "scripted" } });
  });

  test("are found by pattern, an exact key winning", async () => {
    const run = await testWorkflow(triage("triage-1", "triage-2"), {
      decisions: { "triage-*": { team: "frontend", bug: false, urgency: 0 }, "triage-2": { team: "payments", bug: true, urgency: 2 } },
    });
    expect(run.value.map((result) => (result as { answers: { team: { choice: string } } }).answers.team.choice)).toEqual(["frontend", "payments"]);
  });

  test("may come from a function of the request, async", async () => {
    const run = await testWorkflow(triage("triage-1", "triage-2"), {
      decisions: { "triage-*": async (request) => ({ team: "payments", bug: request.key === "triage-2", urgency: Object.keys(request.questions).length - 1 }) },
    });
    expect(run.value).toMatchObject([{ answers: { bug: { yes: false }, urgency: { level: 2 } } }, { answers: { bug: { yes: true }, urgency: { level: 2 } } }]);
    expect(run.decisions).toEqual([
      { key: "triage-1", questions: QUESTIONS, state: { ticket: "triage-1" } },
      { key: "triage-2", questions: QUESTIONS, state: { ticket: "triage-2" } },
    ]);
  });
});

describe("an Error for a decision", () => {
  test("given, makes decide reject as a provider failure would", async () => {
    const down = new Error("provider down");
    const run = await testWorkflow(triage("triage-1"), { decisions: { "triage-1": down } });
    expect(run.value).toEqual([{ error: "DecisionError", code: "decision-failed", message: 'decision "triage-1" failed: provider down', cause: "provider down" }]);
  });

  test("returned by a function, does the same", async () => {
    const run = await testWorkflow(triage("triage-1"), { decisions: { "triage-1": () => new Error("rate limited") } });
    expect(run.value).toMatchObject([{ code: "decision-failed", message: 'decision "triage-1" failed: rate limited' }]);
  });

  test("thrown by a function, fails the test", async () => {
    const error = await mistake(
      testWorkflow(triage("triage-1"), {
        decisions: {
          "triage-1": () => {
            throw new Error("oops");
          },
        },
      }),
    );
    expect(error.message).toBe('decision "triage-1": its script threw: oops');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "decision-script-threw", decision: "triage-1", key: "triage-1" });
  });
});

describe("a decision script that can't answer fails the test", () => {
  const cases: Array<[string, unknown, string, string]> = [
    [
      "a question it wasn't asked",
      { team: "payments", bug: true, urgency: 0, impact: 2 },
      'its script answers "impact", which it did not ask; it asks "team", "bug", "urgency"',
      "decision-unasked-question",
    ],
    ["a number for a choice", { team: 1, bug: true, urgency: 0 }, '"team" is a choice question; its script answers 1', "decision-wrong-kind"],
    ["text for a score", { team: "payments", bug: true, urgency: "high" }, '"urgency" is a score question; its script answers "high"', "decision-wrong-kind"],
    ["text for a yes-no", { team: "payments", bug: "yes", urgency: 0 }, '"bug" is a yes-no question; its script answers "yes"', "decision-wrong-kind"],
    ["a level past the scale", { team: "payments", bug: true, urgency: 3 }, '"urgency" has levels 0 to 2; its script answers 3', "decision-wrong-kind"],
    [
      "an option it doesn't have",
      { team: "ops", bug: true, urgency: 0 },
      'its script\'s answer is refused: question team: "ops" is not one of its options (payments, accounts, frontend)',
      "decision-refused",
    ],
    [
      "probabilities adding up to less than 1",
      { team: { payments: 0.3, accounts: 0.2 }, bug: true, urgency: 0 },
      "its script's answer is refused: question team: its probabilities add up to 0.5, not 1",
      "decision-refused",
    ],
    [
      "a probability below 0",
      { team: { payments: 1.1, accounts: -0.1 }, bug: true, urgency: 0 },
      "its script's answer is refused: question team: 1.1 is not a probability",
      "decision-refused",
    ],
    [
      "a probability per level too few",
      { team: "payments", bug: true, urgency: [0.5, 0.5] },
      "its script's answer is refused: question urgency: 2 probabilities for 3 levels",
      "decision-refused",
    ],
    [
      "a probability of yes above 1",
      { team: "payments", bug: 1.5, urgency: 0 },
      "its script's answer is refused: question bug: no probability of yes: 1.5",
      "decision-refused",
    ],
    ["no answer to a question", { team: "payments", urgency: 0 }, "its script's answer is refused: question bug: no answer", "decision-refused"],
    ["a function returning no answers", () => 5, "its script returned 5, not answers by question id", "decision-wrong-kind"],
  ];
  for (const [what, script, why, code] of cases) {
    test(what, async () => {
      const error = await mistake(testWorkflow(triage("triage-1"), { decisions: { "triage-1": script as never } }));
      expect(error.message).toBe(`decision "triage-1": ${why}`);
      expect(problemsOf(error)?.[0]).toMatchObject({ code, decision: "triage-1", option: "decisions" });
    });
  }

  test("no decision scripted", async () => {
    const error = await mistake(testWorkflow(triage("triage-1")));
    expect(error.message).toBe('decision "triage-1": no decision is scripted');
    expect(problemsOf(error)?.[0]?.code).toBe("decision-unscripted");
  });

  test("no script for this decision", async () => {
    const error = await mistake(testWorkflow(triage("triage-1"), { decisions: { other: {}, "x-*": {} } }));
    expect(error.message).toBe('decision "triage-1": no script for it; scripted: "other", "x-*"');
  });

  test("two patterns matching it", async () => {
    const error = await mistake(testWorkflow(triage("triage-1"), { decisions: { "triage-*": {}, "*-1": {} } }));
    expect(error.message).toBe('decision "triage-1": it matches "triage-*" and "*-1"; give it a script of its own');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "glob-conflict", patterns: ["triage-*", "*-1"] });
  });
});

describe("decisions given wrongly", () => {
  test("a script that is neither answers, an Error nor a function is refused before the run", async () => {
    const error = await mistake(testWorkflow(triage("t"), { decisions: { t: 5 } } as never));
    expect(error.message).toBe('decisions["t"] must be answers by question id, an Error or a function, not 5');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "script-invalid", option: "decisions" });
  });

  test("decisions that aren't a map are refused", async () => {
    const error = await mistake(testWorkflow(triage("t"), { decisions: [] } as never));
    expect(error.message).toBe("decisions must map a decision key to its answers, not []");
  });
});

describe("decide asked wrongly", () => {
  const decides = (spec: unknown) => flow(async (wf) => wf.decide(spec as never));

  test("with no questions rejects before anything is asked", async () => {
    const run = await testWorkflow(decides({ key: "k", questions: {} }));
    expect(() => run.value).toThrow('the workflow threw: decision "k" asks no questions');
    expect(run.decisions).toEqual([]);
  });

  test("with a question not built by choice, score or yesNo rejects", async () => {
    const run = await testWorkflow(decides({ key: "k", questions: { q: { kind: "essay" } } }));
    expect(() => run.value).toThrow('the workflow threw: decision "k": question "q" is not built by choice, score or yesNo');
  });

  test("without a key rejects", async () => {
    const run = await testWorkflow(decides({ questions: QUESTIONS }));
    expect(() => run.value).toThrow(`the workflow threw: wf.decide needs "key": the decision's key, as text`);
  });

  test("choice and score need two options or levels", () => {
    expect(thrown(() => choice("one?", { only: null })).message).toBe("choice needs at least two options");
    expect(thrown(() => score("one?", ["only"])).message).toBe("score needs at least two levels, lowest first");
  });

  test("past its own deadline rejects with DeadlineExceededError, failing the run when uncaught", async () => {
    const waits = flow(async (wf) => wf.decide({ key: "k", questions: QUESTIONS, deadline: "20ms" }));
    const run = await testWorkflow(waits, { decisions: { k: () => forever() } });
    expect(run.ending).toMatchObject({ kind: "failed", reason: 'decision "k": the deadline passed' });
    expect((run.ending as { kind: string }).kind).toBe("failed");
    expect(() => run.value).toThrow(expect.objectContaining({ cause: expect.objectContaining({ name: "DeadlineExceededError", code: "deadline-exceeded" }) }));
  });

  test("past the run's deadline times the run out, even with a later deadline of its own", async () => {
    const waits = flow(async (wf) => wf.decide({ key: "k", questions: QUESTIONS, deadline: "1h" }));
    const run = await testWorkflow(waits, { timeout: "20ms", decisions: { k: () => forever() } });
    expect(run.ending).toMatchObject({ kind: "timed-out", reason: 'decision "k": the deadline passed' });
  });

  test("wf.decisions.decide is wf.decide under agentswf's first name for it", async () => {
    const run = await testWorkflow(
      flow(async (wf) => (await wf.decisions.decide({ key: "k", questions: { bug: QUESTIONS.bug } })).answers),
      {
        decisions: { k: { bug: 0.8 } },
      },
    );
    expect(run.value).toEqual({ bug: { yes: true, probability: 0.8 } });
  });
});

test("a decision asking a model alias the run doesn't know rejects before anything is sent", async () => {
  const asksUnknownModel = defineWorkflow({
    name: "unknown-model",
    description: "asks a decision model no run installs",
    async run(wf) {
      try {
        await wf.decide({ key: "pick", model: "gpt", questions: { ok: yesNo("Is it fine?") } });
        return "decided";
      } catch (error) {
        return (error as Error).message;
      }
    },
  });
  const run = await testWorkflow(asksUnknownModel, { decisions: { pick: { ok: true } } });
  expect(run.value).toBe('decision "pick": no decision model "gpt"; known: "jev"');
  expect(run.decisions).toEqual([]);
});
