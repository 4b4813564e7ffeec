// Agents beyond turns: compact, set, fork, stop, the calling session, allowance and panes, from the
// workflow side and through the testing options that script them.

import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow, type Script } from "agentswf/testing";
import type { AgentRef, WorkflowContext } from "agentswf/workflow";
import { traceOfRun } from "turnlens/trace";
import type { AgentHost } from "../../core/workflow/host.ts";
import { flow, mistake, SUMMARY } from "./workflows";
import { runOnEngine } from "./engineRun";

/** One macrotask hop: every promise callback queued before it has run (the host has the turn). */
const tick = () => new Promise<void>((done) => setImmediate(done));

/** Opens "a" on claude, asks it one turn, then runs `then` with it; returns what `then` returns. */
function afterOneTurn<Result>(then: (agent: AgentRef, wf: WorkflowContext) => Promise<Result>, runtime: Runtime = "claude") {
  return flow(async (wf) => {
    const agent = await wf.agents.open({ key: "a", runtime });
    await agent.run({ prompt: "Plan the change." });
    return then(agent, wf);
  }, "after-one-turn");
}

type Runtime = Parameters<WorkflowContext["agents"]["open"]>[0]["runtime"];

/** Runs afterOneTurn(then) with a's turn answered and its compactions scripted by `compactions`. */
const compacted = <Result>(then: (agent: AgentRef) => Promise<Result>, compactions: Record<string, Script>, runtime?: Runtime) =>
  testWorkflow(afterOneTurn(then, runtime), { agents: { a: answer("planned") }, compactions });

