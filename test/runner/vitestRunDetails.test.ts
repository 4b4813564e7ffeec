// A vitest file's runner details as under Vitest: `context.expect` is the test's own (its snapshots
// keyed by it while other tests run), inline snapshots after `.resolves`, `vi.setConfig`'s
// `sequence.hooks`, `expect.poll` under fake timers, a test's own error listeners, and promises
// without the runner's marks.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "bun:test";
import { SLOW, tempProject, turnlens } from "./harness.ts";

interface JsonTest {
  path: string[];
  status: string;
  error?: { message: string };
}
interface JsonReport {
  files: Array<{ file: string; error?: { message: string }; tests: JsonTest[] }>;
}

/** Runs turnlens test on `files` with the JSON reporter; `read` names files to read back after the run. */
async function run(files: Record<string, string>, read: string[] = []): Promise<{ report: JsonReport; texts: string[] }> {
  const project = tempProject(files);
  try {
    const result = await turnlens([...Object.keys(files).filter((name) => name.endsWith(".test.ts")), "--reporter", "json"], project.dir);
    const texts = read.map((name) => readFileSync(join(project.dir, name), "utf8"));
    return { report: JSON.parse(result.stdout) as JsonReport, texts };
  } finally {
    project.remove();
  }
}

const outcomes = (report: JsonReport) => report.files[0]!.tests.map((t) => [t.path.join(" > "), t.status, t.error?.message.split("\n")[0]]);

describe("a vitest file's runner details", () => {
  test(
    "a concurrent test's context.expect keys its snapshot by that test, though another test started since",
    async () => {
      const file = `import { test } from "vitest";
const first = Promise.withResolvers<void>();
const second = Promise.withResolvers<void>();
test.concurrent("one", async ({ expect }) => {
  first.resolve();
  await second.promise;
  expect("value of one").toMatchSnapshot();
});
test.concurrent("two", async ({ expect }) => {
  await first.promise;
  second.resolve();
  await new Promise((r) => setTimeout(r, 10));
  expect("value of two").toMatchSnapshot();
});
`;
      const { report, texts } = await run({ "keys.test.ts": file }, ["__snapshots__/keys.test.ts.snap"]);
      expect(outcomes(report)).toEqual([
        ["one", "passed", undefined],
        ["two", "passed", undefined],
      ]);
      expect(texts[0]).toContain('exports[`one 1`] = `"value of one"`;');
      expect(texts[0]).toContain('exports[`two 1`] = `"value of two"`;');
    },
    SLOW,
  );

  test(
    "an inline snapshot after await expect(promise).resolves or .rejects is written at its call and then matches",
    async () => {
      const file = `import { expect, test } from "vitest";
test("resolved", async () => {
  await expect(Promise.resolve("foo")).resolves.toMatchInlineSnapshot();
});
test("rejected", async () => {
  await expect(Promise.reject(new Error("bar"))).rejects.toThrowErrorMatchingInlineSnapshot();
});
`;
      const { report, texts } = await run({ "inline.test.ts": file }, ["inline.test.ts"]);
      expect(outcomes(report)).toEqual([
        ["resolved", "passed", undefined],
        ["rejected", "passed", undefined],
      ]);
      expect(texts[0]).toContain('.resolves.toMatchInlineSnapshot(`"foo"`);');
      expect(texts[0]).toContain(".rejects.toThrowErrorMatchingInlineSnapshot(`[Error: bar]`);");
    },
    SLOW,
  );

  test(
    "vi.setConfig({ sequence: { hooks: 'list' } }) runs afterAll hooks in the order they were declared",
    async () => {
      const file = `import { afterAll, describe, expect, test, vi } from "vitest";
vi.setConfig({ sequence: { hooks: "list" } });
const order: number[] = [];
describe("hooks", () => {
  afterAll(() => { order.push(1); });
  afterAll(() => { order.push(2); });
  test("runs", () => {});
});
test("the afterAll hooks ran in declaration order", () => {
  expect(order).toEqual([1, 2]);
});
`;
      const { report } = await run({ "hooks.test.ts": file });
      expect(outcomes(report)).toEqual([
        ["hooks > runs", "passed", undefined],
        ["the afterAll hooks ran in declaration order", "passed", undefined],
      ]);
    },
    SLOW,
  );

  test(
    "expect.poll moves fake timers on by its interval, context.expect has the snapshot state, and a test's promise has no symbols of the runner",
    async () => {
      const file = `import { expect, test, vi } from "vitest";
test("poll under fake timers", async () => {
  vi.useFakeTimers();
  let done = false;
  setTimeout(() => { done = true; }, 50);
  await expect.poll(() => done, { interval: 100 }).toBe(true);
  vi.useRealTimers();
});
test("snapshot state", ({ expect: own }) => {
  expect(own.getState().snapshotState).toBeDefined();
});
test("a promise's own symbols", async () => {
  const promise = Promise.resolve(1);
  await promise;
  expect(Object.getOwnPropertySymbols(promise)).toEqual([]);
});
`;
      const { report } = await run({ "details.test.ts": file });
      expect(outcomes(report)).toEqual([
        ["poll under fake timers", "passed", undefined],
        ["snapshot state", "passed", undefined],
        ["a promise's own symbols", "passed", undefined],
      ]);
    },
    SLOW,
  );

  test(
    "an unhandled rejection the test listens for itself is its own to handle; one it does not listen for still fails it",
    async () => {
      const file = `import { expect, test } from "vitest";
test("listens", async () => {
  let seen = 0;
  const heard = Promise.withResolvers<void>();
  const listener = () => { seen++; heard.resolve(); };
  process.on("unhandledRejection", listener);
  Promise.reject(new Error("handled here"));
  await heard.promise;
  process.off("unhandledRejection", listener);
  expect(seen).toBe(1);
});
test("does not listen", async () => {
  Promise.reject(new Error("nobody listens"));
  await new Promise((r) => setTimeout(r, 20));
});
`;
      const { report } = await run({ "strays.test.ts": file });
      expect(outcomes(report)).toEqual([
        ["listens", "passed", undefined],
        ["does not listen", "failed", "nobody listens"],
      ]);
    },
    SLOW,
  );
});
