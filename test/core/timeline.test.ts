// The run timeline built from runs of examples/: each lane, box, arrow and mark where it happened
// (its lane, the entry that met it, the call that asked it) and when (its moment on the virtual clock).
import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { subscribeToRuns, traceOfRun } from "turnlens/trace";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildTimeline, durationText, type Timeline } from "../../core/testing/timeline.ts";
import { renderMermaid } from "../../core/testing/timelineMermaid.ts";
import { renderTimelineHtml } from "../../core/testing/timelineHtml.ts";
import review, { DECISION, VERDICT } from "../../examples/review/workflow";
import featureDelivery, { CHANGE, VERDICT as REVIEW, WORK } from "../../examples/feature-delivery/workflow";
import reminder from "../../examples/reminder/workflow";
import pairing, { CHANGE as PAIRED, PLAN } from "../../examples/pairing/workflow";
import summarize from "../../examples/summarize/summarize";
import triage from "../../examples/triage/workflow";
import { investigate } from "../../examples/site/reference/testing-api";

// The workflow's call sites are captured only for a run someone listens to, as the editor does.
subscribeToRuns(() => {});

const FILE = fileURLToPath(import.meta.url);
const LINES = readFileSync(FILE, "utf8").split("\n");
const DAY = 86_400_000;

/** Where the `answer(` (or `noAnswer.`) on the line marked `// @marker` was called. */
function entry(marker: string, call = "answer(") {
  const index = LINES.findIndex((line) => line.includes(`// @${marker}`));
  if (index < 0) throw new Error(`no line is marked @${marker}`);
  return { file: FILE, line: index + 1, column: LINES[index]!.indexOf(call) + 1 };
}

/** Where the workflow in `example` calls `<agent>.run(` on the line that holds `text`. */
function asked(example: string, text: string, call = "run(") {
  const file = fileURLToPath(new URL(`../../examples/${example}`, import.meta.url));
  const lines = readFileSync(file, "utf8").split("\n");
  const index = lines.findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`examples/${example} has no line with ${text}`);
  return { file, line: index + 1, column: lines[index]!.indexOf(call) + 1 };
}

const at = (step: number, time = 0) => ({ at: time, step });

async function timelineOf(run: Promise<object>): Promise<Timeline> {
  return buildTimeline(traceOfRun(await run)!);
}

