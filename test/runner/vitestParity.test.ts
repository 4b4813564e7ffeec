// `vitest run` with the `turnlens/vitest` plugin passes and fails the same tests as `turnlens test`:
// the examples, the mistakes of examples/mistakes, and bun:test's API, copied into a project
// folder outside the repository whose node_modules links this build and its Vitest.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { servedNames } from "../../core/execution/served.ts";
import { vitestServedNames } from "../../core/vitest/plugin.ts";
import { type ParityResult, vitestParity } from "../package/vitestParity.ts";
import { FIXTURES, ROOT, runNode } from "./harness.ts";

// Two full runs of every example on a loaded machine: minutes, never a wall-clock assertion.
const MINUTES = 20 * 60_000;

let project = "";
let result: ParityResult;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "turnlens-vitest-project-"));
  cpSync(join(ROOT, "examples"), join(project, "examples"), { recursive: true });
  cpSync(join(FIXTURES, "api"), join(project, "bun-api", "api"), { recursive: true });
  cpSync(join(FIXTURES, "vitestParity"), join(project, "bun-api", "vitest"), { recursive: true });
  mkdirSync(join(project, "node_modules"));
  symlinkSync(ROOT, join(project, "node_modules", "turnlens"), "dir");
  symlinkSync(join(ROOT, "node_modules", "vitest"), join(project, "node_modules", "vitest"), "dir");
  result = await vitestParity(project, { paths: ["examples", "bun-api"], timeoutMs: MINUTES / 2 });
}, MINUTES);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

const mistakeFiles = readdirSync(join(ROOT, "examples", "mistakes"))
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `examples/mistakes/${name}`)
  .sort();

describe("vitest run with the turnlens plugin", () => {
  test("passes and fails exactly the tests turnlens test passes and fails", () => {
    expect(result.vitest).toEqual(result.turnlens);
  });

  test("both ran every test file and both exited failed, since the mistakes fail", () => {
    const filesOf = (outcomes: Record<string, string>) => [...new Set(Object.keys(outcomes).map((key) => key.split(" > ")[0]))].sort();
    expect(filesOf(result.turnlens)).toEqual(result.files);
    expect(filesOf(result.vitest)).toEqual(result.files);
    expect(result.runs.turnlens.code).toBe(1);
    expect(result.runs.vitest.code).toBe(1);
  });

  test("every example passes and every test of examples/mistakes fails", () => {
    const examples = Object.entries(result.turnlens).filter(([key]) => key.startsWith("examples/"));
    const failedFiles = [...new Set(examples.filter(([, status]) => status === "failed").map(([key]) => key.split(" > ")[0]))].sort();
    expect(failedFiles).toEqual(mistakeFiles);
    const others = examples.filter(([key]) => !key.startsWith("examples/mistakes/"));
    expect(others.length).toBeGreaterThan(20);
    expect(others.filter(([, status]) => status !== "passed")).toEqual([]);
    expect(examples.filter(([key, status]) => key.startsWith("examples/mistakes/") && status !== "failed")).toEqual([]);
  });

  test("bun:test's names mean the same under Vitest: done callbacks, failing, if, each rows, matchers, mocks, timeouts", () => {
    const prefix = "bun-api/vitest/bunApi.test.ts > ";
    const bunApi = Object.fromEntries(
      Object.entries(result.vitest)
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, status]) => [key.slice(prefix.length), status]),
    );
    expect(bunApi).toEqual({
      "a beforeAll that takes done ends when it calls it": "passed",
      "a beforeEach teardown > ran after the first test, after its afterEach": "passed",
      "a beforeEach teardown > runs once": "passed",
      "a body that takes done but never calls it times out": "failed",
      "a failing test that fails passes": "passed",
      "a failing test that passes fails": "failed",
      "bun's matchers that fail make the test fail": "failed",
      "bun's toBeWithin and toContainValue": "passed",
      "done called with an error fails": "failed",
      "expect.assertions counts": "failed",
      "expect.unreachable fails the test": "failed",
      "jest.fn, spyOn and restore": "passed",
      "mock.module gives a later import the factory's module": "passed",
      "retry reruns a failing test": "passed",
      "row x with { deep: [ 1 ] }": "passed",
      "skipIf(true) is skipped": "skipped",
      "suite for 1 > is positive": "passed",
      "suite for 2 > is positive": "passed",
      "template row 1 + 2 = 3": "passed",
      "template row 2 + 2 = 5": "failed",
      "test.if(false) is skipped": "skipped",
      "test.if(true) runs": "passed",
      "test.skip is skipped": "skipped",
      "test.todo is todo": "todo",
      "the context skips a test": "skipped",
      "the file's default timeout applies": "failed",
      "the test's own timeout beats the file's default": "passed",
    });
    expect(result.vitest["bun-api/vitest/asyncDescribe.test.ts"]).toBe("failed");
    expect(result.vitest["bun-api/vitest/focused.test.ts > is focused"]).toBe("passed");
    expect(result.vitest["bun-api/vitest/focused.test.ts > is not focused"]).toBe("skipped");
  });

  test("module mocks mean the same under Vitest: vi.mock hoisted with its factory, automocks, spies, doMock, importActual", () => {
    const mocking = Object.fromEntries(Object.entries(result.vitest).filter(([key]) => key.startsWith("bun-api/vitest/moduleMocks")));
    expect(mocking).toEqual({
      "bun-api/vitest/moduleMocks.test.ts > the code under test imports the factory's module": "passed",
      "bun-api/vitest/moduleMocks.test.ts > a builtin is mocked, with a value vi.hoisted made before the mocks": "passed",
      "bun-api/vitest/moduleMocks.test.ts > vi.importActual gives the real module": "passed",
      "bun-api/vitest/moduleMocks.test.ts > vi.importMock gives every export automocked": "passed",
      "bun-api/vitest/moduleMocks.test.ts > vi.doMock changes a later dynamic import, and vi.doUnmock undoes it": "passed",
      "bun-api/vitest/moduleMocks.test.ts > a name the factory did not return throws when a dynamic import reads it": "passed",
      "bun-api/vitest/moduleMocks.test.ts > a wrong expectation about a mock fails": "failed",
      "bun-api/vitest/moduleMocksSpy.test.ts > { spy: true } keeps each export's implementation and records its calls": "passed",
      "bun-api/vitest/moduleMocksAuto.test.ts > an automocked function returns undefined until it is given an implementation": "passed",
    });
  });

  test("every name a test file imports the engine by is one instance of it", () => {
    expect(result.vitest["bun-api/vitest/oneEngine.test.ts > agentswf/* and turnlens/* are the same modules"]).toBe("passed");
    expect(result.vitest["bun-api/vitest/oneEngine.test.ts > bun:test's expect is the one the vitest name gives this file"]).toBe("passed");
  });

  test("the trace the editor reads holds under Vitest: runs are published with the sites of their entries", () => {
    expect(result.vitest["bun-api/vitest/trace.test.ts > a run's trace names the lines of this file that scripted it"]).toBe("passed");
  });
});

