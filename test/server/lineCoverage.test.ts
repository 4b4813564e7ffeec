// `turnlens/lineCoverage` over the protocol (the Test Explorer's Run with Coverage): after the
// explorer ran examples/summarize's closed test file with coverage, the workflow's statements,
// branches and functions as V8 counted them, in the editor's ranges; a run without coverage
// measures nothing, and the test file itself is never in the answer.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { LineCoverageResult, TestRunProgressParams } from "../../server/protocol.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";

const WORKFLOW = join(ROOT, "examples", "summarize", "summarize.ts");
const WORKFLOW_URI = pathToFileURL(WORKFLOW).href;
const TESTS_URI = pathToFileURL(join(ROOT, "examples", "summarize", "summarize.test.ts")).href;
const LINES = readFileSync(WORKFLOW, "utf8").split("\n");
/** The 0-based line holding `needle`. */
const lineOf = (needle: string) => LINES.findIndex((text) => text.includes(needle));

let server: TestServer;
let withoutCoverage: LineCoverageResult;

async function runTests(runId: string, coverage: boolean): Promise<void> {
  const from = server.all("turnlens/testRunProgress").length;
  await server.request("turnlens/runTests", { runId, include: [TESTS_URI], ...(coverage ? { coverage: true } : {}) });
  await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.runId === runId && params.message.type === "end", from);
}

beforeAll(async () => {
  server = await TestServer.started();
  await runTests("plain-run", false);
  withoutCoverage = await server.request<LineCoverageResult>("turnlens/lineCoverage", { tests: [TESTS_URI] });
  await runTests("coverage-run", true);
}, SLOW);
afterAll(() => server.dispose());

test("a run without coverage measures no line", () => {
  expect(withoutCoverage).toEqual({ files: [] });
});

test(
  "after a run with coverage, the workflow's lines: the reader's open ran twice, prepare (only the command line calls it) never",
  async () => {
    const answer = await server.request<LineCoverageResult>("turnlens/lineCoverage", { tests: [TESTS_URI] });
    expect(answer.files.map((file) => file.uri)).toEqual([WORKFLOW_URI]);
    const [file] = answer.files;
    expect(file?.lines).toEqual({ covered: 5, total: 6 });
    const ranAt = (line: number) => file?.statements.filter((statement) => statement.range.start.line === line).map((statement) => statement.executed);
    expect(ranAt(lineOf("wf.agents.open"))).toEqual([2]);
    expect(ranAt(lineOf("prepare:"))).toContain(0);
    expect(file?.functions.map((fn) => [fn.name, fn.range.start.line, fn.executed])).toEqual([
      // An arrow function in a property is anonymous to Istanbul, which numbers it.
      ["(anonymous_0)", lineOf("prepare:"), 0],
      ["run", lineOf("async run("), 2],
    ]);
    // `outcome.kind === "answered" ? … : …`: each arm taken once; `argv[0] ?? "README.md"` in prepare, never.
    expect(file?.branches.map((branch) => [branch.kind, branch.range.start.line, branch.arms.map((arm) => arm.executed)])).toEqual([
      ["binary-expr", lineOf("prepare:"), [0, 0]],
      ["cond-expr", lineOf('outcome.kind === "answered"'), [1, 1]],
    ]);
  },
  SLOW,
);

test(
  "a test file no coverage run ran gives no file",
  async () => {
    const other = pathToFileURL(join(ROOT, "examples", "review", "workflow.test.ts")).href;
    expect(await server.request<LineCoverageResult>("turnlens/lineCoverage", { tests: [other] })).toEqual({ files: [] });
  },
  SLOW,
);