describe("the run timeline of examples/", () => {
  test("parallel reviewers: three boxes open at once, each met by its entry and asked by the parallel's run call", async () => {
    const timeline = await timelineOf(
      testWorkflow(review, {
        args: { diff: "main..feature" },
        agents: {
          "verifier-*": answer(VERDICT, { ok: true, findings: [] }), // @verifiers
          lead: [
            answer(DECISION, { approve: true, summary: "all clear" }), // @decide
            answer("Looks good."), // @comment
          ],
        },
      }),
    );
    const verifierAsked = asked("review/workflow.ts", "await verifier.run(");
    expect(timeline.lanes).toEqual([
      { id: "workflow", kind: "workflow" },
      { id: "verifier-1", kind: "agent" },
      { id: "verifier-2", kind: "agent" },
      { id: "verifier-3", kind: "agent" },
      { id: "lead", kind: "agent" },
    ]);
    const verifier = (index: number, key: string, label: string) => ({
      index,
      lane: key,
      kind: "turn",
      n: 1,
      label,
      prompt: `Review main..feature for ${label}. List what you find.`,
      outcome: "answered",
      told: { words: "answered", tone: "ok", mark: "✓" },
      answer: '{"ok":true,"findings":[]}',
      started: at(index + 1),
      ended: at(index + 4),
      durationMs: 0,
      entry: { key: "verifier-*", index: null, site: entry("verifiers") },
      askedAt: verifierAsked,
    });
    expect(timeline.boxes).toEqual([
      verifier(0, "verifier-1", "correctness"),
      verifier(1, "verifier-2", "security"),
      verifier(2, "verifier-3", "tests"),
      {
        index: 3,
        lane: "lead",
        kind: "turn",
        n: 1,
        label: "decide",
        prompt: "Decide on main..feature from these verdicts:",
        outcome: "answered",
        told: { words: "answered", tone: "ok", mark: "✓" },
        answer: '{"approve":true,"summary":"all clear"}',
        started: at(7),
        ended: at(8),
        durationMs: 0,
        entry: { key: "lead", index: 0, site: entry("decide") },
        askedAt: asked("review/workflow.ts", "const decided = await lead.run("),
      },
      {
        index: 4,
        lane: "lead",
        kind: "turn",
        n: 2,
        label: "comment",
        prompt: "Write the review comment for the author.",
        outcome: "answered",
        told: { words: "answered", tone: "ok", mark: "✓" },
        answer: '"Looks good."',
        started: at(9),
        ended: at(10),
        durationMs: 0,
        entry: { key: "lead", index: 1, site: entry("comment") },
        askedAt: asked("review/workflow.ts", "const comment = await lead.run("),
      },
    ]);
    expect(timeline.arrows).toEqual([]);
    expect(timeline.marks).toEqual([{ lane: "workflow", kind: "ended", at: at(11), text: "completed" }]);
    expect(timeline.durationMs).toBe(0);
  });

  test("a reviewer's question to the planner: an arrow sent during the reviewer's turn, reaching the planner's wake, and the reply back", async () => {
    const planned = { docPath: "docs/CACHE-12.md", summary: "plan v1", decisions: [] };
    const timeline = await timelineOf(
      testWorkflow(featureDelivery, {
        args: { ticket: "CACHE-12" },
        agents: {
          planner: answer(WORK, planned), // @planner
          implementer: answer(CHANGE, { branch: "feat/cache" }), // @implementer
          reviewer: [
            answer(REVIEW, async (turn) => {
              // @asking
              const revised = await turn.send("planner", "name the cache", { awaitReply: true });
              return { kind: "ready", summary: revised.kind === "replied" ? revised.text : revised.kind };
            }),
            answer(REVIEW, { kind: "ready", summary: "code ok" }), // @code-ok
          ],
        },
        messages: { planner: (message) => message.reply("Named it in the doc.") },
      }),
    );
    expect(timeline.lanes.map((lane) => lane.id)).toEqual(["workflow", "planner", "reviewer", "implementer"]);
    expect(timeline.arrows).toEqual([
      { kind: "question", message: "m1", from: "reviewer", to: "planner", text: "name the cache", end: "replied", sent: at(4), reached: at(5) },
      { kind: "reply", message: "m2", from: "planner", to: "reviewer", text: "Named it in the doc.", end: "delivered", answers: "m1", sent: at(8), reached: at(9) },
    ]);
    const boxes = timeline.boxes.map(({ lane, kind, n, label, started, ended, cause, entry, askedAt }) => ({
      lane,
      kind,
      n,
      label,
      started,
      ended,
      cause,
      entry,
      askedAt,
    }));
    const reviewAsked = asked("feature-delivery/workflow.ts", "const docReview = await reviewer.run(");
    expect(boxes).toEqual([
      {
        lane: "planner",
        kind: "turn",
        n: 1,
        label: "Plan ticket",
        started: at(1),
        ended: at(2),
        cause: undefined,
        entry: { key: "planner", index: null, site: entry("planner") },
        askedAt: asked("feature-delivery/workflow.ts", "const planned = await planner.run("),
      },
      {
        lane: "reviewer",
        kind: "turn",
        n: 1,
        label: "Review ticket doc",
        started: at(3),
        ended: at(11),
        cause: undefined,
        entry: {
          key: "reviewer",
          index: 0,
          site: { ...entry("asking"), line: entry("asking").line - 1, column: LINES[entry("asking").line - 2]!.indexOf("answer(") + 1 },
        },
        askedAt: reviewAsked,
      },
      // The wake for m1: no entry of `agents` met it (a messages function did), and it was asked where the sender's turn was.
      { lane: "planner", kind: "wake", n: 1, label: undefined, started: at(6), ended: at(10), cause: "m1", entry: { key: "planner", index: null }, askedAt: reviewAsked },
      {
        lane: "planner",
        kind: "turn",
        n: 2,
        label: "Settle plan",
        started: at(12),
        ended: at(13),
        cause: undefined,
        entry: { key: "planner", index: null, site: entry("planner") },
        askedAt: asked("feature-delivery/workflow.ts", "const settled = await planner.run("),
      },
      {
        lane: "implementer",
        kind: "turn",
        n: 1,
        label: "Implement",
        started: at(14),
        ended: at(15),
        cause: undefined,
        entry: { key: "implementer", index: null, site: entry("implementer") },
        askedAt: asked("feature-delivery/workflow.ts", "const built = await implementer.run("),
      },
      {
        lane: "reviewer",
        kind: "turn",
        n: 2,
        label: "Review code",
        started: at(16),
        ended: at(17),
        cause: undefined,
        entry: { key: "reviewer", index: 1, site: entry("code-ok") },
        askedAt: asked("feature-delivery/workflow.ts", "const codeReview = await reviewer.run("),
      },
    ]);
    // The question went out inside the reviewer's first turn; the reply inside the planner's wake.
    const [question, reply] = timeline.arrows;
    const [, reviewing, wake] = timeline.boxes;
    expect(reviewing!.started.step < question!.sent.step && question!.sent.step < reviewing!.ended!.step).toBe(true);
    expect(wake!.started.step < reply!.sent.step && reply!.sent.step < wake!.ended!.step).toBe(true);
  });

  test("a reminder on the virtual clock: each timer set, fired two days later, the turn it led to, and the end at six days", async () => {
    const timeline = await timelineOf(testWorkflow(reminder, { agents: { author: answer("done") } }));
    const label = (sent: number) => `waiting on the review (${sent} reminders sent)`;
    expect(timeline.boxes.map(({ n, prompt, started, ended, durationMs }) => ({ n, prompt, started, ended, durationMs }))).toEqual([
      { n: 1, prompt: "Open the pull request and request a review.", started: at(1), ended: at(2), durationMs: 0 },
      { n: 2, prompt: "Nobody reviewed in two days: post reminder 1 on the pull request.", started: at(5, 2 * DAY), ended: at(6, 2 * DAY), durationMs: 0 },
      { n: 3, prompt: "Nobody reviewed in two days: post reminder 2 on the pull request.", started: at(9, 4 * DAY), ended: at(10, 4 * DAY), durationMs: 0 },
    ]);
    expect(timeline.marks).toEqual([
      { lane: "workflow", kind: "timer-set", at: at(3), text: label(0), detail: "due at +2d (event)" },
      { lane: "workflow", kind: "timer-fired", at: at(4, 2 * DAY), text: label(0) },
      { lane: "workflow", kind: "timer-set", at: at(7, 2 * DAY), text: label(1), detail: "due at +4d (event)" },
      { lane: "workflow", kind: "timer-fired", at: at(8, 4 * DAY), text: label(1) },
      { lane: "workflow", kind: "timer-set", at: at(11, 4 * DAY), text: label(2), detail: "due at +6d (event)" },
      { lane: "workflow", kind: "timer-fired", at: at(12, 6 * DAY), text: label(2) },
      { lane: "workflow", kind: "ended", at: at(13, 6 * DAY), text: "completed" },
    ]);
    expect(timeline.durationMs).toBe(6 * DAY);
  });

  test("a review sent during the reminder's turn: the event marked in that turn, and the next timer cancelled by it", async () => {
    const timeline = await timelineOf(
      testWorkflow(reminder, { agents: { author: answer("done") }, events: [{ during: "author#2", name: "reviewed", data: { verdict: "approved" } }] }),
    );
    expect(timeline.boxes[1]).toMatchObject({ n: 2, started: at(5, 2 * DAY), ended: at(7, 2 * DAY) });
    expect(timeline.marks.filter((mark) => mark.kind !== "timer-set")).toEqual([
      { lane: "workflow", kind: "timer-fired", at: at(4, 2 * DAY), text: "waiting on the review (0 reminders sent)" },
      { lane: "workflow", kind: "event", at: at(6, 2 * DAY), text: "reviewed", detail: "awf.test.1" },
      { lane: "workflow", kind: "timer-cancelled", at: at(9, 2 * DAY), text: "waiting on the review (1 reminders sent)" },
      { lane: "workflow", kind: "ended", at: at(10, 2 * DAY), text: "completed" },
    ]);
  });

  test("parking: the timer still pending, and the park marked with the wait and when it would wake", async () => {
    const timeline = await timelineOf(testWorkflow(reminder, { agents: { author: answer("done") }, maxTimers: 0 }));
    expect(timeline.ending).toBe("parked");
    expect(timeline.marks.map(({ kind, at, text, detail }) => ({ kind, at, text, detail }))).toEqual([
      { kind: "timer-set", at: at(3), text: "waiting on the review (0 reminders sent)", detail: "due at +2d (event)" },
      { kind: "parked", at: at(4), text: "waiting on the review (0 reminders sent)", detail: "until +2d" },
      { kind: "ended", at: at(5), text: "parked", detail: expect.stringMatching(/^the run parked waiting on the review \(0 reminders sent\) until /) },
    ]);
  });

  test("a participant's question: the coordinator gets its own lane, the question and its reply are arrows, and its reply event is no mark", async () => {
    const timeline = await timelineOf(
      testWorkflow(investigate, {
        agents: {
          investigator: answer(async (turn) => {
            // @investigator
            const asked = await turn.send("coordinator", "One incident or two?", { awaitReply: true });
            return asked.kind === "replied" ? asked.text : asked.kind;
          }),
        },
        participants: { coordinator: (event) => (event.kind === "message" && event.asks ? event.reply("Keep two, and link them.") : undefined) },
      }),
    );
    expect(timeline.lanes).toEqual([
      { id: "workflow", kind: "workflow" },
      { id: "investigator", kind: "agent" },
      { id: "coordinator", kind: "participant" },
    ]);
    expect(timeline.arrows).toEqual([
      { kind: "question", message: "m1", from: "investigator", to: "coordinator", text: "One incident or two?", end: "replied", sent: at(2), reached: at(3) },
      {
        kind: "reply",
        message: "m2",
        from: "coordinator",
        to: "investigator",
        text: "Keep two, and link them.",
        end: "delivered",
        answers: "m1",
        sent: at(6),
        reached: at(7),
      },
    ]);
    expect(timeline.boxes.map(({ lane, kind, outcome, answer, started, ended }) => ({ lane, kind, outcome, answer, started, ended }))).toEqual([
      { lane: "investigator", kind: "turn", outcome: "answered", answer: '"Keep two, and link them."', started: at(1), ended: at(8) },
    ]);
    expect(timeline.boxes[0]!.askedAt).toEqual(asked("site/reference/testing-api.ts", "const { outcome } = await investigator.run("));
    expect(timeline.marks).toEqual([{ lane: "workflow", kind: "ended", at: at(9), text: "completed" }]);
  });

  test("a nudge is a box of its own, after the silent turn it follows", async () => {
    const timeline = await timelineOf(testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: noAnswer.silent() } }));
    expect(timeline.boxes.map(({ kind, n, started, ended }) => ({ kind, n, started, ended }))).toEqual([
      { kind: "turn", n: 1, started: at(1), ended: at(2) },
      { kind: "nudge", n: 1, started: at(3), ended: at(4) },
    ]);
  });

  test("decisions are marks on the workflow's lane with their answers; one whose script gave an Error says so", async () => {
    const timeline = await timelineOf(
      testWorkflow(triage, {
        args: { tickets: ["Refund charged twice", "Dark mode toggle misaligned"] },
        decisions: { "triage-1": { team: "payments", bug: 0.97, urgency: [0.1, 0.3, 0.6] }, "triage-2": new Error("provider unavailable") },
      }),
    );
    const decideCall = asked("triage/workflow.ts", "await wf.decide(", "decide(");
    expect(timeline.marks).toEqual([
      { lane: "workflow", kind: "decision", at: at(1), text: "triage-1", detail: "team: payments, bug: yes, urgency: high", askedAt: decideCall },
      { lane: "workflow", kind: "decision", at: at(2), text: "triage-2", detail: "error: provider unavailable", askedAt: decideCall },
      { lane: "workflow", kind: "ended", at: at(5), text: "completed" },
    ]);
  });

  test("a compaction is a box on its agent's lane, between the turns it came between; an agent's end is an event", async () => {
    const timeline = await timelineOf(
      testWorkflow(pairing, {
        args: { ticket: "PAY-7" },
        caller: { harness: "claude" },
        agents: { planner: [answer(PLAN, { steps: ["a"] }), answer(PAIRED, { branch: "pay-7" })], skeptic: answer("risky"), author: answer("yes") },
        compactions: { planner: answer("Plan: a.") }, // @compaction
      }),
    );
    expect(timeline.boxes.map(({ lane, kind, n, prompt, answer, started, entry }) => ({ lane, kind, n, prompt, answer, started, entry }))).toEqual([
      { lane: "planner", kind: "turn", n: 1, prompt: "Plan PAY-7.", answer: '{"steps":["a"]}', started: at(1), entry: expect.any(Object) },
      {
        lane: "skeptic",
        kind: "turn",
        n: 1,
        prompt: "What in this plan is most likely wrong? One sentence.",
        answer: '"risky"',
        started: at(3),
        entry: expect.any(Object),
      },
      {
        lane: "planner",
        kind: "compaction",
        n: 1,
        prompt: "Keep the plan and its steps; drop the exploration.",
        answer: '"Plan: a."',
        started: at(6),
        entry: { key: "planner", index: null, site: entry("compaction") },
      },
      {
        lane: "planner",
        kind: "turn",
        n: 2,
        prompt: "Implement the plan. Mind this doubt: risky",
        answer: '{"branch":"pay-7"}',
        started: at(8),
        entry: expect.any(Object),
      },
      { lane: "author", kind: "turn", n: 1, prompt: "Merge pay-7? Answer yes or no.", answer: '"yes"', started: at(10), entry: expect.any(Object) },
    ]);
    // wf.agents.stop("skeptic") sends the run its `skeptic:ended` event, between the critique and the compaction.
    expect(timeline.marks).toEqual([
      { lane: "workflow", kind: "event", at: at(5), text: "skeptic:ended", detail: "awf.1" },
      { lane: "workflow", kind: "ended", at: at(12), text: "completed" },
    ]);
  });
});

