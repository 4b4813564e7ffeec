// Bad test files never hang or crash the runner: each failure stays with its test or file.
import { describe, expect } from "bun:test";
import { join } from "node:path";
import type { RunSummary } from "../../core/execution/report.ts";
import { cliTest, cliTests, DIR, reportOf } from "./cliTable.ts";
import { fixture, ROOT } from "./harness.ts";

function statuses(report: RunSummary, file: string): Record<string, string> {
  const found = report.files.find((f) => f.file.endsWith(file));
  if (!found) throw new Error(`no report for ${file}`);
  return Object.fromEntries(found.tests.map((t) => [t.name, t.status]));
}

describe("a test that misbehaves", () => {
  cliTests([
    {
      name: "a test that calls process.exit fails alone and the file's other tests still run",
      args: [fixture("exit"), "--reporter", "json"],
      code: 1,
      check: (result) => {
        const report = reportOf(result);
        expect(statuses(report, "exit.test.ts")).toEqual({
          "runs before the exit": "passed",
          "calls process.exit": "failed",
          "runs after the exit": "passed",
        });
        const failed = report.files[0]!.tests[1]!;
        expect(failed.error?.message).toBe("the test called process.exit(1); a test must not end the process");
        expect(failed.error?.location).toMatchObject({ file: join(ROOT, fixture("exit/exit.test.ts")), line: 8 });
      },
    },
    {
      name: "a synchronous infinite loop is killed and reported while the other files still pass",
      args: [fixture("loop"), "--timeout", "500ms", "--reporter", "json"],
      code: 1,
      check: (result) => {
        const report = reportOf(result);
        expect(statuses(report, "fine.test.ts")).toEqual({ "another file passes": "passed" });
        expect(statuses(report, "loop.test.ts")).toEqual({
          "runs before the loop": "passed",
          "never ends": "failed",
          "runs after the loop in a fresh worker": "passed",
        });
        const loop = report.files.find((f) => f.file.endsWith("loop.test.ts"))!.tests.find((t) => t.name === "never ends")!;
        expect(loop.error?.message).toContain("did not finish within its 500ms timeout");
        expect(loop.error?.message).toContain("the worker was killed");
        expect(loop.error?.location).toMatchObject({ file: join(ROOT, fixture("loop/loop.test.ts")), line: 7 });
      },
    },
    {
      name: "a test that kills its own worker is reported failed and the rest of its file still runs",
      args: [fixture("kill"), "--reporter", "json"],
      code: 1,
      check: (result) => {
        const report = reportOf(result);
        expect(statuses(report, "kill.test.ts")).toEqual({ "kills its own worker": "failed", "runs after the kill": "passed" });
        expect(report.files[0]!.tests[0]!.error?.message).toContain("killed by signal SIGKILL");
      },
    },
    {
      name: "an uncaught async error or unhandled rejection fails only the test that caused it",
      args: [fixture("uncaught"), "--reporter", "json"],
      code: 1,
      check: (result) => {
        const report = reportOf(result);
        expect(statuses(report, "uncaught.test.ts")).toEqual({
          "throws from a timer": "failed",
          "leaves a rejection unhandled": "failed",
          "still runs": "passed",
        });
        const [timer, rejection] = report.files[0]!.tests;
        expect(timer!.error?.message).toBe("thrown from a timer");
        expect(timer!.error?.location?.line).toBe(5);
        expect(rejection!.error?.message).toBe("nobody handled this");
      },
    },
  ]);
});

const BROKEN = 'import { test } from "bun:test";\n\ntest("x", () => {\n  const value = ;\n});\n';

