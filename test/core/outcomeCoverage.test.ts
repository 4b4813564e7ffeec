// Outcome coverage, from traces: what the tests did at each workflow call, and which of the
// engine's outcomes no test gave each agent. The call sites are found in the workflow's text.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FileReport, TestReport } from "../../core/execution/report.ts";
import { callSummary, OUTCOME_KINDS, outcomeCoverage } from "../../core/coverage/outcomeCoverage.ts";
import { blankCommentsAndStrings, workflowCallSites } from "../../core/coverage/workflowCallSites.ts";
import type { RunTrace, SourceSite, TurnTrace } from "turnlens/trace";

const REVIEW = fileURLToPath(new URL("../../examples/review/workflow.ts", import.meta.url));
const WORKFLOW = "/project/workflow.ts";
const TESTS = "/project/workflow.test.ts";
const at = (line: number, column: number, file = WORKFLOW): SourceSite => ({ file, line, column });

function turn(agent: string, n: number, outcome: string, askedAt: SourceSite, openedAt: SourceSite, entryLine = 1): TurnTrace {
  return {
    agent,
    n,
    nudge: false,
    prompt: "",
    outcome,
    askedAt,
    openedAt,
    match: { option: "agents", key: agent, index: null, nudge: false, site: at(entryLine, 5, TESTS) },
  } as TurnTrace;
}
function run(turns: TurnTrace[], decisions: RunTrace["decisions"] = []): RunTrace {
  return { workflow: "w", entries: [], turns, compactions: [], decisions, problems: [], durationMs: 1 };
}
function testOf(name: string, runs: RunTrace[], line: number): TestReport {
  return { id: name, name, path: [name], status: "passed", durationMs: 1, location: at(line, 1, TESTS), runs };
}

describe("the call sites of a workflow's source", () => {
  test("the review example's opens and turns are found at their called names", () => {
    expect(workflowCallSites(readFileSync(REVIEW, "utf8"))).toEqual([
      { kind: "open", line: 27, column: 42, callee: "wf.agents.open" },
      { kind: "turn", line: 28, column: 44, callee: "verifier.run" },
      { kind: "open", line: 43, column: 34, callee: "wf.agents.open" },
      { kind: "turn", line: 45, column: 32, callee: "lead.run" },
      { kind: "turn", line: 53, column: 32, callee: "lead.run" },
    ]);
  });

  test("calls in comments and strings are not calls; a template's ${...} is code", () => {
    const source = [
      "// reader.run({ prompt })",
      'const text = "wf.agents.open(x)";',
      "/* wf.decide({}) */ const s = `${(await (await wf.agents.open({ key })).run({ prompt: `x` }))}`;",
      "await wf.decide({ key: 'go' }); await wf.run(x);",
    ].join("\n");
    expect(
      blankCommentsAndStrings(source)
        .split("\n")
        .map((line) => line.length),
    ).toEqual(source.split("\n").map((line) => line.length));
    expect(workflowCallSites(source)).toEqual([
      { kind: "open", line: 3, column: 58, callee: "wf.agents.open" },
      { kind: "turn", line: 3, column: 73, callee: "(…).run" },
      { kind: "decision", line: 4, column: 10, callee: "wf.decide" },
    ]);
  });
});

describe("outcome coverage of traces", () => {
  const open = at(3, 30);
  const ask = at(4, 20);
  const reports: FileReport[] = [
    {
      file: TESTS,
      durationMs: 1,
      tests: [
        testOf("all answer", [run([turn("reviewer", 1, "answered", ask, open), turn("reviewer", 2, "answered", ask, open)])], 10),
        testOf(
          "the reviewer times out",
          [run([turn("reviewer", 1, "timed-out", ask, open, 22)], [{ key: "merge", answered: true, askedAt: at(8, 12) } as RunTrace["decisions"][number]])],
          20,
        ),
      ],
    },
  ];
  const written = [
    { kind: "open" as const, line: 3, column: 30, callee: "wf.agents.open" },
    { kind: "turn" as const, line: 4, column: 20, callee: "reviewer.run" },
    { kind: "turn" as const, line: 6, column: 18, callee: "reviewer.run" },
    { kind: "decision" as const, line: 8, column: 12, callee: "wf.decide" },
  ];
  const coverage = outcomeCoverage({ reports, callSitesOf: (file) => (file === WORKFLOW ? written : undefined) });

  test("the outcome kinds are the engine's own", () => {
    expect(OUTCOME_KINDS).toEqual(["answered", "unanswered", "blocked", "timed-out", "failed", "cancelled"]);
  });

  test("each call site counts the tests that reached it and how their turns ended", () => {
    const [workflow] = coverage.workflows;
    expect(workflow?.file).toBe(WORKFLOW);
    const calls = workflow?.calls.map((call) => [call.site.line, call.callee, callSummary(call)]);
    expect(calls).toEqual([
      [3, "wf.agents.open", "in 2 tests: answered 2, timed out 1"],
      [4, "reviewer.run", "in 2 tests: answered 2, timed out 1"],
      [6, "reviewer.run", "no test"],
      [8, "wf.decide", "in 1 test: answered 1"],
    ]);
    const timedOut = workflow?.calls[1]?.reached[1];
    expect(timedOut).toEqual({
      test: { file: TESTS, id: "the reviewer times out", name: "the reviewer times out", path: ["the reviewer times out"], location: at(20, 1, TESTS) },
      turns: [{ agent: "reviewer", n: 1, nudge: false, outcome: "timed-out", entry: at(22, 5, TESTS) }],
    });
  });

  test("an agent's outcomes given and not given, at its open call; the unreached calls listed", () => {
    const [workflow] = coverage.workflows;
    expect(workflow?.agents.map(({ key, openedAt, given, notGiven }) => ({ key, openedAt, given, notGiven }))).toEqual([
      { key: "reviewer", openedAt: open, given: ["answered", "timed-out"], notGiven: ["unanswered", "blocked", "failed", "cancelled"] },
    ]);
    expect(workflow?.unreached.map((call) => `${call.site.line} ${call.callee}`)).toEqual(["6 reviewer.run"]);
  });

  test("traces without workflow sites cover nothing", () => {
    const bare = run([{ agent: "reviewer", n: 1, nudge: false, prompt: "", outcome: "answered" }]);
    expect(outcomeCoverage({ reports: [{ file: TESTS, durationMs: 1, tests: [testOf("bare", [bare], 1)] }] })).toEqual({ workflows: [] });
  });
});
