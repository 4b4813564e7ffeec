// renderTranscript: a RunTrace as the plain text the run-transcript document shows, checked on
// real runs of the examples and the core workflows (line per construct, agents in first-seen order).

import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { subscribeToRuns, traceOfRun, type RunTrace } from "turnlens/trace";
import { renderTranscript } from "../../core/testing/transcript.ts";
import review, { DECISION, VERDICT } from "../../examples/review/workflow.ts";
import summarize, { SUMMARY } from "../../examples/summarize/summarize.ts";
import triage from "../../examples/triage/workflow.ts";
import { askTurns, flow, mistake } from "./workflows";

const stable = { duration: false } as const;

/** The trace a rejected testWorkflow published: the only way to read a run that failed the test. */
async function traceOfMistake(running: () => Promise<unknown>): Promise<RunTrace> {
  let trace: RunTrace | undefined;
  const stop = subscribeToRuns((published) => (trace = published));
  try {
    await mistake(running());
  } finally {
    stop();
  }
  if (!trace) throw new Error("no run was published");
  return trace;
}

describe("a transcript", () => {
  test("shows an answered turn's prompt, its answer as one line of JSON, and the entry that met it", async () => {
    const run = await testWorkflow(summarize, {
      args: { file: "README.md" },
      agents: { reader: answer(SUMMARY, { summary: "Two sentences." }) },
    });
    expect(renderTranscript(traceOfRun(run)!, stable)).toBe(
      [
        "run summarize · completed · 1 turn",
        "── reader",
        "#1  Read README.md and summarise it in two sentences.",
        '    ✓ answered  {"summary":"Two sentences."}',
        "    ← reader",
        "",
      ].join("\n"),
    );
  });

  test("shows a silent agent's turn, then its nudge with the same prompt, each with why it went unanswered", async () => {
    const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: noAnswer.silent() } });
    expect(renderTranscript(traceOfRun(run)!, stable)).toBe(
      [
        "run summarize · completed · 2 turns",
        "── reader",
        "#1  Read README.md and summarise it in two sentences.",
        "    ✗ unanswered  a nudge followed",
        "    ← reader",
        "#1 nudge  (same prompt)",
        "    ✗ unanswered  the agent did not answer, even after a nudge",
        "    ← reader",
        "",
      ].join("\n"),
    );
  });

  test("groups turns per agent in first-seen order, with labels, list indexes and a long prompt cut to three lines", async () => {
    const run = await testWorkflow(review, {
      args: { diff: "main..feature" },
      agents: {
        "verifier-*": answer(VERDICT, { ok: true, findings: [] }),
        "verifier-2": noAnswer.timedOut(),
        lead: [answer(DECISION, { approve: false, summary: "security has no verdict" }), answer("Please rerun security.")],
      },
    });
    expect(renderTranscript(traceOfRun(run)!, stable)).toBe(
      [
        "run review · completed · 5 turns",
        "── verifier-1",
        "#1 [correctness]  Review main..feature for correctness. List what you find.",
        '    ✓ answered  {"ok":true,"findings":[]}',
        "    ← verifier-*",
        "── verifier-2",
        "#1 [security]  Review main..feature for security. List what you find.",
        "    ✗ timed-out  turn timed out",
        "    ← verifier-2",
        "── verifier-3",
        "#1 [tests]  Review main..feature for tests. List what you find.",
        '    ✓ answered  {"ok":true,"findings":[]}',
        "    ← verifier-*",
        "── lead",
        "#1 [decide]  Decide on main..feature from these verdicts:",
        "    │ verifier-1 (correctness): ok",
        "    │ verifier-2 (security): no verdict (timed-out)",
        "    │ … 1 more line",
        '    ✓ answered  {"approve":false,"summary":"security has no verdict"}',
        "    ← lead[0]",
        "#2 [comment]  Write the review comment for the author.",
        '    ✓ answered  "Please rerun security."',
        "    ← lead[1]",
        "",
      ].join("\n"),
    );
  });

  test("shows as many prompt lines as asked, and no cut marker when the prompt fits", async () => {
    const run = await testWorkflow(review, {
      args: { diff: "a..b" },
      agents: { "verifier-*": answer(VERDICT, { ok: true, findings: [] }), lead: [answer(DECISION, { approve: true, summary: "ok" }), answer("ok")] },
    });
    const text = renderTranscript(traceOfRun(run)!, { ...stable, promptLines: 4 });
    expect(text).toContain("    │ verifier-3 (tests): ok\n    ✓ answered");
    expect(text).not.toContain("more line");
    expect(renderTranscript(traceOfRun(run)!, { ...stable, promptLines: 1 })).toContain("from these verdicts:\n    │ … 3 more lines\n");
  });

  test("puts a turn's stage in its heading", async () => {
    const staged = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      await wf.stage("plan", async () => void (await agent.run({ prompt: "Plan it.", label: "draft" })));
    }, "staged");
    const run = await testWorkflow(staged, { agents: { a: answer("planned") } });
    expect(renderTranscript(traceOfRun(run)!, stable)).toContain('#1 [draft] (stage plan)  Plan it.\n    ✓ answered  "planned"\n');
  });

  test("lists each decision with whether it was answered and the key that met it", async () => {
    const run = await testWorkflow(triage, {
      args: { tickets: ["refund failed", "button misaligned"] },
      decisions: { "triage-1": { team: "payments", bug: 0.9, urgency: 2 }, "triage-*": new Error("provider down") },
    });
    expect(renderTranscript(traceOfRun(run)!, stable)).toBe(
      [
        "run triage · completed · 0 turns · 2 decisions",
        "decision triage-1 ✓ answered  ← triage-1",
        "decision triage-2 ✗ no answers  ← triage-*",
        "",
      ].join("\n"),
    );
  });

  test("ends with the test's mistakes, one line each with its code", async () => {
    const trace = await traceOfMistake(() => testWorkflow(askTurns(["one"]), { agents: { a: [answer("1"), answer("2")] } }));
    expect(renderTranscript(trace, stable)).toBe(
      [
        "run ask-turns · completed · 1 turn · 1 problem",
        "── a",
        "#1  one",
        '    ✓ answered  "1"',
        "    ← a[0]",
        'problem entry-never-reached: agent "a" was asked 1 turn; its script has 2',
        "",
      ].join("\n"),
    );
  });

  test("says a run refused before it started was not run", async () => {
    const trace = await traceOfMistake(() =>
      testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: answer(SUMMARY, { summary: "x" }) }, stal: "1s" } as never),
    );
    const text = renderTranscript(trace, stable);
    expect(text.split("\n")[0]).toBe("run summarize · not run · 0 turns · 1 problem");
    expect(text).toMatch(/^problem unknown-option: /m);
  });

  test("ends a run that did not complete with its kind, stage and reason", async () => {
    const run = await testWorkflow(review, {
      args: { diff: "a..b" },
      agents: { "verifier-*": noAnswer.hang(), "verifier-3": noAnswer.failed("harness crashed") },
    });
    const lines = renderTranscript(traceOfRun(run)!, stable).trimEnd().split("\n");
    expect(lines[0]).toBe("run review · failed · 3 turns");
    expect(lines.at(-1)).toBe("ending ✗ failed  verifier-3 failed: harness crashed");
    expect(lines).toContain("    ✗ cancelled  a parallel item failed: verifier-3 failed: harness crashed");
  });

  test("shows the real duration in the header unless asked not to", async () => {
    const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: answer(SUMMARY, { summary: "x" }) } });
    expect(renderTranscript(traceOfRun(run)!).split("\n")[0]).toMatch(/^run summarize · completed · 1 turn · \d+ ms$/);
  });

  test("names where each entry was written when sites are asked for", async () => {
    const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: answer(SUMMARY, { summary: "x" }) } });
    const site = traceOfRun(run)!.turns[0]!.match!.site!;
    expect(site.file).toMatch(/transcript\.test\.ts$/);
    expect(renderTranscript(traceOfRun(run)!, { ...stable, sites: true })).toContain(`    ← reader  transcript.test.ts:${site.line}:${site.column}\n`);
  });

  test("cuts an answer longer than the width with an ellipsis", async () => {
    const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: answer(SUMMARY, { summary: "x".repeat(50) }) } });
    const line = renderTranscript(traceOfRun(run)!, { ...stable, answerWidth: 20 }).split("\n")[3]!;
    expect(line).toBe('    ✓ answered  {"summary":"xxxxxxx…');
  });
});
