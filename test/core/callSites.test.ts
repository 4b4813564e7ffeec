// Each turn's trace knows the workflow's call that asked it (`askedAt`) and the one that opened its
// agent (`openedAt`); a decision's, its `wf.decide`; a message's, the call whose turn sent it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { subscribeToRuns, traceOfRun, traceOfTurn, type RunTrace, type SourceSite } from "turnlens/trace";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import review, { DECISION, VERDICT } from "../../examples/review/workflow";
import pairing, { CHANGE, PLAN } from "../../examples/pairing/workflow";
import triage from "../../examples/triage/workflow";
import type { AgentHost, OpenedAgent, TurnOperation } from "../../core/workflow/host.ts";
import { helped, messaging } from "./callSiteWorkflows";
import { runOnEngine } from "./engineRun";

const REVIEW = fileURLToPath(new URL("../../examples/review/workflow.ts", import.meta.url));
const PAIRING = fileURLToPath(new URL("../../examples/pairing/workflow.ts", import.meta.url));
const TRIAGE = fileURLToPath(new URL("../../examples/triage/workflow.ts", import.meta.url));
const FIXTURES = fileURLToPath(new URL("./callSiteWorkflows.ts", import.meta.url));

/**
 * The site of `call` (such as `verifier.run(`) on line `line` of `file`: V8 places a method call at
 * the method's name, so the column is that of `run` in `verifier.run(`. Throws when the line lacks
 * the call, so a moved example fails here by name.
 */
function siteAt(file: string, line: number, call: string): SourceSite {
  const text = readFileSync(file, "utf8").split("\n")[line - 1] ?? "";
  const at = text.indexOf(call);
  if (at < 0) throw new Error(`${file}:${line} has no ${call}: ${text}`);
  return { file, line, column: at + call.lastIndexOf(".") + 2 };
}

/** The line of `file` marked `// @marker`. */
function markedLine(file: string, marker: string): number {
  const index = readFileSync(file, "utf8")
    .split("\n")
    .findIndex((text) => text.includes(`// @${marker}`));
  if (index < 0) throw new Error(`no line of ${file} is marked @${marker}`);
  return index + 1;
}

// Sites are captured only while something listens for runs (the language server, the json
// reporter): these tests listen, as those do, except where a test says otherwise.
let stopListening = () => {};
beforeAll(() => {
  stopListening = subscribeToRuns(() => {});
});
afterAll(() => stopListening());

const sitesOf = (trace: RunTrace) => trace.turns.map(({ agent, n, nudge, askedAt, openedAt }) => ({ agent, n, nudge, askedAt, openedAt }));

describe("a turn's askedAt and openedAt", () => {
  test("are the exact calls in examples/review: each parallel verifier's run and open, and the lead's two runs", async () => {
    const clean = answer(VERDICT, { ok: true, findings: [] });
    const run = await testWorkflow(review, {
      args: { diff: "main..feature" },
      agents: { "verifier-*": clean, lead: [answer(DECISION, { approve: true, summary: "all clear" }), answer("Merging.")] },
    });
    const verifierRun = siteAt(REVIEW, 28, "verifier.run(");
    const verifierOpen = siteAt(REVIEW, 27, "wf.agents.open(");
    const leadOpen = siteAt(REVIEW, 43, "wf.agents.open(");
    const byAgent = sitesOf(traceOfRun(run)!).sort((a, b) => a.agent.localeCompare(b.agent) || a.n - b.n);
    expect(byAgent).toEqual([
      { agent: "lead", n: 1, nudge: false, askedAt: siteAt(REVIEW, 45, "lead.run("), openedAt: leadOpen },
      { agent: "lead", n: 2, nudge: false, askedAt: siteAt(REVIEW, 53, "lead.run("), openedAt: leadOpen },
      { agent: "verifier-1", n: 1, nudge: false, askedAt: verifierRun, openedAt: verifierOpen },
      { agent: "verifier-2", n: 1, nudge: false, askedAt: verifierRun, openedAt: verifierOpen },
      { agent: "verifier-3", n: 1, nudge: false, askedAt: verifierRun, openedAt: verifierOpen },
    ]);
  });

  test("a nudge keeps the site of the agent.run that asked its turn", async () => {
    const run = await testWorkflow(review, {
      args: { diff: "main..feature" },
      agents: { "verifier-*": answer(VERDICT, { ok: true, findings: [] }), lead: [answer(DECISION, { approve: true, summary: "ok" }), noAnswer.silent()] },
    });
    const comment = siteAt(REVIEW, 53, "lead.run(");
    const lead = run.turnsOf("lead").map((turn) => ({ nudge: turn.nudge, askedAt: traceOfTurn(turn)?.askedAt }));
    expect(lead).toEqual([
      { nudge: false, askedAt: siteAt(REVIEW, 45, "lead.run(") },
      { nudge: false, askedAt: comment },
      { nudge: true, askedAt: comment },
    ]);
  });

  test("a fork is opened where agent.fork was called, and the calling session where wf.agents.caller was (examples/pairing)", async () => {
    const run = await testWorkflow(pairing, {
      args: { ticket: "PAY-7" },
      caller: { harness: "claude" },
      agents: {
        planner: [answer(PLAN, { steps: ["add the column"] }), answer(CHANGE, { branch: "pay-7" })],
        skeptic: answer("The backfill locks the table."),
        author: answer("yes"),
      },
      compactions: { planner: answer("Plan: add the column.") },
    });
    const plannerOpen = siteAt(PAIRING, 16, "wf.agents.open(");
    expect(sitesOf(traceOfRun(run)!)).toEqual([
      { agent: "planner", n: 1, nudge: false, askedAt: siteAt(PAIRING, 17, "planner.run("), openedAt: plannerOpen },
      { agent: "skeptic", n: 1, nudge: false, askedAt: siteAt(PAIRING, 22, "skeptic.run("), openedAt: siteAt(PAIRING, 21, "planner.fork(") },
      { agent: "planner", n: 2, nudge: false, askedAt: siteAt(PAIRING, 33, "planner.run("), openedAt: plannerOpen },
      { agent: "author", n: 1, nudge: false, askedAt: siteAt(PAIRING, 38, "author.run("), openedAt: siteAt(PAIRING, 36, "wf.agents.caller(") },
    ]);
  });

  test("a workflow that asks through a helper of its own gets the helper's agent.run: the first frame that is the user's", async () => {
    const run = await testWorkflow(helped, { agents: { writer: answer("done") } });
    const helperRun = siteAt(FIXTURES, markedLine(FIXTURES, "helper-run"), "agent.run(");
    const writerOpen = siteAt(FIXTURES, markedLine(FIXTURES, "writer-open"), "wf.agents.open(");
    expect(sitesOf(traceOfRun(run)!)).toEqual([
      { agent: "writer", n: 1, nudge: false, askedAt: helperRun, openedAt: writerOpen },
      { agent: "writer", n: 2, nudge: false, askedAt: helperRun, openedAt: writerOpen },
    ]);
  });

  test("a wake for a message is asked where the turn that sent it was, and its message says so as sentAt", async () => {
    const run = await testWorkflow(messaging, {
      agents: { a: answer(async (turn) => JSON.stringify(await turn.send("b", "Which cache?", { awaitReply: true }))) },
      messages: { b: (message) => message.reply("The LRU one.") },
    });
    const trace = traceOfRun(run)!;
    const aRun = siteAt(FIXTURES, markedLine(FIXTURES, "a-run"), "a.run(");
    expect(sitesOf(trace)).toEqual([
      { agent: "a", n: 1, nudge: false, askedAt: aRun, openedAt: siteAt(FIXTURES, markedLine(FIXTURES, "a-open"), "wf.agents.open(") },
      { agent: "b", n: 0, nudge: false, askedAt: aRun, openedAt: siteAt(FIXTURES, markedLine(FIXTURES, "b-open"), "wf.agents.open(") },
    ]);
    expect(trace.messages?.map(({ id, from, sentAt }) => ({ id, from, sentAt }))).toEqual([
      { id: "m1", from: "a", sentAt: aRun },
      { id: "m2", from: "b", sentAt: aRun },
    ]);
  });
});

