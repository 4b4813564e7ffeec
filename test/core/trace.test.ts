import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { problemsOf, subscribeToRuns, traceOfRun, traceOfTurn, type RunTrace } from "turnlens/trace";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { askTurns, flow, mistake, SUMMARY } from "./workflows";

// Each entry below sits on a line of its own with a marker comment, so the test finds the line
// and column it expects in its own text rather than counting lines by hand.
const FILE = fileURLToPath(import.meta.url);
const LINES = readFileSync(FILE, "utf8").split("\n");

/** Where the entry call on the line marked `marker` starts: `answer(` or `noAnswer.…(`. */
function siteOf(marker: string, call = "answer(") {
  const index = LINES.findIndex((line) => line.includes(`// @${marker}`));
  if (index < 0) throw new Error(`no line is marked @${marker}`);
  const column = LINES[index]!.indexOf(call);
  if (column < 0) throw new Error(`line ${index + 1} has no ${call}`);
  return { file: FILE, line: index + 1, column: column + 1 };
}

/** A noAnswer site: V8 places the call at `noAnswer` or at its method, so either is the call. */
function expectNoAnswerSite(site: unknown, marker: string, method: string) {
  const start = siteOf(marker, "noAnswer.");
  expect(site).toMatchObject({ file: FILE, line: start.line });
  expect([start.column, start.column + "noAnswer.".length]).toContain((site as { column: number }).column);
  expect(LINES[start.line - 1]).toContain(`noAnswer.${method}(`);
}

const team = flow(async (wf) => {
  const [planner, coder] = await Promise.all(["planner", "coder-1"].map((key) => wf.agents.open({ key, runtime: "claude" })));
  const plan = await planner!.run({ prompt: "Plan it.", schema: SUMMARY });
  const code = await coder!.run({ prompt: "Code it." });
  const check = await planner!.run({ prompt: "Check it." });
  return [plan.outcome.kind, code.outcome.kind, check.outcome.kind];
}, "team");

const teamAgents = () => ({
  planner: [
    answer(SUMMARY, { summary: "the plan" }), // @planner-1
    noAnswer.silent(), // @planner-2
  ],
  "coder-*": answer((turn) => `coded by ${turn.agent}`), // @coder
});

describe("the trace of a turn", () => {
  test("is the entry that met it: option, key, pattern, index, nudge and the site of its call", async () => {
    const run = await testWorkflow(team, { agents: teamAgents() });
    expect(run.value).toEqual(["answered", "answered", "unanswered"]);
    const matches = run.turns.map((turn) => traceOfTurn(turn)?.match);
    expect(matches[0]).toEqual({ option: "agents", key: "planner", index: 0, nudge: false, site: siteOf("planner-1") });
    expect(matches[1]).toEqual({ option: "agents", key: "coder-*", pattern: "coder-*", index: null, nudge: false, site: siteOf("coder") });
    expect(matches[2]).toMatchObject({ option: "agents", key: "planner", index: 1, nudge: false });
    expect(matches[3]).toMatchObject({ option: "agents", key: "planner", index: 1, nudge: true });
    expectNoAnswerSite(matches[2]?.site, "planner-2", "silent");
    expect(matches[3]?.site).toEqual(matches[2]?.site);
  });

  test("has the turn as asked, its outcome, and the answer or the reason", async () => {
    const run = await testWorkflow(team, { agents: teamAgents() });
    const [plan, code, check, nudge] = run.turns.map((turn) => traceOfTurn(turn));
    expect(plan).toMatchObject({ agent: "planner", n: 1, nudge: false, prompt: "Plan it.", schema: SUMMARY, outcome: "answered", answer: { summary: "the plan" } });
    expect(code).toMatchObject({ agent: "coder-1", outcome: "answered", answer: "coded by coder-1" });
    expect(check).toMatchObject({ agent: "planner", n: 2, outcome: "unanswered", reason: "a nudge followed" });
    expect(nudge).toMatchObject({ n: 2, nudge: true, outcome: "unanswered", reason: "the agent did not answer, even after a nudge" });
    expect(check).not.toHaveProperty("answer");
  });

  test("stays out of the turn itself, so toEqual on turns is unaffected", async () => {
    const run = await testWorkflow(team, { agents: teamAgents() });
    const [first] = run.turns;
    expect(first).toEqual({
      agent: "planner",
      n: 1,
      nudge: false,
      prompt: "Plan it.",
      schema: SUMMARY,
      cwd: expect.any(String),
      model: "sonnet",
      messages: [],
      outcome: "answered",
    });
    expect(JSON.stringify(first)).not.toContain("match");
    expect(traceOfTurn({ ...first })).toBeUndefined();
  });
});

