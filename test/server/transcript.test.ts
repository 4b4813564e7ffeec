// `turnlens/transcript`: a test's runs as the transcript document shows them, for one test or a
// whole file, from an explorer run of an open document or of a file run from disk.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TranscriptResult } from "../../server/protocol.ts";
import { MANUAL_RUNS, MISTAKES, ROOT, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
afterEach(() => server.dispose());

/** Opens the file in a server that runs it only when asked. */
async function openManually(): Promise<string> {
  server = await TestServer.started(MANUAL_RUNS);
  return server.open(PATH, TEXT);
}

const TEXT = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, note, STEP } from "./workflows";

test("stops when done", async () => {
  await testWorkflow(loop, { agents: { worker: answer(STEP, { done: true }) } });
});

test("answers for another schema", async () => {
  await testWorkflow(note, { agents: { writer: answer(STEP, { done: true }) } });
});
`;
const PATH = join(MISTAKES, "virtual-transcript.test.ts");

describe("the transcript request", () => {
  test(
    "answers null for a test that has not run",
    async () => {
      const uri = await openManually();
      expect(await server.request("turnlens/transcript", { test: `${uri}#stops%20when%20done` })).toBeNull();
    },
    SLOW,
  );

  test(
    "renders one test's runs, where each testWorkflow was called, and both schemas of a mismatch",
    async () => {
      const uri = await openManually();
      await server.runTests("r1", { include: [uri] });

      const passed = await server.request<TranscriptResult>("turnlens/transcript", { test: `${uri}#stops%20when%20done` });
      expect(
        passed.tests.map((test) => ({
          ...test,
          durationMs: 0,
          runs: test.runs.map((run) => ({ ...run, durationMs: 0, transcript: run.transcript.replace(/ · \d+ ms/, "") })),
        })),
      ).toEqual([
        {
          test: `${uri}#stops%20when%20done`,
          status: "passed",
          durationMs: 0,
          runs: [
            {
              workflow: "loop",
              ending: "completed",
              turns: 1,
              durationMs: 0,
              location: { uri, range: { start: { line: 5, character: 8 }, end: { line: 5, character: 8 } } },
              problems: [],
              transcript: [
                "run loop · completed · 1 turn",
                "── worker",
                "#1  Do step 1.",
                '    ✓ answered  {"done":true}',
                "    ← worker  virtual-transcript.test.ts:6:48",
                "",
              ].join("\n"),
            },
          ],
        },
      ]);
      expect(passed.text.split("\n")[0]).toMatch(/^test stops when done · passed · \d+ ms$/);

      const failed = await server.request<TranscriptResult>("turnlens/transcript", { test: `${uri}#answers%20for%20another%20schema` });
      const problem = failed.tests[0]!.runs[0]!.problems[0]!;
      expect(problem.code).toBe("schema-mismatch");
      expect(JSON.parse(problem.expected!)).toMatchObject({ type: "object", properties: { title: { type: "string" } } });
      expect(JSON.parse(problem.actual!)).toMatchObject({ type: "object", properties: { done: { type: "boolean" } } });
    },
    SLOW,
  );

  test(
    "renders every test of a file run from disk when asked for its bare uri",
    async () => {
      server = await TestServer.started(MANUAL_RUNS);
      const uri = pathToFileURL(join(ROOT, "examples", "review", "workflow.test.ts")).href;
      await server.runTests("r1", { include: [uri] });
      const result = await server.request<TranscriptResult>("turnlens/transcript", { test: uri });
      expect(result.tests.length).toBeGreaterThan(1);
      expect(result.tests.every((test) => test.test.startsWith(`${uri}#`) && test.status === "passed")).toBe(true);
      const heads = result.text.split("\n").filter((line) => line.startsWith("test "));
      expect(heads.length).toBe(result.tests.length);
      expect(result.text).toContain("run review · completed");
    },
    SLOW,
  );
});