describe("agent.compact", () => {
  test("answers with the compaction script's summary and records { agent, n, id, focus, outcome }", async () => {
    const run = await compacted((agent) => agent.compact({ prompt: "Keep the plan." }), { a: answer("The plan: two steps.") });
    expect(run.value).toEqual({ kind: "answered", value: "The plan: two steps." });
    expect(run.compactionsOf("a")).toEqual([{ agent: "a", n: 1, id: "compaction-1", focus: "Keep the plan.", outcome: "answered" }]);
    expect(run.compactions).toEqual(run.compactionsOf("a"));
  });

  test('answers "" for every compaction of an agent with no compaction script', async () => {
    const run = await testWorkflow(
      afterOneTurn(async (agent) => [await agent.compact({ prompt: "one" }), await agent.compact({ prompt: "two", id: "second" })]),
      { agents: { a: answer("planned") } },
    );
    expect(run.value).toEqual([
      { kind: "answered", value: "" },
      { kind: "answered", value: "" },
    ]);
    expect(run.compactionsOf("a").map(({ n, id }) => ({ n, id }))).toEqual([
      { n: 1, id: "compaction-1" },
      { n: 2, id: "second" },
    ]);
  });

  test("runs after the agent's earlier turns and takes no turn number", async () => {
    const order: string[] = [];
    const workflow = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      const first = agent.run({ prompt: "first" });
      const compacted = agent.compact({ prompt: "focus" });
      const second = agent.run({ prompt: "second" });
      await Promise.all([first, compacted, second]);
    });
    const run = await testWorkflow(workflow, {
      agents: { a: answer((turn) => (order.push(`turn ${turn.n}`), "ok")) },
      compactions: { a: answer((turn) => (order.push(`compaction ${turn.n}: ${turn.prompt}`), "summary")) },
    });
    expect(order).toEqual(["turn 1", "compaction 1: focus", "turn 2"]);
    expect(run.turnsOf("a").map((turn) => turn.n)).toEqual([1, 2]);
  });

  test("is refused before the first turn", async () => {
    const workflow = flow(async (wf) => (await wf.agents.open({ key: "a", runtime: "claude" })).compact({ prompt: "focus" }));
    const run = await testWorkflow(workflow, { compactions: { a: answer("never used") } });
    expect(run.value).toEqual({ kind: "failed", reason: "there is nothing to compact before the first turn", retryable: false });
    expect(run.compactions).toEqual([]);
  });

  test("is refused on a harness with no compaction of its own, whatever the script says", async () => {
    const cursor = await compacted((agent) => agent.compact({ prompt: "focus" }), { a: answer("a summary") }, { harness: "cursor", model: "auto" });
    expect(cursor.value).toEqual({
      kind: "failed",
      reason: "cursor has no compaction of its own: cursor-agent summarizes its context by itself, with no command to ask for it",
      retryable: false,
    });
    const headlessCodex = await testWorkflow(
      afterOneTurn((agent) => agent.compact({ prompt: "focus" }), { alias: "codex", placement: "headless" }),
      {
        agents: { a: answer("planned") },
      },
    );
    expect(headlessCodex.value).toMatchObject({
      kind: "failed",
      reason: "codex has no compaction of its own: headless codex runs each turn as `codex exec`, which cannot compact",
    });
  });

  test("an id given again with the same focus is the same compaction; with another focus it rejects", async () => {
    const same = await testWorkflow(
      afterOneTurn(async (agent) => [await agent.compact({ prompt: "focus", id: "c" }), await agent.compact({ prompt: "focus", id: "c" })]),
      { agents: { a: answer("planned") }, compactions: { a: [answer("only once")] } },
    );
    expect(same.value).toEqual([
      { kind: "answered", value: "only once" },
      { kind: "answered", value: "only once" },
    ]);
    expect(same.compactions).toHaveLength(1);
    const other = await testWorkflow(
      afterOneTurn(async (agent) => {
        await agent.compact({ prompt: "focus", id: "c" });
        return agent.compact({ prompt: "another focus", id: "c" }).then(
          () => "resolved",
          (error: Error) => error.message,
        );
      }),
      { agents: { a: answer("planned") } },
    );
    expect(other.value).toBe("compaction id c was reused with a different specification");
  });

  test("a silent compaction script fails it: the harness never confirmed it", async () => {
    const run = await compacted((agent) => agent.compact({ prompt: "focus" }), { a: noAnswer.silent() });
    expect(run.value).toEqual({ kind: "failed", reason: "the harness did not confirm a compaction", retryable: true });
    expect(run.compactionsOf("a")[0]?.outcome).toBe("failed");
  });

  test("a compaction script answering anything but text fails the test", async () => {
    const error = await mistake(compacted((agent) => agent.compact({ prompt: "focus" }), { a: answer(SUMMARY, { summary: "not text" }) }));
    expect(error.message).toBe('agent "a" compaction 1: its compaction script answers a summary, text, not {"summary":"not text"}');
  });

  test("noAnswer.interrupted() in a compaction script fails the test", async () => {
    const error = await mistake(compacted((agent) => agent.compact({ prompt: "focus" }), { a: noAnswer.interrupted() }));
    expect(error.message).toBe('agent "a" compaction 1: a compaction is not interrupted by the operator');
  });

  test("a compaction past its list's end fails the test, naming the focus", async () => {
    const error = await mistake(
      compacted(async (agent) => [await agent.compact({ prompt: "one" }), await agent.compact({ prompt: "Keep the plan.\nAll of it." })], { a: [answer("first")] }),
    );
    expect(error.message).toBe('agent "a" compaction 2: its compaction script has 1 compaction. It was asked: Keep the plan.');
  });

  test("a compaction list walked short, or never reached, fails the test with the compaction noun", async () => {
    const short = await mistake(
      compacted((agent) => agent.compact({ prompt: "one" }), { a: [answer("first"), answer("second")], b: [answer("never")], "w-*": [answer("never")] }),
    );
    expect(short.message.split("\n")).toEqual([
      'agent "a" was asked 1 compaction; its compaction script has 2',
      'agent "b" was never asked for a compaction; its compaction script has 1 compaction',
      'no agent matching "w-*" was asked for a compaction; its compaction script has 1 compaction',
    ]);
  });

  test("an empty compaction list is refused before the run", async () => {
    const error = await mistake(
      testWorkflow(
        afterOneTurn(async () => null),
        { agents: { a: answer("planned") }, compactions: { a: [] } },
      ),
    );
    expect(error.message).toBe('compactions["a"] is an empty list; a list has an entry per compaction');
  });

  test("are in the editor trace beside the entries that met them", async () => {
    const run = await compacted((agent) => agent.compact({ prompt: "Keep the plan." }), { a: [answer("The plan.")] });
    const trace = traceOfRun(run)!;
    expect(trace.compactions).toEqual([
      {
        agent: "a",
        n: 1,
        focus: "Keep the plan.",
        outcome: "answered",
        answer: "The plan.",
        match: { option: "compactions", key: "a", index: 0, nudge: false, site: expect.objectContaining({ line: expect.any(Number) }) },
      },
    ]);
    expect(trace.entries.filter((entry) => entry.option === "compactions")).toEqual([
      { option: "compactions", key: "a", index: 0, kind: "answer", site: trace.compactions[0]!.match!.site! },
    ]);
  });
});