describe("the timeline's renderings", () => {
  test("Mermaid: a participant per lane, an ask and a return per turn, the clock's jumps as notes", async () => {
    const timeline = await timelineOf(testWorkflow(reminder, { agents: { author: answer("done") }, maxTimers: 1 }));
    expect(renderMermaid(timeline)).toBe(
      [
        "sequenceDiagram",
        "  participant workflow as reminder (workflow)",
        "  participant L1 as author",
        "  workflow->>+L1: ♯1 Open the pull request and request a review.",
        '  L1-->>-workflow: ♯1 ✓ answered "done" · 0 ms',
        "  Note over workflow: timer set: waiting on the review (0 reminders sent) · due at +2d (event)",
        "  Note over workflow,L1: +2d on the virtual clock",
        "  Note over workflow: timer fired: waiting on the review (0 reminders sent)",
        "  workflow->>+L1: ♯2 Nobody reviewed in two days: post reminder 1 on the pull request.",
        '  L1-->>-workflow: ♯2 ✓ answered "done" · 0 ms',
        "  Note over workflow: timer set: waiting on the review (1 reminders sent) · due at +4d (event)",
        "  Note over workflow: parked: waiting on the review (1 reminders sent) · until +4d",
        `  Note over workflow: ended: parked · ${timeline.marks.at(-1)!.detail}`,
        "",
      ].join("\n"),
    );
  });

  test("Mermaid: messages as arrows, a reply dashed, a wake as an activation with a note", async () => {
    const timeline = await timelineOf(
      testWorkflow(featureDelivery, {
        args: { ticket: "T-1" },
        agents: {
          planner: answer(WORK, { docPath: "d.md", summary: "s", decisions: [] }),
          implementer: answer(CHANGE, { branch: "b" }),
          reviewer: answer(REVIEW, async (turn) => (await turn.send("planner", "why; #1?", { awaitReply: true }), { kind: "ready", summary: "ok" })),
        },
        messages: { planner: (message) => message.reply("because") },
      }),
    );
    const lines = renderMermaid(timeline).split("\n");
    expect(lines.filter((line) => /L\d(-->>|->>)L\d|activate|Note right/.test(line))).toEqual([
      "  L2->>L1: m1 asks: why; ♯1?",
      "  activate L1",
      "  Note right of L1: ♯1 wake, woken by reviewer (m1)",
      "  L1-->>L2: m2 replies to m1: because",
      "  Note right of L1: ♯1 wake ✓ answered · 0 ms",
      "  deactivate L1",
      // The same script meets the code review: it asks again.
      "  L2->>L1: m3 asks: why; ♯1?",
      "  activate L1",
      "  Note right of L1: ♯2 wake, woken by reviewer (m3)",
      "  L1-->>L2: m4 replies to m3: because",
      "  Note right of L1: ♯2 wake ✓ answered · 0 ms",
      "  deactivate L1",
    ]);
  });

  test("HTML: one document that loads nothing from elsewhere, with each run's diagram and its model for the clicks", async () => {
    const timeline = await timelineOf(testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: noAnswer.silent() } }));
    const html = renderTimelineHtml({ title: "a silent reader </script>", status: "passed", file: "x.test.ts", timelines: [timeline] });
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html.match(/\b(?:src|href)="[^"#]/g)).toBeNull();
    expect(html.match(/<g class="box /g)?.length).toBe(2);
    expect(html).toContain('data-box="1"');
    expect(html).toContain("<h1>a silent reader &lt;/script&gt; ");
    // The model rides along as JSON that cannot close its script element.
    const json = /<script id="timeline-data" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
    expect(JSON.parse(json!)).toEqual([timeline]);
  });

  test("durations read in their two largest units", () => {
    expect([0, 250, 1_500, 125_000, 5_400_000, 2 * DAY + 3 * 3_600_000, 2 * DAY].map(durationText)).toEqual([
      "0 ms",
      "250 ms",
      "1.5 s",
      "2m 5s",
      "1h 30m",
      "2d 3h",
      "2d",
    ]);
  });
});
