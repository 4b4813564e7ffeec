// What `vi`/`jest` add beside Vitest's own behaviour (test/runner/fixtures/vitestParity/spiesAndTimers.test.ts
// holds that): a run under a test's fake timers, a file's changes undone when it ends, bun's
// setSystemTime, and the spyable view of a namespace import.
import { afterEach, describe, expect, test } from "bun:test";
import { testWorkflow } from "agentswf/testing";
import { spyableNamespaceImports } from "../../core/execution/spyableNamespaces.ts";
import { registry } from "../../core/execution/served.ts";
import { setSystemTime } from "../../core/testApi/fakeTimers.ts";
import { endFileTestApi, jest, vi } from "../../core/testApi/viUtils.ts";
import { flow } from "./workflows";

const DAY = 86_400_000;

afterEach(() => {
  endFileTestApi();
});

describe("a test's fake timers", () => {
  test("a run under them still ends: the engine's virtual clock and stall guard keep real timers", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2020-01-01T00:00:00Z"));
    const reminder = flow(async (wf) => {
      const before = wf.now().getTime();
      await wf.sleep("2d", { label: "remind" });
      return { waited: wf.now().getTime() - before };
    });
    const run = await testWorkflow(reminder);
    expect(run.value).toEqual({ waited: 2 * DAY });
    expect(vi.isFakeTimers()).toBe(true);
  });

  test("jest's fake timers are the same ones", () => {
    jest.useFakeTimers();
    const fired: string[] = [];
    setTimeout(() => fired.push("due"), 1000);
    jest.advanceTimersByTime(1000);
    expect(fired).toEqual(["due"]);
    expect(vi.isFakeTimers()).toBe(true);
  });
});

describe("the end of a file", () => {
  test("puts back real timers, the real Date, stubbed globals and variables, spies and replaced properties", () => {
    const realSetTimeout = globalThis.setTimeout;
    const RealDate = Date;
    const counter = { next: (n: number) => n + 1 };
    const original = counter.next;
    const settings = { mode: "real" };
    vi.useFakeTimers();
    vi.setSystemTime(0);
    vi.stubGlobal("spiesEndOfFile", 1);
    vi.stubEnv("SPIES_END_OF_FILE", "stubbed");
    vi.spyOn(counter, "next");
    jest.replaceProperty(settings, "mode", "replaced");
    expect([globalThis.setTimeout === realSetTimeout, Date === RealDate, counter.next === original, settings.mode]).toEqual([false, false, false, "replaced"]);
    endFileTestApi();
    expect(globalThis.setTimeout).toBe(realSetTimeout);
    expect(Date).toBe(RealDate);
    expect(vi.isFakeTimers()).toBe(false);
    expect("spiesEndOfFile" in globalThis).toBe(false);
    expect(process.env.SPIES_END_OF_FILE).toBeUndefined();
    expect(counter.next).toBe(original);
    expect(settings.mode).toBe("real");
  });
});

describe("bun's setSystemTime", () => {
  test("sets the date with real timers, and with no time gives the real date back", () => {
    setSystemTime(new Date("2020-06-01T00:00:00Z"));
    expect(new Date().toISOString()).toBe("2020-06-01T00:00:00.000Z");
    expect(vi.isFakeTimers()).toBe(false);
    setSystemTime();
    expect(new Date().getFullYear()).toBeGreaterThan(2023);
    expect(vi.getMockedSystemTime()).toBe(null);
  });

  test("moves the fake clock's date when the timers are fake, and keeps them fake when reset", () => {
    jest.useFakeTimers();
    setSystemTime(new Date("2020-06-01T00:00:00Z"));
    expect(Date.now()).toBe(Date.parse("2020-06-01T00:00:00Z"));
    setSystemTime();
    expect(new Date().getFullYear()).toBeGreaterThan(2023);
    expect(vi.isFakeTimers()).toBe(true);
  });
});

describe("a namespace import a file spies on", () => {
  test("is read through the spyable view, on the import's own line", () => {
    const text = `import * as api from "./api.ts";\nimport * as other from "./other.ts";\nimport * as fs from "node:fs";\nvi.spyOn(api, "load");\nspyOn(fs, "readFileSync");\n`;
    expect(spyableNamespaceImports(text).split("\n")).toEqual([
      `import * as __turnlensNamespace_api from "./api.ts"; const api = (globalThis[Symbol.for("turnlens.modules")]?.["turnlens:namespaces"]?.spyable ?? ((n) => n))(__turnlensNamespace_api);`,
      `import * as other from "./other.ts";`,
      `import * as fs from "node:fs";`,
      `vi.spyOn(api, "load");`,
      `spyOn(fs, "readFileSync");`,
      "",
    ]);
  });

  test("a file that spies on no namespace is left as it is", () => {
    const text = `import * as api from "./api.ts";\napi.load();\n`;
    expect(spyableNamespaceImports(text)).toBe(text);
  });

  test("the view lets a spy replace an export and mockRestore put it back, and reads every other export live", () => {
    spyableNamespaceImports(`import * as ns from "./a.ts"; spyOn(ns, "x");`);
    const spyable = (registry()["turnlens:namespaces"] as { spyable: (namespace: object) => Record<string, unknown> }).spyable;
    let count = 1;
    const namespace = Object.freeze(
      Object.defineProperties(Object.create(null), {
        greet: { get: () => (name: string) => `hello ${name}`, enumerable: true },
        count: { get: () => count, enumerable: true },
      }),
    ) as object;
    const view = spyable(namespace) as { greet: (name: string) => string; count: number };
    expect(spyable(namespace)).toBe(view);
    expect(Object.prototype.toString.call(view)).toBe("[object Module]");
    expect(Object.keys(view)).toEqual(["greet", "count"]);
    const spy = vi.spyOn(view, "greet").mockReturnValue("mocked");
    expect(view.greet("Ada")).toBe("mocked");
    expect(spy).toHaveBeenCalledWith("Ada");
    count = 2;
    expect(view.count).toBe(2);
    spy.mockRestore();
    expect(view.greet("Ada")).toBe("hello Ada");
  });
});
