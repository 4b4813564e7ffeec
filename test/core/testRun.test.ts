import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { flow, SUMMARY, thrown } from "./workflows";

const review = flow(async (wf) => {
  wf.log("starting", { files: 2 });
  const writer = await wf.agents.open({
    key: "writer",
    runtime: "claude",
    instructions: "Write plainly.",
    skills: [{ path: "skills/style" }],
  });
  const reviewer = await wf.agents.open({ key: "reviewer", runtime: { alias: "codex", effort: "low" } });
  const draft = await wf.stage("draft", { result: SUMMARY }, async () => {
    const { outcome } = await writer.run({ prompt: "Draft it.", schema: SUMMARY, label: "Draft" });
    return outcome.kind === "answered" ? outcome.value : { summary: "none" };
  });
  const { outcome } = await reviewer.run({ prompt: `Review: ${draft.summary}` });
  wf.log("done");
  return { draft: draft.summary, review: outcome.kind === "answered" ? outcome.value : outcome.kind };
}, "review-flow");

const scripted = {
  agents: { writer: answer(SUMMARY, { summary: "a draft" }), reviewer: [noAnswer.silent()] },
  files: { skills: { style: { "SKILL.md": "---\nname: house-style\ndescription: How we write.\n---\nWrite plainly.\n" } } },
};

describe("a TestRun", () => {
  test("value is what the workflow returned, and ending says it completed", async () => {
    const run = await testWorkflow(review, scripted);
    expect(run.value).toEqual({ draft: "a draft", review: "unanswered" });
    expect(run.ending).toEqual({
      kind: "completed",
      value: run.value,
      stages: [{ name: "draft", outcome: "succeeded", attempt: 1, source: "ran", value: { summary: "a draft" } }],
    });
  });

  test("turns are everyone's in the order they started, each recorded as the workflow asked it", async () => {
    const run = await testWorkflow(review, scripted);
    /** The reviewer's unanswered turn, and its nudge: the same but for `nudge`. */
    const reviewerTurn = (nudge: boolean) => ({
      agent: "reviewer",
      n: 1,
      nudge,
      prompt: "Review: a draft",
      cwd: expect.any(String),
      model: "gpt-5.6-sol",
      effort: "low",
      messages: [],
      outcome: "unanswered",
    });
    expect(run.turns).toEqual([
      {
        agent: "writer",
        n: 1,
        nudge: false,
        prompt: "Draft it.",
        schema: SUMMARY,
        label: "Draft",
        stage: "draft",
        cwd: expect.any(String),
        model: "sonnet",
        messages: [],
        outcome: "answered",
      },
      reviewerTurn(false),
      reviewerTurn(true),
    ]);
  });

  test("turnsOf is one agent's turns, nudges included, and [] for an agent opened and never asked", async () => {
    const run = await testWorkflow(review, scripted);
    expect(run.turnsOf("reviewer").map((turn) => turn.nudge)).toEqual([false, true]);
    expect(run.turnsOf("writer")).toEqual([run.turns[0]]);
    const idle = await testWorkflow(flow(async (wf) => (await wf.agents.open({ key: "idle", runtime: "claude" }), "opened")));
    expect([idle.turnsOf("idle"), idle.compactionsOf("idle"), idle.setsOf("idle")]).toEqual([[], [], []]);
  });

  test("turnsOf, compactionsOf and setsOf throw for a key no agent was opened under, as agentOf does, so a misspelt key fails an every(...) check", async () => {
    const run = await testWorkflow(review, scripted);
    const opened = 'no agent "reviwer" was opened; opened: "writer", "reviewer"';
    expect(thrown(() => run.turnsOf("reviwer").every((turn) => turn.outcome === "answered")).message).toBe(opened);
    expect(thrown(() => run.compactionsOf("reviwer")).message).toBe(opened);
    expect(thrown(() => run.setsOf("reviwer")).message).toBe(opened);
  });

  test("agents and agentOf are what each agent was opened with", async () => {
    const run = await testWorkflow(review, scripted);
    expect(run.agents).toEqual([
      {
        key: "writer",
        execution: { harness: "claude", model: "sonnet", placement: "pane", alias: "claude" },
        instructions: "Write plainly.",
        skills: ["house-style"],
        pane: { tab: "writer", front: true },
        panes: { workspace: "run", keep: "never" },
      },
      {
        key: "reviewer",
        execution: { harness: "codex", model: "gpt-5.6-sol", effort: "low", placement: "pane", alias: "codex" },
        pane: { tab: "reviewer", front: false },
        panes: { workspace: "run", keep: "never" },
      },
    ]);
    expect(run.agentOf("reviewer")).toBe(run.agents[1]);
  });

  test("agentOf throws for a key never opened, naming those that were", async () => {
    const run = await testWorkflow(review, scripted);
    expect(thrown(() => run.agentOf("planner")).message).toBe('no agent "planner" was opened; opened: "writer", "reviewer"');
  });

  test("agentOf says none were opened when none were", async () => {
    const run = await testWorkflow(flow(async () => "idle"));
    expect(thrown(() => run.agentOf("a")).message).toBe('no agent "a" was opened; opened: none');
    expect(run.agents).toEqual([]);
  });

  test("logs are the workflow's log lines, with their fields", async () => {
    const run = await testWorkflow(review, scripted);
    expect(run.logs).toEqual([{ message: "starting", fields: { files: 2 } }, { message: "done" }]);
  });

  test("stages are each stage the attempt entered", async () => {
    const run = await testWorkflow(review, scripted);
    expect(run.stages).toEqual([{ name: "draft", outcome: "succeeded", attempt: 1, started: expect.any(String), at: expect.any(String), value: { summary: "a draft" } }]);
  });

  test("decisions are empty for a workflow that decides nothing", async () => {
    expect((await testWorkflow(review, scripted)).decisions).toEqual([]);
  });
});