test("the plugin serves every name turnlens test serves, but vitest, which is Vitest's own", () => {
  expect([...vitestServedNames].sort()).toEqual(servedNames.filter((name) => name !== "vitest").sort());
});

test(
  "a vitest.config.ts that adds the plugin type-checks against its declarations, and a wrong option does not",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "turnlens-vitest-types-"));
    try {
      mkdirSync(join(dir, "node_modules"));
      symlinkSync(ROOT, join(dir, "node_modules", "turnlens"), "dir");
      symlinkSync(join(ROOT, "node_modules", "vitest"), join(dir, "node_modules", "vitest"), "dir");
      writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
      const options = { module: "nodenext", moduleResolution: "nodenext", strict: true, noEmit: true, skipLibCheck: true, types: [] };
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, include: ["vitest.config.ts"] }));
      const config = (option: string) =>
        `import turnlens from "turnlens/vitest";\nimport { defineConfig } from "vitest/config";\n\nexport default defineConfig({ plugins: [turnlens({ bunTest: ${option} })] });\n`;
      const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
      writeFileSync(join(dir, "vitest.config.ts"), config("true"));
      const good = await runNode([tsc, "-p", ".", "--pretty", "false"], dir);
      expect({ code: good.code, stdout: good.stdout }).toEqual({ code: 0, stdout: "" });
      writeFileSync(join(dir, "vitest.config.ts"), config("1"));
      const bad = await runNode([tsc, "-p", ".", "--pretty", "false"], dir);
      expect(bad.code).toBe(2);
      expect(bad.stdout.trim()).toBe("vitest.config.ts(4,52): error TS2322: Type 'number' is not assignable to type 'boolean | undefined'.");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  MINUTES,
);