describe("agent.set", () => {
  test("later turns run at the new model and effort, and the switch is recorded", async () => {
    const workflow = afterOneTurn(async (agent) => {
      const switched = await agent.set({ model: "opus", effort: "high" });
      await agent.run({ prompt: "Implement it." });
      return { switched, execution: agent.execution };
    });
    const run = await testWorkflow(workflow, { agents: { a: answer("ok") } });
    expect(run.turnsOf("a").map(({ model, effort }) => ({ model, effort }))).toEqual([
      { model: "sonnet", effort: undefined },
      { model: "opus", effort: "high" },
    ]);
    expect(run.setsOf("a")).toEqual([{ agent: "a", n: 1, model: "opus", effort: "high" }]);
    expect(run.sets).toEqual(run.setsOf("a"));
    expect(run.value.execution).toEqual({ harness: "claude", model: "opus", effort: "high", placement: "pane", alias: "claude" });
    expect(run.value.switched).toEqual({ kind: "answered", value: run.value.execution });
    expect(run.agentOf("a").execution.model).toBe("sonnet");
  });

  test("is refused for an effort the harness doesn't list", async () => {
    const run = await testWorkflow(
      afterOneTurn((agent) => agent.set({ effort: "ultracode" })),
      { agents: { a: answer("ok") } },
    );
    expect(run.value).toEqual({
      kind: "failed",
      reason: 'claude has no effort "ultracode"; its levels are low, medium, high, xhigh, max',
      retryable: false,
    });
    expect(run.sets).toEqual([]);
  });

  test("is refused on a harness that can't switch in a session", async () => {
    const run = await testWorkflow(
      afterOneTurn((agent) => agent.set({ model: "gpt-5" }), { harness: "cursor", model: "auto" }),
      {
        agents: { a: answer("ok") },
      },
    );
    expect(run.value).toMatchObject({ kind: "failed", reason: "cursor cannot switch model or effort in a session: cursor-agent takes its model when it starts" });
  });

  test("an id given again with other settings rejects", async () => {
    const run = await testWorkflow(
      afterOneTurn(async (agent) => {
        await agent.set({ model: "opus", id: "s" });
        const again = await agent.set({ model: "opus", id: "s" });
        const other = await agent.set({ model: "haiku", id: "s" }).then(
          () => "resolved",
          (error: Error) => error.message,
        );
        return { again: again.kind, other };
      }),
      { agents: { a: answer("ok") } },
    );
    expect(run.value).toEqual({ again: "answered", other: "set id s was reused with a different specification" });
    expect(run.sets).toHaveLength(1);
  });
});