describe("a run that didn't complete", () => {
  test("value throws what the workflow threw, with its error as the cause; ending says failed", async () => {
    const cause = new Error("lens ids must be unique");
    const run = await testWorkflow(
      flow(async () => {
        throw cause;
      }),
    );
    expect(() => run.value).toThrow("the workflow threw: lens ids must be unique");
    expect(thrown(() => run.value).cause).toBe(cause);
    expect(run.ending).toEqual({ kind: "failed", reason: "lens ids must be unique", stages: [], continue: "awf run flow --continue test" });
  });

  test("a thrown non-Error is reported as text", async () => {
    const run = await testWorkflow(
      flow(async () => {
        throw "plain string";
      }),
    );
    expect(() => run.value).toThrow("the workflow threw: plain string");
    expect(thrown(() => run.value).cause).toBe("plain string");
  });

  test("a stopped run's value throws, saying where it stopped", async () => {
    const run = await testWorkflow(flow(async (wf) => wf.stage("plan", async () => wf.stop("blocked on design"))));
    expect(() => run.value).toThrow("the workflow stopped in stage plan: blocked on design");
    expect(thrown(() => run.value).cause).toMatchObject({ name: "StopSignal", code: "stopped", reason: "blocked on design", stage: "plan" });
    expect(run.ending).toMatchObject({ kind: "stopped", stage: "plan", reason: "blocked on design" });
  });

  test("a timed-out run's value throws, with the deadline error as the cause", async () => {
    const run = await testWorkflow(
      flow((wf) => wf.parallel([1], () => new Promise(() => {}))),
      { timeout: "20ms" },
    );
    expect(() => run.value).toThrow("the run timed out: the run's deadline passed");
    expect(thrown(() => run.value).cause).toMatchObject({ name: "DeadlineExceededError", code: "deadline-exceeded", runDeadline: true });
    expect(run.ending).toEqual({ kind: "timed-out", reason: "the run's deadline passed", stages: [], continue: "awf run flow --continue test" });
  });

  test("a result that isn't JSON fails the run", async () => {
    const run = await testWorkflow(flow(async () => ({ when: new Date(0) })));
    expect(() => run.value).toThrow("the workflow threw: the workflow's result is not JSON: $.when is a Date, not a plain object");
    const nan = await testWorkflow(flow(async () => [1, Number.NaN]));
    expect(nan.ending).toMatchObject({ kind: "failed", reason: "the workflow's result is not JSON: $[1] is NaN, not a finite number" });
  });

  test("a workflow returning nothing completes with undefined", async () => {
    const run = await testWorkflow(flow(async () => undefined));
    expect(run.ending.kind).toBe("completed");
    expect(run.value).toBeUndefined();
  });
});
