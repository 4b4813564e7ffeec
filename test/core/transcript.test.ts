// renderTranscript: a RunTrace as the plain text the run-transcript document shows, checked on
// real runs of the examples and the core workflows (line per construct, agents in first-seen order),
// and of runs with compactions, messages, participants and scripted events.

import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow, type Script } from "agentswf/testing";
import type { RouteSpec } from "agentswf/workflow";
import { subscribeToRuns, traceOfRun, type RunTrace } from "turnlens/trace";
import { renderTranscript } from "../../core/testing/transcript.ts";
import review, { DECISION, VERDICT } from "../../examples/review/workflow.ts";
import summarize, { SUMMARY } from "../../examples/summarize/summarize.ts";
import triage from "../../examples/triage/workflow.ts";
import { askTurns, eventFlow, flow, investigating, mistake, NOTE, openAgents } from "./workflows";

const stable = { duration: false } as const;

/** The review example on `diff`, every verifier passing unless `agents` scripts it otherwise. */
const reviewed = (diff: string, agents: Record<string, Script>) =>
  testWorkflow(review, { args: { diff }, agents: { "verifier-*": answer(VERDICT, { ok: true, findings: [] }), ...agents } });

/** The transcript's lines, without the durations that change from run to run. */
const transcriptLines = (trace: RunTrace) => renderTranscript(trace, stable).split("\n");

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
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run summarize · completed · 1 turn",
      "── reader",
      "#1  Read README.md and summarise it in two sentences.",
      '    ✓ answered  {"summary":"Two sentences."}',
      "    ← reader",
      "",
    ]);
  });

  test("shows a silent agent's turn, then its nudge with the same prompt, each with why it went unanswered", async () => {
    const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: noAnswer.silent() } });
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run summarize · completed · 2 turns",
      "── reader",
      "#1  Read README.md and summarise it in two sentences.",
      "    ✓ no answer, as scripted  a nudge followed",
      "    ← reader",
      "#1 nudge  (same prompt)",
      "    ✓ no answer, as scripted  the agent did not answer, even after a nudge",
      "    ← reader",
      "",
    ]);
  });

  test("groups turns per agent in first-seen order, with labels, list indexes and a long prompt cut to three lines", async () => {
    const run = await reviewed("main..feature", {
      "verifier-2": noAnswer.timedOut(),
      lead: [answer(DECISION, { approve: false, summary: "security has no verdict" }), answer("Please rerun security.")],
    });
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run review · completed · 5 turns",
      "── verifier-1",
      "#1 [correctness]  Review main..feature for correctness. List what you find.",
      '    ✓ answered  {"ok":true,"findings":[]}',
      "    ← verifier-*",
      "── verifier-2",
      "#1 [security]  Review main..feature for security. List what you find.",
      "    ✓ timed out, as scripted  turn timed out",
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
    ]);
  });

  test("shows as many prompt lines as asked, and no cut marker when the prompt fits", async () => {
    const run = await reviewed("a..b", { lead: [answer(DECISION, { approve: true, summary: "ok" }), answer("ok")] });
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
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run triage · completed · 0 turns · 2 decisions",
      "decision triage-1 ✓ answered  ← triage-1",
      "decision triage-2 ✗ rejected  ← triage-*",
      "",
    ]);
  });

  test("ends with the test's mistakes, one line each with its code", async () => {
    const trace = await traceOfMistake(() => testWorkflow(askTurns(["one"]), { agents: { a: [answer("1"), answer("2")] } }));
    expect(transcriptLines(trace)).toEqual([
      "run ask-turns · completed · 1 turn · 1 problem",
      "── a",
      "#1  one",
      '    ✓ answered  "1"',
      "    ← a[0]",
      'problem entry-never-reached: agent "a" was asked 1 turn; its script has 2',
      "",
    ]);
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
    const run = await reviewed("a..b", { "verifier-*": noAnswer.hang(), "verifier-3": noAnswer.failed("harness crashed") });
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

/** Opens a and b, allows messages between them, and asks a one turn; returns the turn's outcome kind. */
function pair() {
  return flow(async (wf) => {
    const [a] = await openAgents(wf, "a", "b");
    await wf.messages.allow({ between: ["a", "b"], purpose: "questions about the cache" });
    return (await a.run({ prompt: "Ask b." })).outcome.kind;
  }, "pair");
}

/** A's turn: asks b, and answers with b's reply or how the send ended. */
const askingB = answer(async (turn) => {
  const asked = await turn.send("b", "Which cache?\nThe old or the new?", { awaitReply: true });
  return asked.kind === "replied" ? asked.text : asked.kind;
});

/** The page's investigate: the investigator may ask the coordinator, a participant the run did not start. */
const investigate = (route?: RouteSpec) =>
  investigating(async (investigator) => (await investigator.run({ prompt: "Investigate the checkout incidents." })).outcome.kind, route);

/** A writer that writes one part, then waits for one note. */
const notes = eventFlow("notes", { note: NOTE }, async (wf) => {
  const [writer] = await openAgents(wf, "writer");
  await writer.run({ prompt: "Write part 1." });
  return (await wf.events.wait("note", { label: "waiting for a note" })).kind;
});

describe("a transcript beyond turns", () => {
  test("shows each of an agent's compactions after its turns: the focus, the summary or why it failed, and the entry that met it", async () => {
    const compacting = flow(async (wf) => {
      const [a, b] = await openAgents(wf, "a", "b");
      await a.run({ prompt: "Plan the change." });
      await b.run({ prompt: "Review the plan." });
      await a.compact({ prompt: "Keep the plan.\nDrop the rest." });
      await b.compact({ prompt: "Keep the review." });
      await a.compact({ prompt: "Keep only the steps." });
      await a.run({ prompt: "Do step 1." });
    }, "compacting");
    const run = await testWorkflow(compacting, {
      agents: { a: answer("done"), b: answer("reviewed") },
      compactions: { a: [answer("The plan: two steps."), noAnswer.silent()] },
    });
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run compacting · completed · 3 turns",
      "── a",
      "#1  Plan the change.",
      '    ✓ answered  "done"',
      "    ← a",
      "#2  Do step 1.",
      '    ✓ answered  "done"',
      "    ← a",
      "compaction #1  Keep the plan.",
      "    │ Drop the rest.",
      '    ✓ answered  "The plan: two steps."',
      "    ← a[0]",
      "compaction #2  Keep only the steps.",
      "    ✓ failed, as scripted  the harness did not confirm a compaction",
      "    ← a[1]",
      "── b",
      "#1  Review the plan.",
      '    ✓ answered  "reviewed"',
      "    ← b",
      "compaction #1  Keep the review.",
      '    ✓ answered  ""',
      "",
    ]);
  });

  test("heads a wake with who woke the agent, and lists each message with how it ended and the entry that met its wake", async () => {
    const run = await testWorkflow(pair(), {
      agents: { a: askingB },
      messages: { b: [(message) => message.reply("The LRU one.")] },
    });
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run pair · completed · 2 turns · 2 messages",
      "── a",
      "#1  Ask b.",
      '    ✓ answered  "The LRU one."',
      "    ← a",
      "── b",
      "#0 woken by a  Which cache?",
      "    │ The old or the new?",
      "    ✓ answered",
      "    ← b[0]",
      "message a → b asks  Which cache?",
      "    │ The old or the new?",
      "    ✓ replied",
      "    ← b[0]",
      "message b → a  The LRU one.",
      "    ✓ delivered",
      "",
    ]);
  });

  test("shows a question whose wake failed as failed with its reason", async () => {
    const run = await testWorkflow(pair(), { agents: { a: askingB }, messages: { b: noAnswer.failed("busy elsewhere") } });
    const lines = renderTranscript(traceOfRun(run)!, { ...stable, promptLines: 1 }).split("\n");
    expect(lines.slice(lines.indexOf("── b"))).toEqual([
      "── b",
      "#0 woken by a  Which cache?",
      "    │ … 1 more line",
      "    ✓ failed, as scripted  busy elsewhere",
      "    ← b",
      "message a → b asks  Which cache?",
      "    │ … 1 more line",
      "    ✗ failed  failed: busy elsewhere",
      "    ← b",
      "",
    ]);
  });

  test("shows questions a parked run never delivered as undelivered, and the parked ending with its reason", async () => {
    const both = flow(async (wf) => {
      const [a, b] = await openAgents(wf, "a", "b");
      await wf.messages.allow({ between: ["a", "b"], purpose: "who goes first" });
      await Promise.all([a.run({ prompt: "ask b" }), b.run({ prompt: "ask a" })]);
    }, "both");
    const asking = (peer: string, text: string) => answer(async (turn) => (await turn.send(peer, text, { awaitReply: true })).kind);
    const run = await testWorkflow(both, { agents: { a: asking("b", "You first?"), b: asking("a", "No, you?") } });
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run both · parked · 2 turns · 2 messages",
      "── a",
      "#1  ask b",
      "    ○ awaiting a reply",
      "    ← a",
      "── b",
      "#1  ask a",
      "    ○ awaiting a reply",
      "    ← b",
      "message a → b asks  You first?",
      "    ✗ undelivered  attempt-ended",
      "message b → a asks  No, you?",
      "    ✗ undelivered  attempt-ended",
      'ending ○ parked  the run parked waiting on "a" to answer "No, you?"',
      "",
    ]);
  });

  test("lists each call of a participants script, and what it returned when it returned something", async () => {
    const run = await testWorkflow(investigate(), {
      agents: {
        investigator: answer(async (turn) => {
          const asked = await turn.send("coordinator", "One incident or two?\nThey look alike.", { awaitReply: true });
          return asked.kind === "replied" ? asked.text : asked.kind;
        }),
      },
      participants: { coordinator: (event) => (event.kind === "message" ? event.reply("Keep two.") : undefined) },
    });
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run investigate · completed · 1 turn · 2 messages",
      "── investigator",
      "#1  Investigate the checkout incidents.",
      '    ✓ answered  "Keep two."',
      "    ← investigator",
      "message investigator → coordinator asks  One incident or two?",
      "    │ They look alike.",
      "    ✓ replied",
      "message coordinator → investigator  Keep two.",
      "    ✓ delivered",
      "participant coordinator route investigator both  questions about the incidents",
      "participant coordinator message from investigator  One incident or two?",
      '    → {"id":"m2"}',
      "",
    ]);
  });

  test("names a one-way route's direction as the participant sees it", async () => {
    const run = await testWorkflow(investigate({ from: "investigator", to: "coordinator", purpose: "reports" }), {
      agents: { investigator: answer("nothing to report") },
      participants: { coordinator: () => undefined },
    });
    expect(renderTranscript(traceOfRun(run)!, stable)).toContain("\nparticipant coordinator route investigator to-participant  reports\n");
  });

  test("lists each scripted event with the turn it was sent during or after, and its id once sent", async () => {
    const run = await testWorkflow(notes, {
      agents: { writer: answer("written") },
      events: [{ during: "writer#1", name: "note", data: { text: "first" }, eventId: "n-1" }],
    });
    expect(transcriptLines(traceOfRun(run)!)).toEqual([
      "run notes · completed · 1 turn · 1 event",
      "── writer",
      "#1  Write part 1.",
      '    ✓ answered  "written"',
      "    ← writer",
      "event note during writer#1  ✓ sent n-1",
      "",
    ]);
  });

  test("marks an event that was never sent, beside the problem it caused", async () => {
    const trace = await traceOfMistake(() =>
      testWorkflow(notes, {
        agents: { writer: answer("written") },
        events: [
          { during: "writer#1", name: "note", data: { text: "first" } },
          { after: "writer#2", name: "note", data: { text: "never" } },
        ],
      }),
    );
    const lines = renderTranscript(trace, stable).split("\n");
    expect(lines[0]).toBe("run notes · completed · 1 turn · 2 events · 1 problem");
    expect(lines.slice(5)).toEqual([
      "event note during writer#1  ✓ sent awf.test.1",
      "event note after writer#2  ✗ never sent",
      'problem event-never-sent: event "note" (after writer#2): agent "writer" never had turn 2',
      "",
    ]);
  });
});