describe("agent.fork", () => {
  test("opens a new agent on a copy of the session, scripted under its own key, recording forkedFrom", async () => {
    const workflow = flow(async (wf) => {
      const planner = await wf.agents.open({ key: "planner", runtime: { alias: "codex", effort: "high" } });
      await planner.run({ prompt: "one" });
      await planner.run({ prompt: "two" });
      const fork = await planner.fork({ key: "alternative", instructions: "Try another way." });
      return (await fork.run({ prompt: "three" })).outcome;
    });
    const run = await testWorkflow(workflow, { agents: { planner: answer("planned"), alternative: [answer("another plan")] } });
    expect(run.value).toEqual({ kind: "answered", value: "another plan" });
    expect(run.turnsOf("alternative").map((turn) => turn.n)).toEqual([1]);
    expect(run.agentOf("alternative")).toMatchObject({
      key: "alternative",
      execution: { harness: "codex", model: "gpt-5.6-sol", effort: "high", placement: "pane" },
      instructions: "Try another way.",
      forkedFrom: { key: "planner", turns: 2 },
    });
  });

  test("rejects before the parent's first turn", async () => {
    const workflow = flow(async (wf) => {
      const planner = await wf.agents.open({ key: "planner", runtime: "claude" });
      return planner.fork({ key: "copy" }).then(
        () => "forked",
        (error: Error) => error.message,
      );
    });
    const run = await testWorkflow(workflow, {});
    expect(run.value).toBe('agent "planner" cannot be forked before its first turn');
  });

  test("rejects a key already open, and a harness that cannot copy a session", async () => {
    const reused = await testWorkflow(
      afterOneTurn((agent) => agent.fork({ key: "a" }).catch((error: Error) => error.message)),
      {
        agents: { a: answer("ok") },
      },
    );
    expect(reused.value).toBe('agent "a" is already open; a fork needs a key of its own');
    const cursor = await testWorkflow(
      afterOneTurn((agent) => agent.fork({ key: "copy" }).catch((error: Error) => error.message), { harness: "cursor", model: "auto" }),
      { agents: { a: answer("ok") } },
    );
    expect(cursor.value).toBe('agent "copy": cursor cannot fork a session into a pane: cursor-agent cannot copy a session');
  });
});

describe("wf.agents.stop", () => {
  test("cancels a running noAnswer.hang() turn and answers true once, false after", async () => {
    const workflow = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      const running = agent.run({ prompt: "Work until told." });
      await tick();
      const stopped = wf.agents.stop("a", "enough");
      const { outcome } = await running;
      const later = (await agent.run({ prompt: "More?" })).outcome;
      return { stopped, outcome, later, again: wf.agents.stop("a"), unknown: wf.agents.stop("nobody") };
    });
    const run = await testWorkflow(workflow, { agents: { a: [noAnswer.hang()] } });
    expect(run.value).toEqual({
      stopped: true,
      outcome: { kind: "cancelled", reason: "the agent was stopped: enough" },
      later: { kind: "cancelled", reason: "the agent was stopped: enough" },
      again: false,
      unknown: false,
    });
    expect(run.turnsOf("a").map((turn) => turn.outcome)).toEqual(["cancelled"]);
  });
});