describe("the trace of a mistake", () => {
  test("a turn past a list's end: the list's last entry", async () => {
    const error = await mistake(testWorkflow(askTurns(["one", "two"]), { agents: { a: [answer("1")] } })); // @past-end
    expect(problemsOf(error)).toEqual([expect.objectContaining({ code: "list-exhausted", agent: "a", turn: 2, key: "a", index: 1, site: siteOf("past-end") })]);
    expect(problemsOf(error)?.[0]?.sites).toEqual([siteOf("past-end")]);
  });

  test("an entry never reached: the first entry not reached, and every one", async () => {
    const error = await mistake(
      testWorkflow(askTurns(["one"]), {
        agents: {
          a: [
            answer("1"),
            answer("2"), // @unreached-1
            answer("3"), // @unreached-2
          ],
        },
      }),
    );
    expect(problemsOf(error)?.[0]).toMatchObject({
      code: "entry-never-reached",
      index: 1,
      site: siteOf("unreached-1"),
      sites: [siteOf("unreached-1"), siteOf("unreached-2")],
    });
  });

  test("a list never asked: its first entry", async () => {
    const error = await mistake(
      testWorkflow(askTurns(["one"]), {
        agents: {
          a: answer("1"),
          "b-*": [answer("b")], // @never-asked
        },
      }),
    );
    expect(problemsOf(error)).toEqual([
      {
        code: "list-never-asked",
        message: 'no agent matching "b-*" was asked; its script has 1 turn',
        pattern: "b-*",
        key: "b-*",
        index: 0,
        site: siteOf("never-asked"),
        sites: [siteOf("never-asked")],
      },
    ]);
  });

  test("a schema mismatch: the entry, and both schemas", async () => {
    const error = await mistake(testWorkflow(askTurns(["one"]), { agents: { a: answer(SUMMARY, { summary: "x" }) } })); // @mismatch
    expect(problemsOf(error)?.[0]).toMatchObject({
      code: "schema-mismatch",
      site: siteOf("mismatch"),
      expectedSchema: "text",
      actualSchema: SUMMARY,
      index: null,
      key: "a",
    });
  });

  test("a refused answer: the entry and the validator's path", async () => {
    const bad = { summary: 1 } as never;
    const asks = flow(async (wf) => (await (await wf.agents.open({ key: "a", runtime: "claude" })).run({ prompt: "sum", schema: SUMMARY })).outcome);
    const error = await mistake(testWorkflow(asks, { agents: { a: answer(SUMMARY, bad) } })); // @refused
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "answer-refused", site: siteOf("refused"), path: "/summary" });
  });

  test("a script that threw: the entry, and where it threw", async () => {
    // biome-ignore format: the @threw-entry marker stays on the line of its answer(
    const error = await mistake(
      testWorkflow(askTurns(["one"]), {
        agents: {
          a: answer(() => { // @threw-entry
            throw new Error("boom"); // @threw-at
          }),
        },
      }),
    );
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "script-threw", site: siteOf("threw-entry"), thrownAt: siteOf("threw-at", "new Error(") });
  });

  test("a script returning nothing or an entry, and an interrupted agent: the entry", async () => {
    const nothing = await mistake(testWorkflow(askTurns(["one"]), { agents: { a: answer(() => undefined as never) } })); // @nothing
    expect(problemsOf(nothing)?.[0]).toMatchObject({ code: "script-returned-nothing", site: siteOf("nothing") });
    const entry = await mistake(testWorkflow(askTurns(["one"]), { agents: { a: answer(() => answer("x") as never) } })); // @entry
    expect(problemsOf(entry)?.[0]).toMatchObject({ code: "script-returned-entry", site: siteOf("entry") });
    const interrupted = await mistake(testWorkflow(askTurns(["one"]), { agents: { a: noAnswer.interrupted() } })); // @interrupted
    expect(problemsOf(interrupted)?.[0]?.code).toBe("interrupted-not-caller");
    expectNoAnswerSite(problemsOf(interrupted)?.[0]?.site, "interrupted", "interrupted");
  });

  test("an unscripted agent or a glob conflict: no entry site", async () => {
    const unscripted = await mistake(testWorkflow(askTurns(["one"]), { agents: { b: answer("x") } }));
    expect(problemsOf(unscripted)?.[0]).toMatchObject({ code: "agent-unscripted", agent: "a", turn: 1 });
    expect(problemsOf(unscripted)?.[0]).not.toHaveProperty("site");
  });

  test("problemsOf is undefined for any other error", () => {
    expect(problemsOf(new Error("x"))).toBeUndefined();
    expect(problemsOf("x")).toBeUndefined();
  });
});

