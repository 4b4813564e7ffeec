// Bad test files never hang or crash the runner: each failure stays with its test or file.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { RunSummary } from "../../core/execution/report.ts";
import { fixture, ROOT, SLOW, tempProject, turnlens } from "./harness.ts";

function statuses(report: RunSummary, file: string): Record<string, string> {
  const found = report.files.find((f) => f.file.endsWith(file));
  if (!found) throw new Error(`no report for ${file}`);
  return Object.fromEntries(found.tests.map((t) => [t.name, t.status]));
}

describe("a test that misbehaves", () => {
  test(
    "a test that calls process.exit fails alone and the file's other tests still run",
    async () => {
      const result = await turnlens([fixture("exit"), "--reporter", "json"]);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as RunSummary;
      expect(statuses(report, "exit.test.ts")).toEqual({
        "runs before the exit": "passed",
        "calls process.exit": "failed",
        "runs after the exit": "passed",
      });
      const failed = report.files[0]!.tests[1]!;
      expect(failed.error?.message).toBe("the test called process.exit(1); a test must not end the process");
      expect(failed.error?.location).toMatchObject({ file: join(ROOT, fixture("exit/exit.test.ts")), line: 8 });
    },
    SLOW,
  );

  test(
    "a synchronous infinite loop is killed and reported while the other files still pass",
    async () => {
      const result = await turnlens([fixture("loop"), "--timeout", "500ms", "--reporter", "json"]);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as RunSummary;
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
    SLOW,
  );

  test(
    "a test that kills its own worker is reported failed and the rest of its file still runs",
    async () => {
      const result = await turnlens([fixture("kill"), "--reporter", "json"]);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as RunSummary;
      expect(statuses(report, "kill.test.ts")).toEqual({ "kills its own worker": "failed", "runs after the kill": "passed" });
      expect(report.files[0]!.tests[0]!.error?.message).toContain("killed by signal SIGKILL");
    },
    SLOW,
  );

  test(
    "an uncaught async error or unhandled rejection fails only the test that caused it",
    async () => {
      const result = await turnlens([fixture("uncaught"), "--reporter", "json"]);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as RunSummary;
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
    SLOW,
  );
});

describe("a test file that cannot load", () => {
  test(
    "a syntax error is reported with file:line:column and esbuild's message",
    async () => {
      const project = tempProject({
        "broken.test.ts": 'import { test } from "bun:test";\n\ntest("x", () => {\n  const value = ;\n});\n',
        "fine.test.ts": 'import { test } from "bun:test";\ntest("fine", () => {});\n',
      });
      try {
        const result = await turnlens([project.dir]);
        expect(result.code).toBe(1);
        const broken = join(project.dir, "broken.test.ts");
        expect(result.stdout).toContain(`✗ ${broken} (could not run)`);
        expect(result.stdout).toContain(`at ${broken}:4:17`);
        expect(result.stdout).toContain('Unexpected ";"');
        expect(result.stdout).not.toContain("node:internal");
        expect(result.lastLine).toBe("1 passed, 1 failed");
        const json = JSON.parse((await turnlens([project.dir, "--reporter", "json"])).stdout) as RunSummary;
        const file = json.files.find((f) => f.file === broken)!;
        expect(file.error).toMatchObject({ message: 'Unexpected ";"', location: { file: broken, line: 4, column: 17 } });
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "a missing module is named with the importing file:line",
    async () => {
      const project = tempProject({
        "imports.test.ts": 'import { test } from "bun:test";\nimport { helper } from "not-an-installed-package";\n\ntest("x", () => helper());\n',
        "relative.test.ts": 'import { test } from "bun:test";\nimport { helper } from "./missing-helper.ts";\n\ntest("x", () => helper());\n',
      });
      try {
        const json = JSON.parse((await turnlens([project.dir, "--reporter", "json"])).stdout) as RunSummary;
        const pkg = json.files.find((f) => f.file.endsWith("imports.test.ts"))!;
        expect(pkg.error?.message).toContain(`Cannot find package "not-an-installed-package" imported at ${join(project.dir, "imports.test.ts")}:2:24`);
        expect(pkg.error?.location).toEqual({ file: join(project.dir, "imports.test.ts"), line: 2, column: 24 });
        const rel = json.files.find((f) => f.file.endsWith("relative.test.ts"))!;
        expect(rel.error?.message).toContain(`Cannot find module "./missing-helper.ts" imported at ${join(project.dir, "relative.test.ts")}:2:24`);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "an error thrown at a file's top level fails that file with its location",
    async () => {
      const project = tempProject({
        "throws.test.ts": 'import { test } from "bun:test";\ntest("x", () => {});\nthrow new Error("top-level failure");\n',
      });
      try {
        const json = JSON.parse((await turnlens([project.dir, "--reporter", "json"])).stdout) as RunSummary;
        expect(json.failed).toBe(1);
        expect(json.files[0]!.error).toMatchObject({ message: "top-level failure", location: { line: 3, column: 7 } });
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
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
  test(
    "each of many files gets fresh state for its own modules, its own paths and its own require",
    async () => {
      const project = tempProject(manyFiles(12));
      try {
        const result = await turnlens([project.dir, "--reporter", "json"]);
        const json = JSON.parse(result.stdout) as RunSummary;
        expect(json.files.map((f) => [f.file.slice(project.dir.length + 1), f.tests.map((t) => t.status)])).toEqual(
          [...Array(12).keys()].map((i) => [`${(i + 1) % 2 === 0 ? "b" : "a"}/f${String(i + 1).padStart(2, "0")}.test.ts`, ["passed"]]).sort(),
        );
        expect(result.code).toBe(0);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "a syntax error in one of many files fails that file alone, with its location",
    async () => {
      const files = manyFiles(12);
      files["a/f03.test.ts"] = 'import { test } from "bun:test";\n\ntest("x", () => {\n  const value = ;\n});\n';
      const project = tempProject(files);
      try {
        const result = await turnlens([project.dir, "--reporter", "json"]);
        const json = JSON.parse(result.stdout) as RunSummary;
        const broken = join(project.dir, "a", "f03.test.ts");
        expect(json.files.find((f) => f.file === broken)?.error).toMatchObject({ message: 'Unexpected ";"', location: { file: broken, line: 4, column: 17 } });
        expect([json.passed, json.failed]).toEqual([11, 1]);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
});

describe("served modules", () => {
  test(
    "a folder with nothing installed can import agentswf/testing, and each test's runs are in the report",
    async () => {
      const project = tempProject({
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
      });
      try {
        const result = await turnlens([project.dir, "--reporter", "json"]);
        expect(result.code).toBe(0);
        const report = JSON.parse(result.stdout) as RunSummary;
        const test0 = report.files[0]!.tests[0]!;
        expect(test0.status).toBe("passed");
        expect(test0.runs).toHaveLength(1);
        expect(test0.runs[0]!.workflow).toBe("summarize");
        expect(test0.runs[0]!.site).toEqual({ file: join(project.dir, "summarize.test.ts"), line: 5, column: 21 });
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
});