describe("a test file that cannot load", () => {
  cliTests([
    {
      name: "a syntax error is reported with file:line:column and esbuild's message",
      files: { "broken.test.ts": BROKEN, "fine.test.ts": 'import { test } from "bun:test";\ntest("fine", () => {});\n' },
      steps: [
        {
          args: [DIR],
          cwd: ROOT,
          code: 1,
          stdout: { has: [`✗ ${DIR}/broken.test.ts (could not run)`, `at ${DIR}/broken.test.ts:4:17`, 'Unexpected ";"'], lacks: ["node:internal"] },
          lastLine: "1 passed, 1 failed",
        },
        {
          args: [DIR, "--reporter", "json"],
          cwd: ROOT,
          code: 1,
          check: (result, dir) => {
            const broken = join(dir, "broken.test.ts");
            const file = reportOf(result).files.find((f) => f.file === broken)!;
            expect(file.error).toMatchObject({ message: 'Unexpected ";"', location: { file: broken, line: 4, column: 17 } });
          },
        },
      ],
    },
    {
      name: "a missing module is named with the importing file:line",
      files: {
        "imports.test.ts": 'import { test } from "bun:test";\nimport { helper } from "not-an-installed-package";\n\ntest("x", () => helper());\n',
        "relative.test.ts": 'import { test } from "bun:test";\nimport { helper } from "./missing-helper.ts";\n\ntest("x", () => helper());\n',
      },
      cwd: ROOT,
      args: [DIR, "--reporter", "json"],
      code: 1,
      check: (result, dir) => {
        const json = reportOf(result);
        const pkg = json.files.find((f) => f.file.endsWith("imports.test.ts"))!;
        expect(pkg.error?.message).toContain(`Cannot find package "not-an-installed-package" imported at ${join(dir, "imports.test.ts")}:2:24`);
        expect(pkg.error?.location).toEqual({ file: join(dir, "imports.test.ts"), line: 2, column: 24 });
        const rel = json.files.find((f) => f.file.endsWith("relative.test.ts"))!;
        expect(rel.error?.message).toContain(`Cannot find module "./missing-helper.ts" imported at ${join(dir, "relative.test.ts")}:2:24`);
      },
    },
    {
      name: "a missing module reached only by a dynamic import fails that import when it runs, not the file",
      files: {
        // The template literal makes esbuild bundle every file of parts/, the one that imports a missing package too.
        "lazy.test.ts": [
          'import { expect, test } from "vitest";',
          "const part = (name: string) => import(`./parts/${name}.ts`);",
          'test("a part whose imports exist loads", async () => {',
          '  expect((await part("present")).value).toBe(1);',
          "});",
          'test("a part that imports a missing package rejects when imported", async () => {',
          '  await expect(part("absent")).rejects.toMatchObject({ code: "ERR_MODULE_NOT_FOUND", message: expect.stringMatching(/^Cannot find package \'not-an-installed-package\' imported from .*absent\\.ts$/) });',
          "});",
          'test("a dynamic import of a missing package or file rejects", async () => {',
          '  await expect(import("not-an-installed-package")).rejects.toThrow("Cannot find package \'not-an-installed-package\' imported from");',
          '  await expect(import("./missing-helper.ts")).rejects.toThrow("Cannot find module");',
          "});",
          "",
        ].join("\n"),
        "parts/present.ts": "export const value = 1;\n",
        "parts/absent.ts": 'import { helper } from "not-an-installed-package";\nexport const value = helper();\n',
      },
      cwd: ROOT,
      args: [DIR, "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result), "lazy.test.ts")).toEqual({
          "a part whose imports exist loads": "passed",
          "a part that imports a missing package rejects when imported": "passed",
          "a dynamic import of a missing package or file rejects": "passed",
        });
      },
    },
    {
      name: "an error thrown at a file's top level fails that file with its location",
      files: { "throws.test.ts": 'import { test } from "bun:test";\ntest("x", () => {});\nthrow new Error("top-level failure");\n' },
      cwd: ROOT,
      args: [DIR, "--reporter", "json"],
      code: 1,
      check: (result) => {
        const json = reportOf(result);
        expect(json.failed).toBe(1);
        expect(json.files[0]!.error).toMatchObject({ message: "top-level failure", location: { line: 3, column: 7 } });
      },
    },
  ]);
});

// Written apart: the runner rewrites `import.meta.url` in this file's own text, strings included.
const IMPORT_META = "import.meta";

