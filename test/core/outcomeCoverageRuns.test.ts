// Outcome coverage of real runs of the examples: the sites the traces name are the calls the scan
// finds in the workflow's source, so every written call is either reached or listed unreached.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { subscribeToRuns, type RunTrace } from "turnlens/trace";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { callSummary, outcomeCoverage, type OutcomeCoverage } from "../../core/coverage/outcomeCoverage.ts";
import type { FileReport, TestReport } from "../../core/execution/report.ts";
import { workflowCallSites } from "../../core/coverage/workflowCallSites.ts";
import pairing, { CHANGE, PLAN } from "../../examples/pairing/workflow";
import review, { DECISION, VERDICT } from "../../examples/review/workflow";
import sandboxed, { NOTES, UPGRADE } from "../../examples/sandboxed/workflow";
import triage from "../../examples/triage/workflow";

const REVIEW = fileURLToPath(new URL("../../examples/review/workflow.ts", import.meta.url));
const PAIRING = fileURLToPath(new URL("../../examples/pairing/workflow.ts", import.meta.url));
const TRIAGE = fileURLToPath(new URL("../../examples/triage/workflow.ts", import.meta.url));
const SANDBOXED = fileURLToPath(new URL("../../examples/sandboxed/workflow.ts", import.meta.url));
const HERE = fileURLToPath(import.meta.url);

// Call sites are captured only while someone listens for runs, as the server and the runner do.
const traces: RunTrace[] = [];
let unsubscribe: () => void;
beforeAll(() => {
  unsubscribe = subscribeToRuns((trace) => traces.push(trace));
});
afterAll(() => unsubscribe());

/** Runs each named scenario, one test report each, and returns the coverage of them all. */
async function coverageOf(scenarios: Record<string, () => Promise<unknown>>): Promise<OutcomeCoverage> {
  const tests: TestReport[] = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    traces.length = 0;
    await scenario();
    tests.push({ id: name, name, path: [name], status: "passed", durationMs: 0, runs: [...traces] });
  }
  const report: FileReport = { file: HERE, tests, durationMs: 0 };
  return outcomeCoverage({ reports: [report], callSitesOf: (file) => workflowCallSites(readFileSync(file, "utf8")) });
}

const args = { diff: "main..feature" };
const clean = answer(VERDICT, { ok: true, findings: [] });
const lead = [answer(DECISION, { approve: true, summary: "all clear" }), answer("Merging.")];

describe("the review example", () => {
  test("each call's tests and outcomes, and what no test gave each agent", async () => {
    const coverage = await coverageOf({
      "all pass": () => testWorkflow(review, { args, agents: { "verifier-*": clean, lead } }),
      "verifier-2 times out": () => testWorkflow(review, { args, agents: { "verifier-*": clean, "verifier-2": noAnswer.timedOut(), lead } }),
    });
    const [workflow] = coverage.workflows;
    expect(workflow?.file).toBe(REVIEW);
    expect(workflow?.calls.map((call) => `${call.site.line}:${call.site.column} ${call.callee} ${callSummary(call)}`)).toEqual([
      "27:42 wf.agents.open in 2 tests: answered 5, timed out 1",
      "28:44 verifier.run in 2 tests: answered 5, timed out 1",
      "43:34 wf.agents.open in 2 tests: answered 4",
      "45:32 lead.run in 2 tests: answered 2",
      "53:32 lead.run in 2 tests: answered 2",
    ]);
    expect(workflow?.unreached).toEqual([]);
    expect(workflow?.agents.map((agent) => `${agent.key}@${agent.openedAt?.line}: ${agent.notGiven.join(", ")}`)).toEqual([
      "verifier-1@27: unanswered, blocked, timed-out, failed, cancelled",
      "verifier-2@27: unanswered, blocked, failed, cancelled",
      "verifier-3@27: unanswered, blocked, timed-out, failed, cancelled",
      "lead@43: unanswered, blocked, timed-out, failed, cancelled",
    ]);
    // Each test's turns at the verifiers' run, with the entry (in this file) that met each.
    const timedOut = workflow?.calls[1]?.reached[1];
    expect(timedOut?.test.name).toBe("verifier-2 times out");
    expect(timedOut?.turns.map((turn) => `${turn.agent} #${turn.n} ${turn.outcome} ${turn.entry?.file === HERE}`)).toEqual([
      "verifier-1 #1 answered true",
      "verifier-2 #1 timed-out true",
      "verifier-3 #1 answered true",
    ]);
  });

  test("a run that fails fast leaves the lead's calls unreached", async () => {
    const coverage = await coverageOf({
      "a verifier crashes": () => testWorkflow(review, { args, agents: { "verifier-*": noAnswer.hang(), "verifier-3": noAnswer.failed("harness crashed") } }),
    });
    const [workflow] = coverage.workflows;
    expect(workflow?.calls.filter((call) => call.reached.length > 0).map((call) => `${call.site.line} ${callSummary(call)}`)).toEqual([
      "27 in 1 test: failed 1, cancelled 2",
      "28 in 1 test: failed 1, cancelled 2",
    ]);
    expect(workflow?.unreached.map((call) => `${call.site.line} ${call.callee}`)).toEqual(["43 wf.agents.open", "45 lead.run", "53 lead.run"]);
    expect(workflow?.agents.map((agent) => `${agent.key}: ${agent.given.join(", ")}`)).toEqual(["verifier-1: cancelled", "verifier-2: cancelled", "verifier-3: failed"]);
  });
});