describe("the calling session", () => {
  const drives = (key = "author") =>
    flow(async (wf) => {
      const caller = await wf.agents.caller({ key });
      if (!caller) return null;
      const { outcome } = await caller.run({ prompt: "Approve the plan?" });
      return { execution: caller.execution, outcome };
    }, "drives-caller");

  test("caller and forkCaller answer null without the caller option", async () => {
    const workflow = flow(async (wf) => [await wf.agents.caller({ key: "author" }), await wf.agents.forkCaller({ key: "copy" })]);
    const run = await testWorkflow(workflow, {});
    expect(run.value).toEqual([null, null]);
  });

  test("is driven as an agent under the key the workflow gives it, its model the operator's", async () => {
    const run = await testWorkflow(drives(), { caller: { harness: "claude" }, agents: { author: answer("approved") } });
    expect(run.value).toEqual({
      execution: { harness: "claude", model: "", placement: "pane", caller: true },
      outcome: { kind: "answered", value: "approved" },
    });
    expect(run.agentOf("author").execution.caller).toBe(true);
    expect(run.agentOf("author").pane).toBeUndefined();
  });

  test("here: false leaves it waiting on the run: caller answers null", async () => {
    const run = await testWorkflow(drives(), { caller: { harness: "claude", here: false } });
    expect(run.value).toBeNull();
  });

  test("the same key gives the same ref; another key, or opening its key, rejects", async () => {
    const workflow = flow(async (wf) => {
      const first = await wf.agents.caller({ key: "author" });
      const same = await wf.agents.caller({ key: "author" });
      const other = await wf.agents.caller({ key: "other" }).catch((error: Error) => error.message);
      const opened = await wf.agents.open({ key: "author", runtime: "claude" }).catch((error: Error) => error.message);
      return { same: first === same, other, opened };
    });
    const run = await testWorkflow(workflow, { caller: { harness: "claude" } });
    expect(run.value).toEqual({
      same: true,
      other: "the calling session is already agent author; it cannot also be other",
      opened: "agent author is the calling session; it is not opened",
    });
  });

  test("is never compacted, switched or forked as an agent", async () => {
    const workflow = flow(async (wf) => {
      const caller = (await wf.agents.caller({ key: "author" }))!;
      await caller.run({ prompt: "go" });
      return [await caller.compact({ prompt: "focus" }), await caller.set({ model: "opus" }), await caller.fork({ key: "copy" }).catch((error: Error) => error.message)];
    });
    const run = await testWorkflow(workflow, { caller: { harness: "claude" }, agents: { author: answer("ok") } });
    expect(run.value).toEqual([
      { kind: "failed", reason: "agent author is the calling session, whose context only the operator compacts", retryable: false },
      { kind: "failed", reason: "agent author is the calling session, whose model and effort are the operator's", retryable: false },
      "agent author is the calling session; wf.agents.forkCaller forks it",
    ]);
  });

  test("needs a key no agent of the run has", async () => {
    const workflow = flow(async (wf) => {
      await wf.agents.open({ key: "author", runtime: "claude" });
      return wf.agents.caller({ key: "author" }).catch((error: Error) => error.message);
    });
    const run = await testWorkflow(workflow, { caller: { harness: "claude" } });
    expect(run.value).toBe('agent "author" is already open; the calling session needs a key of its own');
  });

  test("noAnswer.interrupted() ends its turn cancelled, never nudged", async () => {
    const run = await testWorkflow(drives(), { caller: { harness: "claude" }, agents: { author: noAnswer.interrupted() } });
    expect(run.value?.outcome).toEqual({ kind: "cancelled", reason: "the operator interrupted the turn" });
    expect(run.turnsOf("author").map((turn) => [turn.nudge, turn.outcome])).toEqual([[false, "cancelled"]]);
  });

  test("a silent turn is nudged on claude, which shows an interrupt, and not on cursor", async () => {
    const claude = await testWorkflow(drives(), { caller: { harness: "claude" }, agents: { author: noAnswer.silent() } });
    expect(claude.turnsOf("author").map((turn) => turn.nudge)).toEqual([false, true]);
    const cursor = await testWorkflow(drives(), { caller: { harness: "cursor" }, agents: { author: noAnswer.silent() } });
    expect(cursor.turnsOf("author").map((turn) => turn.nudge)).toEqual([false]);
    expect(cursor.value?.outcome).toEqual({ kind: "unanswered", reason: "the turn ended without an answer" });
  });

  test("forkCaller forks it on the model its files show, recording forkedFrom { caller: true, turns }", async () => {
    const workflow = flow(async (wf) => {
      const caller = await wf.agents.caller({ key: "author" });
      if (caller) await caller.run({ prompt: "go" });
      const fork = await wf.agents.forkCaller({ key: "helper", effort: "low" });
      return fork && (await fork.run({ prompt: "help" })).outcome.kind;
    });
    const waiting = await testWorkflow(workflow, { caller: { harness: "claude", model: "opus", here: false }, agents: { helper: answer("ok") } });
    expect(waiting.value).toBe("answered");
    expect(waiting.agentOf("helper")).toMatchObject({
      execution: { harness: "claude", model: "opus", effort: "low", placement: "pane" },
      forkedFrom: { caller: true, turns: 0 },
    });
    const here = await testWorkflow(workflow, { caller: { harness: "claude", model: "opus" }, agents: { author: answer("ok"), helper: answer("ok") } });
    expect(here.agentOf("helper").forkedFrom).toEqual({ caller: true, turns: 1 });
    const noModel = await testWorkflow(workflow, { caller: { harness: "claude", here: false } });
    expect(noModel.value).toBeNull();
  });
});

