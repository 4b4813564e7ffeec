// `__mocks__` folders and the other module names Vitest mocks without a module: `vi.mock(path)`
// without a factory gives the file of a `__mocks__` folder when there is one (next to a project
// file; at the project's root for a package, a builtin or a name no module answers to).
import { describe, expect } from "bun:test";
import type { RunSummary } from "../../core/execution/report.ts";
import { cliTests, reportOf } from "./cliTable.ts";

function statuses(report: RunSummary): Record<string, string> {
  return Object.fromEntries(report.files.flatMap((file) => file.tests.map((test) => [`${file.file.split("/").pop()} > ${test.name}`, test.status])));
}

describe("__mocks__ folders", () => {
  cliTests([
    {
      name: "vi.mock(path) without a factory gives the __mocks__ file next to a project file, to the test file and the code under test, and vi.importMock gives it too",
      files: {
        "src/dep.ts": 'export const value = "real";\nexport const other = () => "real other";\n',
        "src/__mocks__/dep.ts": 'export const value = "from __mocks__";\nexport const other = () => "mocked other";\n',
        "src/user.ts": 'import { other } from "./dep.ts";\nexport const read = () => other();\n',
        "folder.test.ts": `import { expect, test, vi } from "vitest";
import { value } from "./src/dep.ts";
import { read } from "./src/user.ts";
vi.mock("./src/dep.ts");
test("the test file's import", () => expect(value).toBe("from __mocks__"));
test("the code under test's import", () => expect(read()).toBe("mocked other"));
test("vi.importMock", async () => expect((await vi.importMock<{ value: string }>("./src/dep.ts")).value).toBe("from __mocks__"));
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({
          "folder.test.ts > the test file's import": "passed",
          "folder.test.ts > the code under test's import": "passed",
          "folder.test.ts > vi.importMock": "passed",
        });
      },
    },
    {
      name: "a builtin and a name no module answers to are mocked by the root __mocks__ folder's file of that name, whatever its extension",
      files: {
        "__mocks__/timers.ts": 'export default { clearInterval: () => "mocked clearInterval" };\n',
        "__mocks__/not-installed.js.ts": 'export const mocked = "from the root __mocks__";\n',
        "root.test.ts": `import { expect, test, vi } from "vitest";
import timers from "node:timers";
// @ts-expect-error: no module has this name
import { mocked } from "not-installed.js";
vi.mock("timers");
vi.mock("not-installed.js");
test("the builtin", () => expect(timers.clearInterval(undefined)).toBe("mocked clearInterval"));
test("the name no module answers to", () => expect(mocked).toBe("from the root __mocks__"));
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({
          "root.test.ts > the builtin": "passed",
          "root.test.ts > the name no module answers to": "passed",
        });
      },
    },
  ]);
});

describe("modules no file answers to", () => {
  cliTests([
    {
      name: "a namespace import of a name no module answers to has the names the file reads from it, and a file without semicolons finds them",
      files: {
        "namespace.test.ts": `import { dirname } from 'node:path'
// @ts-expect-error: no module has this name
import * as virtual from 'no-such-package-anywhere'
// @ts-expect-error: no module has this name
import { named } from 'another-missing-package'
import { expect, test, vi } from 'vitest'
vi.mock('no-such-package-anywhere', () => ({ factory: true }))
vi.mock('another-missing-package', () => ({ named: 'named' }))
test('namespace', () => expect([virtual.factory, named, typeof dirname]).toEqual([true, 'named', 'function']))
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "namespace.test.ts > namespace": "passed" });
      },
    },
    {
      name: "a module of the project importing a name from a module no file answers to gets it from the factory, though the test file names it only in vi.doMock",
      files: {
        "reader.ts": '// @ts-expect-error: no module has this name\nimport { value } from "no-such-package-anywhere";\nexport const read = () => value;\n',
        "indirect.test.ts": `import { expect, test, vi } from "vitest";
test("indirect", async () => {
  vi.doMock("no-such-package-anywhere", () => ({ value: "from the factory" }));
  const { read } = await import("./reader.ts");
  expect(read()).toBe("from the factory");
});
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({ "indirect.test.ts > indirect": "passed" });
      },
    },
    {
      name: "vi.doMock of an absolute path no file is at gives its factory's module to a later import, and vi.doUnmock ends it",
      files: {
        "absolute.test.ts": `import { afterEach, beforeEach, expect, test, vi } from "vitest";
beforeEach(() => {
  vi.doMock("/no-such-data", () => ({ data: { state: "STARTED" } }));
});
afterEach(() => {
  vi.doUnmock("/no-such-data");
});
test("first import", async () => {
  // @ts-expect-error: no file is there
  const { data } = await import("/no-such-data");
  data.state = "STOPPED";
  expect(data.state).toBe("STOPPED");
});
test("the factory runs again after vi.doUnmock", async () => {
  // @ts-expect-error: no file is there
  const { data } = await import("/no-such-data");
  expect(data.state).toBe("STARTED");
});
`,
      },
      args: [".", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(statuses(reportOf(result))).toEqual({
          "absolute.test.ts > first import": "passed",
          "absolute.test.ts > the factory runs again after vi.doUnmock": "passed",
        });
      },
    },
  ]);
});
