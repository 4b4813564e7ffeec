// Which files the extension treats as Turnlens tests (extension/testFiles.ts): the runner's names,
// and an import of the testing module under either name.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { importsTurnlens, isTestFileName } from "../../extension/testFiles.ts";

describe("test files", () => {
  test("are named like the runner's", () => {
    expect(["a.test.ts", "/x/b.spec.mts", "c.test.jsx"].map(isTestFileName)).toEqual([true, true, true]);
    expect(["a.ts", "test.ts", "a.test.ts.map", "a.tests.ts"].map(isTestFileName)).toEqual([false, false, false, false]);
  });

  test("use Turnlens when they import its testing module, by either name and any import form", () => {
    expect(importsTurnlens('import { answer } from "agentswf/testing";')).toBe(true);
    expect(importsTurnlens("import {\n  testWorkflow,\n} from 'turnlens/testing'")).toBe(true);
    expect(importsTurnlens('const t = await import("turnlens/testing")')).toBe(true);
    expect(importsTurnlens('const t = require("agentswf/testing")')).toBe(true);
    expect(importsTurnlens('import { test } from "bun:test";\nimport x from "agentswf/workflow";')).toBe(false);
    expect(importsTurnlens('import x from "my-turnlens/testing";')).toBe(false);
    expect(importsTurnlens(readFileSync(fileURLToPath(new URL("../../examples/review/workflow.test.ts", import.meta.url)), "utf8"))).toBe(true);
  });
});
