// The served modules a worker hands its files are its own instances, whatever a file before ran:
// a file that bundles with its own copy of the runner's transform (as Turnlens's own tests do)
// must not have its copies of Turnlens's files served to the files after it, nor may a file that
// plants its own in the registry.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, SLOW, tempProject, turnlens } from "./harness.ts";

const TRANSFORM = JSON.stringify(join(ROOT, "core", "execution", "transform.ts"));

/** Reads a refusal's problems through turnlens/trace: the same instance testWorkflow wrote them to. */
const REFUSAL_READER = `import { expect, test } from "vitest";
import { testWorkflow } from "agentswf/testing";
import { defineWorkflow } from "agentswf/workflow";
import { problemsOf } from "turnlens/trace";
const plain = defineWorkflow({ name: "plain", description: "Returns one.", async run() { return 1; } });
test("a refusal's problems are read through turnlens/trace", async () => {
  const refused = await testWorkflow(plain, { files: { "a.md": "x" }, cwd: "/tmp" } as never).then(() => undefined, (error: unknown) => error);
  expect(problemsOf(refused)?.map((problem) => problem.code)).toEqual(["option-invalid"]);
});
`;

describe("the served modules' registry", () => {
  test(
    "a file that bundles another in-process leaves the next file in its worker the worker's own turnlens/trace",
    async () => {
      const project = tempProject({
        // Bundles a file that imports turnlens/trace, which no file has imported yet in this worker.
        "a.test.ts": `import { expect, test } from "vitest";
import { bundlePathFor, bundleTestFile } from ${TRANSFORM};
test("bundles a file that imports turnlens/trace", async () => {
  const bundle = await bundleTestFile(new URL("./traced.ts", import.meta.url).pathname, bundlePathFor("traced.ts"));
  expect([...bundle.served]).toEqual(["turnlens/trace"]);
});
`,
        "traced.ts": `import { problemsOf } from "turnlens/trace";\nexport const read = problemsOf;\n`,
        "b.test.ts": REFUSAL_READER,
      });
      try {
        const result = await turnlens([".", "--maxWorkers", "1"], project.dir);
        expect(result.stdout).toContain("2 passed, 0 failed");
        expect(result.code).toBe(0);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "a file that plants its own turnlens/trace in the registry is warned of, its worker replaced, and the next file gets the real one",
    async () => {
      const project = tempProject({
        "a.test.ts": `import { test } from "vitest";
test("plants a turnlens/trace", () => {
  const registry = (globalThis as Record<symbol, Record<string, unknown>>)[Symbol.for("turnlens.modules")]!;
  registry["turnlens/trace"] = { problemsOf: () => [{ code: "planted" }] };
});
`,
        "b.test.ts": REFUSAL_READER,
      });
      try {
        const result = await turnlens([".", "--maxWorkers", "1"], project.dir);
        expect(result.stdout).toContain('a.test.ts changed the served module "turnlens/trace"; its worker was replaced');
        expect(result.stdout).toContain("2 passed, 0 failed");
        expect(result.code).toBe(0);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
});
