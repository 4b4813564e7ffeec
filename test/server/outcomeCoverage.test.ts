// `turnlens/outcomeCoverage` over the protocol (the Test Explorer's Run with Coverage): after the
// explorer ran examples/review's closed test file, the workflow's call sites with how many tests
// reached each and how their turns ended; a call no test reached, with zeros.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { OutcomeCoverageResult, TestRunProgressParams } from "../../server/protocol.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";
import { outcomeKindWords } from "../../core/testing/outcomeWords.ts";

const WORKFLOW = join(ROOT, "examples", "review", "workflow.ts");
const TESTS_URI = pathToFileURL(join(ROOT, "examples", "review", "workflow.test.ts")).href;
const OTHER_TESTS_URI = pathToFileURL(join(ROOT, "test", "core", "review-trace.test.ts")).href;
// The open buffer adds, after the workflow, a function no test calls: its call is found but not reached.
const WORKFLOW_TEXT = `${readFileSync(WORKFLOW, "utf8")}\nexport async function unused(wf: any) {\n  return wf.decide({ key: "unused" });\n}\n`;
const LINES = WORKFLOW_TEXT.split("\n");

/** The range of `callee` on the first line holding `needle` (0-based), as the answer gives it. */
function rangeOf(needle: string, callee: string) {
  const line = LINES.findIndex((text) => text.includes(needle));
  const character = (LINES[line] ?? "").indexOf(callee);
  return { start: { line, character }, end: { line, character: character + callee.length } };
}
const ENGINE = ["answered", "unanswered", "blocked", "timed-out", "failed", "cancelled"];
// Each outcome also in the one table's words (core/testing/outcomeWords.ts), as every view says it.
const outcomes = (given: Record<string, number>, kinds = ENGINE) =>
  kinds.map((outcome) => ({ outcome, words: outcomeKindWords(outcome, kinds !== ENGINE), turns: given[outcome] ?? 0 }));

let server: TestServer;
let before: OutcomeCoverageResult;
beforeAll(async () => {
  server = await TestServer.started();
  await server.open(WORKFLOW, WORKFLOW_TEXT);
  before = await server.request<OutcomeCoverageResult>("turnlens/outcomeCoverage", { tests: [TESTS_URI] });
  const from = server.all("turnlens/testRunProgress").length;
  await server.request("turnlens/runTests", { runId: "coverage-1", include: [TESTS_URI] });
  await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.runId === "coverage-1" && params.message.type === "end", from);
}, SLOW);
afterAll(() => server.dispose());

test("before any run the answer has no workflow file", () => {
  expect(before).toEqual({ workflows: [] });
});

test(
  "after the test file ran, the workflow's call sites come with the tests that reached each, its turns and their outcomes",
  async () => {
    const answer = await server.request<OutcomeCoverageResult>("turnlens/outcomeCoverage", { tests: [TESTS_URI] });
    const verifiers = { tests: 4, turns: 12, outcomes: outcomes({ answered: 8, "timed-out": 1, failed: 1, cancelled: 2 }) };
    expect(answer).toEqual({
      workflows: [
        {
          uri: pathToFileURL(WORKFLOW).href,
          calls: [
            { range: rangeOf("const verifier = await wf.agents.open", "wf.agents.open"), kind: "open", callee: "wf.agents.open", ...verifiers },
            { range: rangeOf("await verifier.run(", "verifier.run"), kind: "turn", callee: "verifier.run", ...verifiers },
            {
              range: rangeOf('wf.agents.open({ key: "lead"', "wf.agents.open"),
              kind: "open",
              callee: "wf.agents.open",
              tests: 3,
              turns: 6,
              outcomes: outcomes({ answered: 6 }),
            },
            { range: rangeOf("const decided = await lead.run(", "lead.run"), kind: "turn", callee: "lead.run", tests: 3, turns: 3, outcomes: outcomes({ answered: 3 }) },
            { range: rangeOf("const comment = await lead.run(", "lead.run"), kind: "turn", callee: "lead.run", tests: 3, turns: 3, outcomes: outcomes({ answered: 3 }) },
            {
              range: rangeOf('return wf.decide({ key: "unused" })', "wf.decide"),
              kind: "decision",
              callee: "wf.decide",
              tests: 0,
              turns: 0,
              outcomes: outcomes({}, ["answered", "unanswered", "failed"]),
            },
          ],
        },
      ],
    });
  },
  SLOW,
);

test(
  "test files that did not run reach no workflow: the answer for them is empty",
  async () => {
    expect(await server.request<OutcomeCoverageResult>("turnlens/outcomeCoverage", { tests: [OTHER_TESTS_URI] })).toEqual({ workflows: [] });
  },
  SLOW,
);

test(
  "a message's wake is counted at its receiver's open call: the sender's run counts its own turns alone",
  async () => {
    // examples/sandboxed: one of its three tests has the upgrader's turn message the researcher, which wakes it.
    const workflow = join(ROOT, "examples", "sandboxed", "workflow.ts");
    const tests = pathToFileURL(join(ROOT, "examples", "sandboxed", "workflow.test.ts")).href;
    const from = server.all("turnlens/testRunProgress").length;
    await server.request("turnlens/runTests", { runId: "coverage-wake", include: [tests] });
    await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.runId === "coverage-wake" && params.message.type === "end", from);
    const answer = await server.request<OutcomeCoverageResult>("turnlens/outcomeCoverage", { tests: [tests] });
    const lines = readFileSync(workflow, "utf8").split("\n");
    const counted = answer.workflows
      .find((each) => each.uri === pathToFileURL(workflow).href)
      ?.calls.map(
        (call) => `${lines[call.range.start.line]?.includes("researcher") ? "researcher" : "upgrader"} ${call.callee}: ${call.tests} tests, ${call.turns} turns`,
      );
    expect(counted).toEqual([
      "researcher wf.agents.open: 3 tests, 4 turns",
      "researcher researcher.run: 3 tests, 3 turns",
      "upgrader wf.agents.open: 3 tests, 3 turns",
      "upgrader upgrader.run: 3 tests, 3 turns",
    ]);
  },
  SLOW,
);