test("the pairing example's fork and calling session are the agents' open calls", async () => {
  const coverage = await coverageOf({
    "approved at once": () =>
      testWorkflow(pairing, {
        args: { ticket: "PAY-7" },
        caller: { harness: "claude" },
        agents: { planner: [answer(PLAN, { steps: ["add the column"] }), answer(CHANGE, { branch: "pay-7" })], skeptic: answer("Fine."), author: answer("yes") },
      }),
  });
  const [workflow] = coverage.workflows;
  expect(workflow?.file).toBe(PAIRING);
  const callee = (line: number | undefined) => workflow?.calls.find((call) => call.site.line === line)?.callee;
  expect(workflow?.agents.map((agent) => `${agent.key} ${callee(agent.openedAt?.line)}`)).toEqual([
    "planner wf.agents.open",
    "skeptic planner.fork",
    "author wf.agents.caller",
  ]);
});

test("the triage example's decisions count at their wf.decide call, and no agent is listed", async () => {
  const coverage = await coverageOf({
    "one ticket routed, one refused": () =>
      testWorkflow(triage, {
        args: { tickets: ["Refund charged twice", "Dark mode"] },
        decisions: {
          "triage-1": { team: "payments", bug: 0.9, urgency: [0, 0, 1] },
          "triage-2": () => new Error("provider unavailable"),
        },
      }),
  });
  const [workflow] = coverage.workflows;
  expect(workflow?.file).toBe(TRIAGE);
  expect(workflow?.calls.map((call) => `${call.kind} ${call.callee} ${callSummary(call)}`)).toEqual(["decision wf.decide in 1 test: answered 1, rejected 1"]);
  expect(workflow?.agents).toEqual([]);
});

test("a message's wake counts at its receiver's open call, not at the run of the turn that sent it", async () => {
  const coverage = await coverageOf({
    "the upgrader tells the researcher, whose wake times out": () =>
      testWorkflow(sandboxed, {
        args: { dependency: "typebox" },
        agents: {
          researcher: answer(NOTES, { breaking: [] }),
          upgrader: answer(UPGRADE, async (turn) => {
            await turn.send("researcher", "Value.Cast moved too.");
            return { branch: "typebox-1", tests: "pass" };
          }),
        },
        messages: { researcher: () => noAnswer.timedOut() },
      }),
  });
  const [workflow] = coverage.workflows;
  expect(workflow?.file).toBe(SANDBOXED);
  // The upgrader's run asked one turn; the researcher's wake is the researcher's, counted where its turns are.
  expect(workflow?.calls.map((call) => `${call.callee} ${callSummary(call)}`)).toEqual([
    "wf.agents.open in 1 test: answered 1, timed out 1",
    "researcher.run in 1 test: answered 1",
    "wf.agents.open in 1 test: answered 1",
    "upgrader.run in 1 test: answered 1",
  ]);
  expect(workflow?.agents.map((agent) => `${agent.key}: ${agent.given.join(", ")}`)).toEqual(["researcher: answered, timed-out", "upgrader: answered"]);
});