describe("wf.allowance", () => {
  const reads = flow(async (wf) => [await wf.allowance("claude"), await wf.allowance("codex")]);

  test("reads none for every harness without the allowance option", async () => {
    const run = await testWorkflow(reads, {});
    expect(run.value).toEqual([{ kind: "none" }, { kind: "none" }]);
  });

  test("reads what the allowance option lists for a harness", async () => {
    const plan = { kind: "plan" as const, windows: [{ name: "5h", left: 0.4, resets: "2026-01-01T05:00:00.000Z" }] };
    const run = await testWorkflow(reads, { allowance: { claude: plan } });
    expect(run.value).toEqual([plan, { kind: "none" }]);
  });

  test("rejects a harness it doesn't know", async () => {
    const run = await testWorkflow(
      flow(async (wf) => wf.allowance("gemini").catch((error: Error) => error.message)),
      {},
    );
    expect(run.value).toBe('wf.allowance: no harness "gemini"; known: "claude", "codex", "pi", "cursor"');
  });
});

describe("panes", () => {
  test("by default a pane agent opens a tab of its own in the run's workspace, kept never; a headless one has no pane", async () => {
    const workflow = flow(async (wf) => {
      await wf.agents.open({ key: "first", runtime: "claude" });
      await wf.agents.open({ key: "second", runtime: "codex" });
      await wf.agents.open({ key: "quiet", runtime: { alias: "codex", placement: "headless" } });
    });
    const run = await testWorkflow(workflow, {});
    expect(run.agentOf("first")).toMatchObject({ pane: { tab: "first", front: true }, panes: { workspace: "run", keep: "never" } });
    expect(run.agentOf("second")).toMatchObject({ pane: { tab: "second", front: false } });
    const quiet = run.agentOf("quiet");
    expect([quiet.pane, quiet.panes, quiet.keptPane]).toEqual([undefined, undefined, undefined]);
  });

  test("layout places a tab or a split beside an open pane, falling back to a tab when it can't", async () => {
    const workflow = flow(async (wf) => {
      await wf.agents.open({ key: "lead", runtime: "claude", layout: { tab: "review", session: "work", workspace: { name: "reviews" } } });
      await wf.agents.open({ key: "helper", runtime: "claude", layout: { beside: "lead", side: "right", share: 0.4 } });
      await wf.agents.open({ key: "lost", runtime: "claude", layout: { beside: "nobody", side: "below" } });
    });
    const run = await testWorkflow(workflow, {});
    expect(run.agentOf("lead")).toMatchObject({ pane: { tab: "review", session: "work", front: true }, panes: { workspace: { name: "reviews" }, keep: "never" } });
    expect(run.agentOf("helper")).toMatchObject({ pane: { beside: "lead", side: "right", share: 0.4, front: false }, panes: { workspace: { name: "reviews" } } });
    expect(run.agentOf("helper").paneFallback).toBeUndefined();
    expect(run.agentOf("lost")).toMatchObject({
      pane: { tab: "lost", front: false },
      paneFallback: 'agent "nobody" is not open, so its pane opened in a tab',
    });
  });

  test("the panes option is echoed in agentOf, and a pane kept on failure is marked keptPane", async () => {
    const failing = flow(async (wf) => {
      await wf.agents.open({ key: "a", runtime: "claude" });
      await wf.agents.open({ key: "always", runtime: "claude", keepPane: "always" });
      throw new Error("it broke");
    });
    const failed = await testWorkflow(failing, { panes: { workspace: "origin", keep: "on-failure" } });
    expect(failed.agentOf("a")).toMatchObject({ panes: { workspace: "origin", keep: "on-failure" }, keptPane: true });
    expect(failed.agentOf("always").keptPane).toBe(true);
    const completed = await testWorkflow(
      flow(async (wf) => void (await wf.agents.open({ key: "a", runtime: "claude" }))),
      {
        panes: { keep: "on-failure" },
      },
    );
    expect(completed.agentOf("a").keptPane).toBeUndefined();
  });

  test("a headless agent refuses a layout", async () => {
    const workflow = flow(async (wf) =>
      wf.agents.open({ key: "h", runtime: { alias: "codex", placement: "headless" }, layout: { tab: "h" } }).then(
        () => "opened",
        (error: Error) => error.message,
      ),
    );
    const run = await testWorkflow(workflow, {});
    expect(run.value).toBe('agent "h" runs headless; layout and keepPane place a pane');
  });
});

