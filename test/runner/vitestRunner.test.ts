// A test file that takes its test API from `vitest` runs on @vitest/runner (core/execution/vitestRunner.ts),
// and Turnlens's own reports hold there: each run trace goes to the test that made it (also when tests
// run concurrently), -t, hook failures, uncaught errors, load errors and files with no test.
import { describe, expect, test } from "bun:test";
import { SLOW, tempProject, turnlens } from "./harness.ts";

interface JsonTest {
  path: string[];
  status: string;
  error?: { message: string; location?: { line: number } };
  runs: Array<{ workflow: string; site?: { line: number } }>;
}
interface JsonReport {
  files: Array<{ file: string; error?: { message: string }; tests: JsonTest[] }>;
}

/** Runs turnlens test on `files` (in a fresh folder) with the JSON reporter and any `args`. */
async function report(files: Record<string, string>, args: string[] = []): Promise<JsonReport> {
  const project = tempProject(files);
  try {
    const run = await turnlens([...Object.keys(files), "--reporter", "json", ...args], project.dir);
    return JSON.parse(run.stdout) as JsonReport;
  } finally {
    project.remove();
  }
}

const outcomes = (tests: JsonTest[]) => tests.map((t) => [t.path.join(" > "), t.status, t.error?.message.split("\n")[0]]);

const WORKFLOW = `import { answer, testWorkflow } from "turnlens/testing";
import { defineWorkflow } from "turnlens/workflow";
import Type from "typebox";
const NOTE = Type.Object({ note: Type.String() });
const noting = defineWorkflow({
  name: "noting",
  description: "One writer writes a note.",
  async run(wf) {
    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });
    const { outcome } = await writer.run({ prompt: "Write a note.", schema: NOTE });
    return outcome.kind === "answered" ? outcome.value : null;
  },
});
`;