describe("subscribeToRuns", () => {
  async function traced(running: () => Promise<unknown>): Promise<RunTrace[]> {
    const traces: RunTrace[] = [];
    const unsubscribe = subscribeToRuns((trace) => traces.push(trace));
    try {
      await running().catch(() => undefined);
    } finally {
      unsubscribe();
    }
    return traces;
  }

  test("gets a passing run's trace: its call site, entries, turns, ending and time", async () => {
    let run: Awaited<ReturnType<typeof testWorkflow<null, string[]>>> | undefined;
    const traces = await traced(async () => (run = await testWorkflow(team, { agents: teamAgents() }))); // @call
    expect(traces).toHaveLength(1);
    const [trace] = traces;
    expect(trace).toBe(traceOfRun(run!));
    expect(trace).toMatchObject({ workflow: "team", site: siteOf("call", "testWorkflow("), problems: [], ending: { kind: "completed" } });
    expect(trace!.entries).toEqual([
      { option: "agents", key: "planner", index: 0, kind: "answer", site: siteOf("planner-1"), schema: SUMMARY },
      { option: "agents", key: "planner", index: 1, kind: "noAnswer.silent", site: expect.objectContaining({ line: siteOf("planner-2", "noAnswer.").line }) },
      { option: "agents", key: "coder-*", index: null, kind: "answer", site: siteOf("coder") },
    ]);
    expect(trace!.turns).toEqual(run!.turns.map((turn) => traceOfTurn(turn)));
    expect(trace!.durationMs).toBeGreaterThanOrEqual(0);
  });

  test("gets a failing run's trace, with its problems and how the attempt ended", async () => {
    let error: unknown;
    const traces = await traced(() =>
      testWorkflow(askTurns(["one", "two"]), { agents: { a: [answer("1")] } }).catch((caught) => {
        error = caught;
      }),
    );
    expect(traces).toHaveLength(1);
    expect(traces[0]!.problems).toEqual(problemsOf(error));
    expect(traces[0]!.turns.map((turn) => [turn.n, turn.outcome])).toEqual([
      [1, "answered"],
      [2, "cancelled"],
    ]);
    expect(traces[0]!.ending).toMatchObject({ kind: "cancelled" });
  });

  test("gets the trace of options refused before the run", async () => {
    // @ts-expect-error a misspelt option
    const traces = await traced(() => testWorkflow(team, { agent: {} }));
    expect(traces[0]!.problems).toEqual([expect.objectContaining({ code: "unknown-option", option: "agent", suggestion: "agents" })]);
    expect(traces[0]!.turns).toEqual([]);
  });

  test("a listener that throws changes nothing, and one unsubscribed gets nothing", async () => {
    const heard: string[] = [];
    const noisy = subscribeToRuns(() => {
      throw new Error("listener broke");
    });
    const quiet = subscribeToRuns((trace) => heard.push(trace.workflow));
    quiet();
    try {
      const run = await testWorkflow(team, { agents: teamAgents() });
      expect(run.value).toEqual(["answered", "answered", "unanswered"]);
    } finally {
      noisy();
    }
    expect(heard).toEqual([]);
  });
});