/** `count` test files in folders `a/` and `b/`, each importing the counter module beside it. */
function manyFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {
    "a/counter.ts": "let count = 0;\nexport function bump(): number {\n  return ++count;\n}\n",
    "b/counter.ts": "let count = 0;\nexport function bump(): number {\n  return ++count;\n}\n",
    "a/data.json": '{ "folder": "a" }\n',
    "b/data.json": '{ "folder": "b" }\n',
  };
  for (let i = 1; i <= count; i++) {
    const folder = i % 2 === 0 ? "b" : "a";
    const name = `${folder}/f${String(i).padStart(2, "0")}.test.ts`;
    files[name] = `import { expect, test } from "bun:test";
import { fileURLToPath } from "node:url";
import { bump } from "./counter.ts";
test("f${i} has its own module state, paths and require", () => {
  expect(bump()).toBe(1);
  expect(__filename).toBe(fileURLToPath(${IMPORT_META}.url));
  expect(__filename.endsWith("/${name}")).toBe(true);
  expect(__dirname.endsWith("/${folder}")).toBe(true);
  expect(require("./data.json").folder).toBe("${folder}");
});
`;
  }
  return files;
}

describe("files bundled ahead, many in one build", () => {
  cliTests([
    {
      name: "each of many files gets fresh state for its own modules, its own paths and its own require",
      files: manyFiles(12),
      cwd: ROOT,
      args: [DIR, "--reporter", "json"],
      code: 0,
      check: (result, dir) =>
        expect(reportOf(result).files.map((f) => [f.file.slice(dir.length + 1), f.tests.map((t) => t.status)])).toEqual(
          [...Array(12).keys()].map((i) => [`${(i + 1) % 2 === 0 ? "b" : "a"}/f${String(i + 1).padStart(2, "0")}.test.ts`, ["passed"]]).sort(),
        ),
    },
    {
      name: "a syntax error in one of many files fails that file alone, with its location",
      files: { ...manyFiles(12), "a/f03.test.ts": BROKEN },
      cwd: ROOT,
      args: [DIR, "--reporter", "json"],
      code: 1,
      check: (result, dir) => {
        const json = reportOf(result);
        const broken = join(dir, "a", "f03.test.ts");
        expect(json.files.find((f) => f.file === broken)?.error).toMatchObject({ message: 'Unexpected ";"', location: { file: broken, line: 4, column: 17 } });
        expect([json.passed, json.failed]).toEqual([11, 1]);
      },
    },
  ]);
});

describe("served modules", () => {
  cliTest({
    name: "a folder with nothing installed can import agentswf/testing, and each test's runs are in the report",
    files: {
      "summarize.ts": `import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";
export const SUMMARY = Type.Object({ summary: Type.String() });
export default defineWorkflow({
  name: "summarize",
  description: "Summarise a file.",
  async run(wf) {
    const reader = await wf.agents.open({ key: "reader", runtime: "claude" });
    const { outcome } = await reader.run({ prompt: "Summarise it.", schema: SUMMARY });
    return outcome.kind === "answered" ? outcome.value : { summary: "none" };
  },
});
`,
      "summarize.test.ts": `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import summarize, { SUMMARY } from "./summarize";
test("returns the summary", async () => {
  const run = await testWorkflow(summarize, { agents: { reader: answer(SUMMARY, { summary: "Short." }) } });
  expect(run.value).toEqual({ summary: "Short." });
});
`,
    },
    cwd: ROOT,
    args: [DIR, "--reporter", "json"],
    code: 0,
    check: (result, dir) => {
      const test0 = reportOf(result).files[0]!.tests[0]!;
      expect(test0.status).toBe("passed");
      expect(test0.runs).toHaveLength(1);
      expect(test0.runs[0]!.workflow).toBe("summarize");
      expect(test0.runs[0]!.site).toEqual({ file: join(dir, "summarize.test.ts"), line: 5, column: 21 });
    },
  });
});
