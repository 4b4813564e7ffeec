// Which files the extension treats as Turnlens tests (extension/vscodeFree/testFiles.ts): the runner's names,
// and an import of the testing module under either name.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { filesNoLongerListed, importsTurnlens, isTestFileName } from "../../extension/vscodeFree/testFiles.ts";

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

describe("the server's listing of the test files", () => {
  test("takes out of the tree the files it no longer lists, but not an open one", () => {
    const inTree = ["file:///w/tests/a.test.ts", "file:///w/fixtures/b.test.ts", "file:///w/fixtures/open.test.ts", "file:///w/e2e/c.test.ts"];
    const listed = ["file:///w/tests/a.test.ts", "file:///w/e2e/c.test.ts", "file:///w/new.test.ts"];
    expect(filesNoLongerListed(inTree, listed, new Set(["file:///w/fixtures/open.test.ts"]))).toEqual(["file:///w/fixtures/b.test.ts"]);
  });

  test("takes nothing out when every file in the tree is listed", () => {
    expect(filesNoLongerListed(["file:///w/a.test.ts"], ["file:///w/a.test.ts", "file:///w/b.test.ts"], new Set())).toEqual([]);
  });
});
