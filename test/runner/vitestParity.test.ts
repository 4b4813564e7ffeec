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

/** One fixture file's outcomes under a runner, by the test's name within the file (describe > test). */
function outcomesOfFile(runner: Record<string, string>, file: string): Record<string, string> {
  const prefix = `bun-api/vitest/${file} > `;
  return Object.fromEntries(Object.entries(runner).flatMap(([key, status]) => (key.startsWith(prefix) ? [[key.slice(prefix.length), status]] : [])));
}

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
    const bunApi = outcomesOfFile(result.vitest, "bunApi.test.ts");
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

  test("what Vite gives a file with no config means the same under turnlens test: import.meta.glob, ?raw, the worker's ids, the environment's name, /@vite/client", () => {
    const outcomes = (runner: Record<string, string>) => outcomesOfFile(runner, "viteImports.test.ts");
    const expected = {
      "/@vite/client is Vitest's stub: a hot context whose methods do nothing": "passed",
      "a ?raw import is the file's text": "passed",
      "a ?url import is the file's URL from the root": "passed",
      "an import(name) known only when it runs gets Vite's imports too: ?raw, ?url, /@vite/client": "passed",
      "a test file sees its worker's VITEST_POOL_ID and VITEST_WORKER_ID": "passed",
      "a wrong expectation on a glob fails": "failed",
      "import.meta.glob is lazy by default, keyed by the path from the file, in order": "passed",
      "import.meta.glob with eager and import gives each module's export itself": "passed",
      "import.meta.glob with query ?raw loads each file's text": "passed",
      "the environment a file runs in is named node": "passed",
    };
    expect(outcomes(result.vitest)).toEqual(expected);
    expect(outcomes(result.turnlens)).toEqual(expected);
  });

  test("Vitest's runner names mean the same under turnlens test: modifiers, .each/.for, concurrency, retry, repeats, the context, fixtures, hooks", () => {
    const outcomes = (runner: Record<string, string>) => outcomesOfFile(runner, "runnerSemantics.test.ts");
    const expected = {
      "concurrency > a concurrent describe > runs at most maxConcurrency at once 1": "passed",
      "concurrency > a concurrent describe > runs at most maxConcurrency at once 2": "passed",
      "concurrency > a concurrent describe > runs at most maxConcurrency at once 3": "passed",
      "concurrency > a concurrent describe > runs at most maxConcurrency at once 4": "passed",
      "concurrency > a concurrent describe > runs at most maxConcurrency at once 5": "passed",
      "concurrency > a concurrent describe > runs at most maxConcurrency at once 6": "passed",
      "concurrency > a concurrent describe > runs at most maxConcurrency at once 7": "passed",
      "concurrency > a sequential describe > runs one at a time 1": "passed",
      "concurrency > a sequential describe > runs one at a time 2": "passed",
      "concurrency > a shuffled describe > still runs each test a": "passed",
      "concurrency > a shuffled describe > still runs each test b": "passed",
      "concurrency > concurrent tests run together: one": "passed",
      "concurrency > concurrent tests run together: two": "passed",
      "concurrency > peaked at the default maxConcurrency of 5": "passed",
      "describe.skip > skips its tests": "skipped",
      "each > adds 1 + 2": "passed",
      "each > adds 2 + 2": "passed",
      "each > describe row 1 > is the row": "passed",
      "each > describe row 2 > is the row": "passed",
      "each > each row 1 with options": "passed",
      "each > each row 2 with options": "passed",
      "each > for row 1 squared is 1": "passed",
      "each > for row 2 squared is 4": "passed",
      "each > mixed row 0": "passed",
      "each > mixed row 1": "passed",
      "each > mixed row 2": "passed",
      "each > object row 1": "passed",
      "each > object row 2": "passed",
      "fixtures > a test that asks for none sets none up": "passed",
      "fixtures > gets its fixtures and their dependencies": "passed",
      "hooks > first": "passed",
      "hooks > second sees the first's afterEach and teardown": "passed",
      "it.fails is test.fails": "passed",
      "retry and repeats > inherited repeats > runs three times": "passed",
      "retry and repeats > inherited retry > passes on its third try": "passed",
      "retry and repeats > retry on the test itself": "passed",
      "retry and repeats > the repeated test ran three times": "passed",
      "runIf(false) is skipped": "skipped",
      "runIf(true) runs": "passed",
      "skipIf(false) runs": "passed",
      "skipIf(true) is skipped": "skipped",
      "test.fails that fails passes": "passed",
      "test.fails that passes fails": "failed",
      "test.skip is skipped": "skipped",
      "test.todo is todo": "todo",
      "the test context > a failing test's onTestFailed and onTestFinished run": "failed",
      "the test context > a passing test's onTestFailed does not run": "passed",
      "the test context > has a live signal": "passed",
      "the test context > names its task": "passed",
      "the test context > sees what a beforeEach set on the context": "passed",
      "the test context > skip() after an await skips": "skipped",
      "the test context > skip() skips": "skipped",
      "the test context > skip(false) does not skip": "passed",
      "the test context > the callbacks ran as they should": "passed",
      "vitest is vi": "passed",
    };
    expect(outcomes(result.vitest)).toEqual(expected);
    expect(outcomes(result.turnlens)).toEqual(expected);
  });

  test("expect means what Vitest's means: assert, expectTypeOf, soft, poll, asymmetric and custom matchers, circular Sets and Maps, assertion counts", () => {
    const outcomes = (runner: Record<string, string>) => outcomesOfFile(runner, "expectSemantics.test.ts");
    const expected = {
      "asymmetric matchers": "passed",
      "chai's assert fails": "failed",
      "chai's assert passes": "passed",
      "counting assertions > an awaited resolves counts": "passed",
      "counting assertions > expect.assertions(2) with one fails": "failed",
      "counting assertions > expect.assertions(2) with two passes": "passed",
      "counting assertions > expect.hasAssertions with none fails": "failed",
      "expect.extend > a custom matcher that fails fails the test": "failed",
      "expect.extend > adds a matcher": "passed",
      "expect.extend > adds it as an asymmetric matcher too": "passed",
      "expect.poll > fails when the value never passes in time": "failed",
      "expect.poll > retries until the value passes": "passed",
      "expect.soft > records a failure and the test goes on": "failed",
      "expect.soft > that all pass passes": "passed",
      "expect.soft > the failing soft test ran to its end": "passed",
      "expect.unreachable fails": "failed",
      "expectTypeOf and assertType do nothing at run time": "passed",
      "toEqual on circular Sets and Maps compares them without overflowing the stack": "passed",
    };
    expect(outcomes(result.vitest)).toEqual(expected);
    expect(outcomes(result.turnlens)).toEqual(expected);
  });

  test("Vitest 4's mocks, fake timers, stubs and waits mean the same under both runners", () => {
    const outcomes = outcomesOfFile(result.vitest, "spiesAndTimers.test.ts");
    expect(outcomes).toEqual({
      "fake timers > advanceTimersByTime runs the timers that come due": "passed",
      "fake timers > advanceTimersByTimeAsync awaits promise callbacks between timers": "passed",
      "fake timers > advanceTimersToNextFrame moves the clock to the next 16 ms frame": "passed",
      "fake timers > advanceTimersToNextTimer runs one timer at a time": "passed",
      "fake timers > advancing timers with real timers is refused": "passed",
      "fake timers > an endless interval stops runAllTimers at the loop limit": "passed",
      "fake timers > clearAllTimers drops every pending timer": "passed",
      "fake timers > isFakeTimers and useRealTimers": "passed",
      "fake timers > runAllTimers runs timers that timers set; runOnlyPendingTimers does not": "passed",
      "fake timers > runAllTimersAsync": "passed",
      "fake timers > setSystemTime moves Date under fake timers, and getMockedSystemTime tells it": "passed",
      "fake timers > setSystemTime with real timers mocks Date alone": "passed",
      "mocks > a failed toHaveBeenCalledWith fails the test": "failed",
      "mocks > a mock's name": "passed",
      "mocks > a spy on a frozen object's getter is refused": "passed",
      "mocks > a spy on a getter and a setter": "passed",
      "mocks > a spy on a proxy's method": "passed",
      "mocks > a spy on an export seen through the namespace": "passed",
      "mocks > clearAllMocks empties calls and keeps implementations": "passed",
      "mocks > mockReset goes back to the implementation vi.fn was given": "passed",
      "mocks > mockRestore on a spy puts the method back and goes back to the original": "passed",
      "mocks > mockReturnValue refuses new": "passed",
      "mocks > mockThrow and mockThrowOnce": "passed",
      "mocks > resetAllMocks goes back to each mock's own implementation": "passed",
      "mocks > restoreAllMocks restores spies, keeps their calls, and leaves vi.fn mocks alone": "passed",
      "mocks > settledResults hold what a promise settled to": "passed",
      "mocks > vi.fn(class) makes instances with new": "passed",
      "mocks > vi.mockObject mocks functions deeply and keeps values; spy: true keeps the implementations": "passed",
      "mocks > vi.mocked is the value itself and vi.isMockFunction tells mocks apart": "passed",
      "the runner's own timers > a test leaves fake timers on": "passed",
      "the runner's own timers > they do not stop the next test's timeout": "failed",
      "stubs and waits > a stub stays for the next test unless undone": "passed",
      "stubs and waits > stubEnv and unstubAllEnvs": "passed",
      "stubs and waits > stubGlobal and unstubAllGlobals": "passed",
      "stubs and waits > the stub of the test before is still there": "passed",
      "stubs and waits > waitFor fails with the callback's last error": "failed",
      "stubs and waits > waitFor retries until the callback passes": "passed",
      "stubs and waits > waitUntil waits for a truthy value, under fake timers too": "passed",
    });
    const bunPrefix = "bun-api/vitest/spiesAndTimersBun.test.ts > ";
    expect(Object.fromEntries(Object.entries(result.vitest).filter(([key]) => key.startsWith(bunPrefix)))).toEqual({
      [`${bunPrefix}jest's fake timers`]: "passed",
      [`${bunPrefix}mock(fn) records settled results and resets to its implementation`]: "passed",
      [`${bunPrefix}setSystemTime sets the date with real timers, and with no time gives the real one back`]: "passed",
      [`${bunPrefix}spyOn and mock.restore put the method back and keep the calls`]: "passed",
    });
  });

  test("imports resolve and fail alike: a missing module fails its dynamic import, not the file; folders, .mjs, CommonJS, import(variable), /root", () => {
    const pick = (runner: Record<string, string>) => outcomesOfFile(runner, "resolveImports.test.ts");
    const expected = {
      "a part of a dynamic import whose imports exist loads": "passed",
      "a part that imports a missing package rejects when imported, with Node's code": "passed",
      "a dynamic import of a missing package rejects with Node's words": "passed",
      "an extensionless relative import finds a .mjs file": "passed",
      "a folder whose package.json has exports is imported as that package, under Node's conditions": "passed",
      "a module.exports file in a type:module package is its default export": "passed",
      "import.meta.url written inside a string stays as written": "passed",
      "a relative import(variable) resolves from the importing file, not from the bundle": "passed",
      'an import of "/…" that names no file on disk starts at the project root': "passed",
      "import.meta.resolve of a relative path is that file's URL, from the file that wrote it": "passed",
      "a file: URL with a query or a hash is another instance of the module, as in Node": "passed",
    };
    expect(pick(result.vitest)).toEqual(expected);
    expect(pick(result.turnlens)).toEqual(expected);
  });

  test("snapshots: the .snap file and inline snapshots Vitest wrote match under both, and under CI a changed or missing one fails", () => {
    const pick = (runner: Record<string, string>) => outcomesOfFile(runner, "snapshots.test.ts");
    const expected = {
      "a run > its turns > match the .snap file": "passed",
      "a run > matches with properties": "passed",
      "a run > a value changed since the snapshot fails": "failed",
      "an inline snapshot matches": "passed",
      "an inline snapshot that differs fails": "failed",
      "a thrown error matches": "passed",
      "a file snapshot matches": "passed",
      "a snapshot missing under CI fails": "failed",
    };
    expect(pick(result.vitest)).toEqual(expected);
    expect(pick(result.turnlens)).toEqual(expected);
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

  test("runner details mean the same: a concurrent test's own expect keys its snapshot, inline snapshots after .resolves, vi.setConfig's hook order, expect.poll under fake timers, a test's own error listener", () => {
    const pick = (runner: Record<string, string>) => outcomesOfFile(runner, "runDetails.test.ts");
    const expected = {
      "concurrent > one": "passed",
      "concurrent > two": "passed",
      "an inline snapshot after .resolves and .rejects matches": "passed",
      "hooks as a list > runs": "passed",
      "the afterAll hooks ran in declaration order": "passed",
      "expect.poll moves fake timers on": "passed",
      "an unhandled rejection the test listens for is its own": "passed",
      "import.meta.dirname": "passed",
      "context.annotate resolves with the annotation and keeps it on the test": "passed",
    };
    expect(pick(result.vitest)).toEqual(expected);
    expect(pick(result.turnlens)).toEqual(expected);
  });

  test("__mocks__ folders, a mocked module's namespace, vi.resetModules and a vi.fn()'s this mean the same under both runners", () => {
    const pick = (runner: Record<string, string>) => outcomesOfFile(runner, "mockFolders.test.ts");
    const expected = {
      "vi.mock(path) without a factory gives the __mocks__ file next to the module": "passed",
      "a namespace import of a mocked module has the factory's names and no others": "passed",
      "vi.importMock gives the __mocks__ file too": "passed",
      "vi.resetModules returns vi": "passed",
      "this in a plain call of a vi.fn() is undefined, and the receiver in a method call": "passed",
    };
    expect(pick(result.vitest)).toEqual(expected);
    expect(pick(result.turnlens)).toEqual(expected);
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