describe("a vitest file on @vitest/runner", () => {
  test(
    "each concurrent test's report holds the runs it made, and only those",
    async () => {
      const file = `import { expect, test } from "vitest";
${WORKFLOW}
const gate = Promise.withResolvers<void>();
test.concurrent("first", async () => {
  await gate.promise;
  const run = await testWorkflow(noting, { agents: { writer: answer(NOTE, { note: "one" }) } });
  expect(run.value).toEqual({ note: "one" });
});
test.concurrent("second", async () => {
  const run = await testWorkflow(noting, { agents: { writer: answer(NOTE, { note: "two" }) } });
  gate.resolve();
  await testWorkflow(noting, { agents: { writer: answer(NOTE, { note: "three" }) } });
  expect(run.value).toEqual({ note: "two" });
});
`;
      const { files } = await report({ "runs.test.ts": file });
      const tests = files[0]!.tests;
      expect(outcomes(tests)).toEqual([
        ["first", "passed", undefined],
        ["second", "passed", undefined],
      ]);
      expect(tests.map((t) => t.runs.map((run) => run.site?.line))).toEqual([[19], [23, 25]]);
    },
    SLOW,
  );

  test(
    "expect.getState().testPath is the file's path from its top-level code on, and TestRunner's statics declare custom tasks",
    async () => {
      const file = `import { expect, test, TestRunner } from "vitest";
const atLoad = expect.getState().testPath;
const custom = TestRunner.createTaskCollector(function (name: string, fn: () => void) {
  TestRunner.getCurrentSuite().task(name, { ...this, handler: fn });
});
test("read at load", () => expect(atLoad?.endsWith("/state.test.ts")).toBe(true));
test("read in a test", () => expect(expect.getState().testPath).toBe(atLoad));
custom("declared by a custom collector", () => {});
`;
      const { files } = await report({ "state.test.ts": file });
      expect(outcomes(files[0]!.tests)).toEqual([
        ["read at load", "passed", undefined],
        ["read in a test", "passed", undefined],
        ["declared by a custom collector", "passed", undefined],
      ]);
    },
    SLOW,
  );

  test(
    "import.meta.env is process.env as Vitest gives it: mode test, DEV, PROD and SSR as booleans, a change through either seen by both",
    async () => {
      const file = `import { expect, test, vi } from "vitest";
test("defaults", () => {
  expect([import.meta.env.MODE, import.meta.env.DEV, import.meta.env.PROD, import.meta.env.SSR]).toEqual(["test", true, false, true]);
  expect([process.env.DEV, process.env.PROD, process.env.NODE_ENV]).toEqual(["1", "", "test"]);
});
test("one object", () => {
  import.meta.env.SET_THROUGH_META = "a";
  expect(process.env.SET_THROUGH_META).toBe("a");
  vi.stubEnv("PROD", true);
  expect([import.meta.env.PROD, process.env.PROD]).toEqual([true, "1"]);
  expect("import.meta.env").toBe("import" + ".meta.env");
});
`;
      const { files } = await report({ "env.test.ts": file });
      expect(outcomes(files[0]!.tests)).toEqual([
        ["defaults", "passed", undefined],
        ["one object", "passed", undefined],
      ]);
    },
    SLOW,
  );

  test(
    "-t selects by the full name in any of its spellings, and a suite with no selected test runs no hook",
    async () => {
      const file = `import { beforeAll, describe, test } from "vitest";
describe("outer", () => {
  test("kept", () => {});
  test("dropped", () => {});
});
describe("other", () => {
  beforeAll(() => { throw new Error("must not run"); });
  test("also dropped", () => {});
});
`;
      const { files } = await report({ "names.test.ts": file }, ["-t", "outer > kept"]);
      expect(outcomes(files[0]!.tests)).toEqual([
        ["outer > kept", "passed", undefined],
        ["outer > dropped", "skipped", undefined],
        ["other > also dropped", "skipped", undefined],
      ]);
    },
    SLOW,
  );

  test(
    "a failing beforeAll fails the tests it stood before, and a failing afterAll is reported as its own entry",
    async () => {
      const file = `import { afterAll, beforeAll, describe, test } from "vitest";
describe("set up fails", () => {
  beforeAll(() => { throw new Error("no database"); });
  test("needs the database", () => {});
});
describe("tear down fails", () => {
  afterAll(() => { throw new Error("left a mess"); });
  test("runs first", () => {});
});
`;
      const { files } = await report({ "hooks.test.ts": file });
      expect(outcomes(files[0]!.tests)).toEqual([
        ["set up fails > needs the database", "failed", "beforeAll hook failed: no database"],
        ["tear down fails > runs first", "passed", undefined],
        ["tear down fails > afterAll hook", "failed", "afterAll hook failed: left a mess"],
      ]);
    },
    SLOW,
  );

  test(
    "an uncaught error while a test runs fails that test, and a failure is located at the line that threw",
    async () => {
      const file = `import { test } from "vitest";
test("throws later", async () => {
  setTimeout(() => { throw new Error("from a timer"); }, 1);
  await new Promise((r) => setTimeout(r, 20));
});
test("throws", () => {
  throw new Error("at line seven");
});
`;
      const { files } = await report({ "stray.test.ts": file });
      const tests = files[0]!.tests;
      expect(outcomes(tests)).toEqual([
        ["throws later", "failed", "from a timer"],
        ["throws", "failed", "at line seven"],
      ]);
      expect(tests[1]!.error?.location?.line).toBe(7);
    },
    SLOW,
  );

  test(
    "a file that throws while it loads, or declares no test, fails as a file",
    async () => {
      const { files } = await report({
        "throws.test.ts": `import { test } from "vitest";\ntest("never collected", () => {});\nthrow new Error("broken import");\n`,
        "empty.test.ts": `import { expect } from "vitest";\nexpect(1).toBe(1);\n`,
      });
      const byName = Object.fromEntries(files.map((f) => [f.file.split("/").pop(), [f.error?.message, f.tests.length]]));
      expect(byName).toEqual({ "throws.test.ts": ["broken import", 0], "empty.test.ts": ["no test found in empty.test.ts", 0] });
    },
    SLOW,
  );
});
