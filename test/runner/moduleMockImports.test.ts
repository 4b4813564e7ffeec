// What a test file's own imports of a mocked module get (the mock itself, as under Vitest, by
// whatever path they name it), and what vi.resetModules and a disposed vi.doMock change.
import { describe, expect } from "bun:test";
import type { RunSummary } from "../../core/execution/report.ts";
import { cliTests, reportOf } from "./cliTable.ts";

function statuses(report: RunSummary): Record<string, string> {
  return Object.fromEntries(report.files.flatMap((file) => file.tests.map((test) => [`${file.file.split("/").pop()} > ${test.name}`, test.status])));
}

describe("a test file's imports of a mocked module", () => {
  cliTests([
    {
      name: "a namespace import of a mocked builtin is the factory's module, its own names and no others, and reading a name it lacks throws Vitest's error",
      files: {
        "namespace.test.ts": `vi.mock("node:path", () => ({ mocked: true }));
import { expect, test, vi } from "vitest";
import * as path from "node:path";
test("the factory's names", () => expect(Object.keys(path)).toEqual(["mocked"]));
test("a name it lacks", () => expect(() => (path as unknown as { sep: string }).sep).toThrow('[vitest] No "sep" export is defined on the "node:path" mock'));
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "namespace.test.ts > the factory's names": "passed", "namespace.test.ts > a name it lacks": "passed" });
      },
    },
    {
      name: "an import naming the mocked module by another path than the mock call (no extension) gets the mock",
      files: {
        "dep.ts": "export const timeout = 1;\n",
        "alias.test.ts": `import { expect, test, vi } from "vitest";
// @ts-expect-error: the factory adds fn
import { fn, timeout } from "./dep";
vi.mock("./dep.ts", () => ({ timeout: 10_000, fn: vi.fn() }));
test("alias", () => expect([timeout, vi.isMockFunction(fn)]).toEqual([10_000, true]));
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "alias.test.ts > alias": "passed" });
      },
    },
    {
      name: "a project module's import(name) of a name known only when it runs gets the mock of a builtin or of a bare name no module answers to, and the real module otherwise",
      files: {
        "load.ts": "export async function load(name: string) {\n  return import(name);\n}\n",
        "computed.test.ts": `import { expect, test, vi } from "vitest";
import { load } from "./load.ts";
vi.mock("node:os", () => ({ default: { hostname: () => "mocked host" } }));
vi.mock("no-such-package-anywhere", () => ({ foo: "foo" }));
test("computed", async () => {
  expect((await load("os")).default.hostname()).toBe("mocked host");
  expect(await load("no-such-package-anywhere")).toMatchObject({ foo: "foo" });
  expect(typeof (await load("node:path")).join).toBe("function");
});
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "computed.test.ts > computed": "passed" });
      },
    },
    {
      name: "a test file's own import(name) of a name known only when it runs gets the mock it set, as another module's does",
      files: {
        "own.test.ts": `import { expect, test, vi } from "vitest";
vi.mock("node:os", () => ({ default: { hostname: () => "mocked host" } }));
test("own", async () => {
  const name = "node:os";
  expect((await import(name)).default.hostname()).toBe("mocked host");
  const path = "node:path";
  expect(typeof (await import(path)).join).toBe("function");
});
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "own.test.ts > own": "passed" });
      },
    },
  ]);
});

describe("vi.resetModules and vi.doMock's disposable", () => {
  cliTests([
    {
      name: "after vi.doMock and vi.resetModules a module already imported calls the new mock, and without vi.resetModules it keeps the last",
      files: {
        "increment.ts": "export const increment = (n: number) => n + 1;\n",
        "indirect.ts": 'import { increment } from "./increment.ts";\nexport const incrementIndirect = (n: number) => increment(n);\n',
        "reset.test.ts": `import { expect, test, vi } from "vitest";
test("reset", async () => {
  vi.doUnmock("./increment.ts");
  const first = await import("./indirect.ts");
  const seen = [first.incrementIndirect(1)];
  vi.doMock("./increment.ts", () => ({ increment: (n: number) => n + 10 }));
  expect(vi.resetModules()).toBe(vi);
  seen.push((await import("./indirect.ts")).incrementIndirect(1));
  vi.doMock("./increment.ts", () => ({ increment: (n: number) => n + 30 }));
  seen.push((await import("./indirect.ts")).incrementIndirect(1));
  expect(seen).toEqual([2, 11, 11]);
});
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "reset.test.ts > reset": "passed" });
      },
    },
    {
      name: "a vi.doMock held by using is undone at the block's end",
      files: {
        "increment.ts": "export const increment = (n: number) => n + 1;\n",
        "using.test.ts": `import { expect, test, vi } from "vitest";
test("using", async () => {
  const seen: number[] = [];
  {
    using _mock = vi.doMock("./increment.ts", () => ({ increment: (n: number) => n + 10 }));
    seen.push((await import("./increment.ts")).increment(1));
  }
  seen.push((await import("./increment.ts")).increment(1));
  expect(seen).toEqual([11, 2]);
});
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "using.test.ts > using": "passed" });
      },
    },
  ]);
});