describe("the options about agents", () => {
  test("are checked, each message naming its option", async () => {
    const error = await mistake(
      testWorkflow(
        flow(async () => null),
        {
          caller: { harness: "gemini" },
          allowance: { claude: { kind: "plan", windows: [{ name: "5h", left: 2 }] } },
          panes: { keep: "sometimes" as "always" },
          compactions: { a: "summary" as never },
        },
      ),
    );
    expect(error.message.split("\n")).toEqual([
      'compactions["a"] must be answer(…), noAnswer.…() or a list of them, not "summary"',
      'caller.harness must be a harness, "claude", "codex", "pi", "cursor"; not "gemini"',
      'allowance["claude"] is no HarnessAllowance: window "5h" has a share left from 0 to 1, not 2',
      'panes.keep is "never", "on-failure" or "always", not "sometimes"',
    ]);
  });
});

describe("what the engine tells the host and the run", () => {
  test("a compaction is an operation of kind compact; a stop, then the attempt's end, reach ended, and a stop reaches onAgentEnded", async () => {
    const seen: string[] = [];
    const host: AgentHost = {
      opened: () => {},
      run: async (operation) => {
        seen.push(`${operation.kind} ${operation.n}: ${operation.prompt}`);
        operation.submit(operation.kind === "compact" ? "summary" : "ok");
        return { kind: "submitted" };
      },
      settle: () => {},
      switched: (agent, n, execution) => void seen.push(`switched ${agent} ${n}: ${execution.model}`),
      ended: (agent, end) => void seen.push(`ended ${agent}: ${end.reason}${end.keptPane ? " (pane kept)" : ""}`),
    };
    const endedEarly: string[] = [];
    const workflow = flow(async (wf) => {
      const a = await wf.agents.open({ key: "a", runtime: "claude" });
      const b = await wf.agents.open({ key: "b", runtime: "claude", keepPane: "always" });
      await a.run({ prompt: "go" });
      await a.compact({ prompt: "focus" });
      await b.set({ model: "opus" });
      wf.agents.stop("a", "done");
    });
    const result = await runOnEngine(workflow, host, { onAgentEnded: (key, reason) => void endedEarly.push(`${key}: ${reason}`) });
    expect(result.ending.kind).toBe("completed");
    expect(seen).toEqual(["turn 1: go", "compact 1: focus", "switched b 1: opus", "ended a: the agent was stopped: done", "ended b: the attempt ended (pane kept)"]);
    expect(endedEarly).toEqual(["a: done"]);
  });
});
