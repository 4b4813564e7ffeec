// Module mocks (vi.mock, bun's mock.module) stay with the test file that made them, even when one
// worker runs many files, and bun's mock.module means what it means under Bun.
import { describe, expect } from "bun:test";
import type { RunSummary } from "../../core/execution/report.ts";
import { cliTests, reportOf } from "./cliTable.ts";

function statuses(report: RunSummary): Record<string, string> {
  return Object.fromEntries(report.files.flatMap((file) => file.tests.map((test) => [`${file.file.split("/").pop()} > ${test.name}`, test.status])));
}

/** Each file names a test after its worker's pid, so the report shows the files shared one worker. */
const pidTest = "test(`worker ${process.pid}`, () => {});\n";

describe("module mocks", () => {
  cliTests([
    {
      name: "a builtin one file mocks is the real one in the next file the same worker runs, whichever runs first",
      files: {
        "osMocked.test.ts": `import { expect, test, vi } from "vitest";
import { hostname } from "node:os";
import { sep } from "node:path";
vi.mock("node:os", () => ({ hostname: () => "mocked host", default: {} }));
test("this file's node:os is its mock", () => expect(hostname()).toBe("mocked host"));
test("this file's node:path is the real one", () => expect(sep).toBe("/"));
${pidTest}`,
        "pathMocked.test.ts": `import { expect, test, vi } from "vitest";
import { hostname } from "node:os";
import { sep } from "node:path";
vi.mock("node:path", () => ({ sep: "mocked sep", default: {} }));
test("this file's node:path is its mock", () => expect(sep).toBe("mocked sep"));
test("this file's node:os is the real one", () => expect(hostname()).not.toBe("mocked host"));
${pidTest}`,
      },
      args: [".", "--maxWorkers", "1", "--reporter", "json"],
      code: 0,
      check: (result) => {
        const found = statuses(reportOf(result));
        const workers = new Set(
          Object.keys(found)
            .filter((name) => name.includes(" > worker "))
            .map((name) => name.split(" > worker ")[1]),
        );
        expect(workers.size).toBe(1);
        const [pid] = [...workers];
        expect(found).toEqual({
          "osMocked.test.ts > this file's node:os is its mock": "passed",
          "osMocked.test.ts > this file's node:path is the real one": "passed",
          [`osMocked.test.ts > worker ${pid}`]: "passed",
          "pathMocked.test.ts > this file's node:path is its mock": "passed",
          "pathMocked.test.ts > this file's node:os is the real one": "passed",
          [`pathMocked.test.ts > worker ${pid}`]: "passed",
        });
      },
    },
    {
      name: "bun's mock.module replaces the exports of a module already imported, in place, and a later import gets the factory's module",
      files: {
        "dep.ts": 'export const value = "real";\nexport const other = "kept";\n',
        "user.ts": 'import { other, value } from "./dep.ts";\nexport const read = () => [value, other];\n',
        "bun.test.ts": `import { expect, mock, test } from "bun:test";
import { read } from "./user.ts";
test("in place", () => {
  expect(read()).toEqual(["real", "kept"]);
  mock.module("./dep.ts", () => ({ value: "mocked" }));
  expect(read()).toEqual(["mocked", "kept"]);
});
test("a later import", async () => {
  const dep = await import("./dep.ts");
  expect(dep.value).toBe("mocked");
});
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "bun.test.ts > in place": "passed", "bun.test.ts > a later import": "passed" });
      },
    },
    {
      name: "a setup file's vi.mock, its path relative to the setup file, holds for every test file it runs before, beside the test file's own mocks",
      files: {
        "turnlens.config.json": JSON.stringify({ setupFiles: ["./test/setup.ts"] }),
        "src/dep.ts": 'export const value = "real";\n',
        "test/setup.ts": 'import { vi } from "vitest";\nvi.mock("../src/dep", () => ({ value: "mocked by the setup file" }));\n',
        "test/plain.test.ts": `import { expect, test } from "vitest";
import { value } from "../src/dep";
test("the setup file's mock", () => expect(value).toBe("mocked by the setup file"));
`,
        "test/ownMocks.test.ts": `import { expect, test, vi } from "vitest";
import { value } from "../src/dep.ts";
import { hostname } from "node:os";
vi.mock("node:os", () => ({ hostname: () => "mocked host", default: {} }));
test("the setup file's mock and its own", () => expect([value, hostname()]).toEqual(["mocked by the setup file", "mocked host"]));
`,
      },
      args: ["test", "--maxWorkers", "1", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({
          "plain.test.ts > the setup file's mock": "passed",
          "ownMocks.test.ts > the setup file's mock and its own": "passed",
        });
      },
    },
    {
      name: "vi.mock(import(path)) names the module by that import's path, as vi.mock(path) does",
      files: {
        "dep.ts": 'export const value = "real";\n',
        "importForm.test.ts": `import { expect, test, vi } from "vitest";
import { value } from "./dep.ts";
vi.mock(import("./dep.ts"), () => ({ value: "mocked" }));
test("the import form", () => expect(value).toBe("mocked"));
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "importForm.test.ts > the import form": "passed" });
      },
    },
    {
      name: "a factory mocks a bare name no installed module answers to, and the file's imports of it get the factory's values",
      files: {
        "virtual.test.ts": `import { expect, test, vi } from "vitest";
// @ts-expect-error: no module has this name
import fallback, { value as renamed } from "no-such-package-anywhere";
vi.mock("no-such-package-anywhere", () => ({ value: "from the factory", default: "the default" }));
test("virtual", () => expect([renamed, fallback]).toEqual(["from the factory", "the default"]));
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "virtual.test.ts > virtual": "passed" });
      },
    },
    {
      name: "a mock of a module the runner serves is refused with why",
      files: {
        "served.test.ts": `import { test, vi } from "vitest";
vi.mock("agentswf/testing", () => ({}));
test("never runs", () => {});
`,
      },
      args: [".", "--reporter", "json"],
      code: 1,
      check: (result) => {
        const report = reportOf(result);
        expect(report.files[0]?.error?.message).toBe('vi.mock("agentswf/testing"): turnlens serves "agentswf/testing" itself; it cannot be mocked');
      },
    },
  ]);
});