describe("a decision's askedAt", () => {
  test("is the workflow's wf.decide call, for each ticket under parallel (examples/triage)", async () => {
    const run = await testWorkflow(triage, {
      args: { tickets: ["Refund charged twice", "Dark mode toggle misaligned"] },
      decisions: { "triage-*": { team: "payments", bug: 0.9, urgency: [0.1, 0.2, 0.7] } },
    });
    const decide = siteAt(TRIAGE, 30, "wf.decide(");
    expect(traceOfRun(run)!.decisions.map(({ key, askedAt }) => ({ key, askedAt }))).toEqual([
      { key: "triage-1", askedAt: decide },
      { key: "triage-2", askedAt: decide },
    ]);
  });
});

describe("when the sites are written", () => {
  test("a run whose host captures no calls (a real run's) gives its agents and operations no site", async () => {
    const opened: OpenedAgent[] = [];
    const operations: TurnOperation[] = [];
    const host: AgentHost = {
      opened: (agent) => opened.push(agent),
      run: async (operation) => {
        operations.push(operation);
        return { kind: "silent" };
      },
      settle: () => {},
    };
    const result = await runOnEngine(helped, host);
    expect(result.ending).toMatchObject({ kind: "completed", value: ["unanswered", "unanswered"] });
    expect(opened.map((agent) => "openedAt" in agent)).toEqual([false]);
    expect(operations.map((operation) => [operation.nudge, "askedAt" in operation])).toEqual([
      [false, false],
      [true, false],
      [false, false],
      [true, false],
    ]);
  });

  test("a run nobody listens for captures none: its trace has no sites, and its turns are the same", async () => {
    stopListening();
    try {
      const run = await testWorkflow(helped, { agents: { writer: answer("done") } });
      expect(traceOfRun(run)!.turns.map((turn) => ["askedAt" in turn, "openedAt" in turn])).toEqual([
        [false, false],
        [false, false],
      ]);
      expect(run.turns.map((turn) => turn.outcome)).toEqual(["answered", "answered"]);
    } finally {
      stopListening = subscribeToRuns(() => {});
    }
  });

  test("a published run's traces carry them as plain data, as they cross the worker's channel", async () => {
    const published: RunTrace[] = [];
    const stop = subscribeToRuns((trace) => published.push(JSON.parse(JSON.stringify(trace))));
    try {
      await testWorkflow(helped, { agents: { writer: answer("done") } });
    } finally {
      stop();
    }
    expect(published[0]?.turns[0]?.askedAt).toEqual(siteAt(FIXTURES, markedLine(FIXTURES, "helper-run"), "agent.run("));
  });

  test("a rejected run's published trace has them too", async () => {
    const published: RunTrace[] = [];
    const stop = subscribeToRuns((trace) => published.push(trace));
    try {
      await expect(testWorkflow(helped, { agents: { writer: [answer("done")] } })).rejects.toThrow("its script has 1 turn");
    } finally {
      stop();
    }
    expect(published[0]?.turns.map((turn) => turn.askedAt?.line)).toEqual([markedLine(FIXTURES, "helper-run"), markedLine(FIXTURES, "helper-run")]);
  });
});
