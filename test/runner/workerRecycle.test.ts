// How long a worker of `turnlens test` lives: a run of a fixed list of files keeps its warm worker
// for ONE_RUN_RECYCLE's files (limits.ts), past the language server's 100.
import { describe, expect, test } from "bun:test";
import { ONE_RUN_RECYCLE, RECYCLE_AFTER_RUNS } from "../../core/execution/limits.ts";
import { SLOW, tempProject, turnlens } from "./harness.ts";

const FILES = RECYCLE_AFTER_RUNS + 20;

describe("turnlens test's workers", () => {
  test(
    "one worker runs more files than the language server's run limit without being recycled, each file still starting fresh",
    async () => {
      expect(ONE_RUN_RECYCLE.afterRuns).toBeGreaterThan(FILES);
      const files: Record<string, string> = {};
      for (let index = 0; index < FILES; index++) {
        // Each file finds the module state it sets unset: files share a worker, never their modules.
        files[`tests/file${index}.test.ts`] =
          `import { expect, test } from "vitest";\nimport { state } from "./state.ts";\ntest("file ${index}", () => {\n  expect(state.seen).toBe(0);\n  state.seen++;\n});\n`;
      }
      files["tests/state.ts"] = "export const state = { seen: 0 };\n";
      const project = tempProject(files);
      try {
        const result = await turnlens(["tests", "--maxWorkers", "1"], project.dir);
        expect(result.stderr).not.toContain("recycled");
        expect(result.lastLine).toBe(`${FILES} passed, 0 failed`);
        expect(result.code).toBe(0);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
});
