// A run reports the project files its bundle read (the language server's module graph is built
// from them), and bundles an editor's open buffers in place of the disk for any file it loads.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleAhead, claimBundledAhead, takeBundledAhead } from "../../core/execution/transform.ts";
import { FIXTURES, SLOW, withOnePool } from "./harness.ts";

/** Absolute paths: what a run reports and what an editor's buffers are keyed by. */
const fixture = (name: string) => join(FIXTURES, name);

const testFile = fixture("graph/importsWorkflow.test.ts");
const workflowFile = fixture("graph/workflow.ts");
const helperFile = fixture("graph/helper.ts");

describe("a run reports the files its bundle read", () => {
  test(
    "a file importing a workflow and a helper reports exactly those, itself first, and no package or served module",
    () =>
      withOnePool(async (pool) => {
        const result = await pool.run({ file: testFile, timeoutMs: 5000 });
        expect(result?.report.tests.map((t) => t.status)).toEqual(["passed"]);
        expect(result?.inputs?.[0]).toBe(testFile);
        expect([...(result?.inputs ?? [])].sort()).toEqual([helperFile, testFile, workflowFile].sort());
      }),
    SLOW,
  );

  test(
    "a file that fails to bundle reports the files it had read, the broken one among them",
    () =>
      withOnePool(async (pool) => {
        const broken = readFileSync(workflowFile, "utf8").replace("async run(wf) {", "async run(wf) {{");
        const result = await pool.run({ file: testFile, timeoutMs: 5000, sources: { [workflowFile]: broken } });
        expect(result?.report.error?.location?.file).toBe(workflowFile);
        expect([...(result?.inputs ?? [])].sort()).toEqual([helperFile, testFile, workflowFile].sort());
      }),
    SLOW,
  );

  test("each file of a many-entry build made ahead reports its own inputs, not the others'", async () => {
    const otherTest = fixture("graph/other.test.ts");
    bundleAhead([testFile, otherTest]);
    claimBundledAhead(testFile);
    const first = await takeBundledAhead(testFile);
    claimBundledAhead(otherTest);
    const second = await takeBundledAhead(otherTest);
    expect(first?.inputs[0]).toBe(testFile);
    expect([...(first?.inputs ?? [])].sort()).toEqual([helperFile, testFile, workflowFile].sort());
    expect(second?.inputs).toEqual([otherTest, fixture("graph/other.ts")]);
  });
});

describe("a run bundles the open buffers it is given in place of the disk", () => {
  test(
    "an unsaved workflow the test file imports is what runs: its agent renamed, the test's script entry is never reached",
    () =>
      withOnePool(async (pool) => {
        const renamed = readFileSync(workflowFile, "utf8").replace('key: "reader"', 'key: "writer"');
        const result = await pool.run({ file: testFile, timeoutMs: 5000, sources: { [workflowFile]: renamed } });
        expect(result?.report.tests.map((t) => t.status)).toEqual(["failed"]);
        expect(result?.report.tests[0]?.error?.message).toContain('"writer"');
        // The disk still holds the saved text: a run without the buffer passes.
        const fromDisk = await pool.run({ file: testFile, timeoutMs: 5000 });
        expect(fromDisk?.report.tests.map((t) => t.status)).toEqual(["passed"]);
      }),
    SLOW,
  );
});
