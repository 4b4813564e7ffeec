// turnlens.config.ts / .json: found from the current folder up, loaded (a script through esbuild,
// `turnlens/config` served to it), every key checked (an unknown one refused with the nearest),
// command-line flags over it, the package.json key still read, two configs in one folder refused.
// Each runs `turnlens test` as a child process on a fresh project.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SLOW, tempProject, turnlens } from "./harness.ts";

const PASSES = 'import { test } from "bun:test";\ntest("passes", () => {});\n';
const SLOW_TEST = 'import { test } from "bun:test";\ntest("waits", async () => {\n  await new Promise((resolve) => setTimeout(resolve, 1000));\n});\n';
const config = (body: string) => `import { defineConfig } from "turnlens/config";\n\nexport default defineConfig(${body});\n`;

async function inProject<T>(files: Record<string, string>, body: (dir: string) => Promise<T>): Promise<T> {
  const project = tempProject(files);
  try {
    return await body(project.dir);
  } finally {
    project.remove();
  }
}

describe("the config file's forms", () => {
  test(
    "turnlens.config.ts with defineConfig: include and exclude choose the files, testTimeout applies",
    () =>
      inProject(
        {
          "turnlens.config.ts": config('{ include: ["tests"], exclude: ["tests/skipped/**"], testTimeout: 300 }'),
          "tests/waits.test.ts": SLOW_TEST,
          "tests/skipped/never.test.ts": PASSES,
          "outside.test.ts": PASSES,
        },
        async (dir) => {
          const result = await turnlens([], dir);
          expect(result.code).toBe(1);
          expect(result.stdout).toContain("✗ tests/waits.test.ts (1 of 1 failed)");
          expect(result.stdout).toContain('test "waits" timed out after 300ms');
          expect(result.stdout).not.toContain("never.test.ts");
          expect(result.stdout).not.toContain("outside.test.ts");
        },
      ),
    SLOW,
  );

  test(
    "turnlens.config.json is read the same way, from a subfolder of the project (its package.json's folder) too",
    () =>
      inProject(
        {
          "package.json": '{ "name": "project", "private": true }\n',
          "turnlens.config.json": JSON.stringify({ include: ["tests"] }),
          "tests/one.test.ts": PASSES,
          "outside.test.ts": PASSES,
        },
        async (dir) => {
          const result = await turnlens([], dir);
          expect(result.stdout).toContain("✓ tests/one.test.ts (1 test)");
          expect(result.stdout).not.toContain("outside.test.ts");
          const fromBelow = await turnlens([join(dir, "tests")], join(dir, "tests"));
          expect(fromBelow.lastLine).toBe("1 passed, 0 failed");
        },
      ),
    SLOW,
  );

  test(
    "turnlens.config.mjs, a plain module exporting an object, and a config importing a file of its own",
    () =>
      inProject(
        {
          "turnlens.config.mjs": 'import { folders } from "./folders.mjs";\nexport default { include: folders };\n',
          "folders.mjs": 'export const folders = ["tests"];\n',
          "tests/one.test.ts": PASSES,
          "outside.test.ts": PASSES,
        },
        async (dir) => {
          const result = await turnlens([], dir);
          expect(result.code).toBe(0);
          expect(result.lastLine).toBe("1 passed, 0 failed");
        },
      ),
    SLOW,
  );

  test(
    "the package.json key keeps working",
    () =>
      inProject(
        { "package.json": JSON.stringify({ name: "p", turnlens: { include: ["tests"] } }), "tests/one.test.ts": PASSES, "outside.test.ts": PASSES },
        async (dir) => {
          expect((await turnlens([], dir)).lastLine).toBe("1 passed, 0 failed");
        },
      ),
    SLOW,
  );

  test(
    "setupFiles run in the worker before each test file, and their hooks apply to its tests",
    () =>
      inProject(
        {
          "turnlens.config.ts": config('{ setupFiles: ["./setup.ts"] }'),
          "setup.ts":
            'import { beforeEach } from "bun:test";\n(globalThis as Record<string, unknown>).setUp = 0;\nbeforeEach(() => {\n  (globalThis as Record<string, number>).setUp++;\n});\n',
          "one.test.ts":
            'import { expect, test } from "bun:test";\ntest("first", () => expect((globalThis as Record<string, unknown>).setUp).toBe(1));\ntest("second", () => expect((globalThis as Record<string, unknown>).setUp).toBe(2));\n',
          "two.test.ts": 'import { expect, test } from "bun:test";\ntest("fresh count", () => expect((globalThis as Record<string, unknown>).setUp).toBe(1));\n',
        },
        async (dir) => {
          const result = await turnlens(["--maxWorkers", "1"], dir);
          expect(result.code).toBe(0);
          expect(result.lastLine).toBe("3 passed, 0 failed");
        },
      ),
    SLOW,
  );
});

describe("refusals", () => {
  test(
    "an unknown key is refused by name, with the nearest one and the file, and exits 2",
    () =>
      inProject({ "turnlens.config.ts": config("{ testTimout: 1000 } as never"), "one.test.ts": PASSES }, async (dir) => {
        const result = await turnlens([], dir);
        expect(result.code).toBe(2);
        expect(result.stderr).toBe('turnlens.config.ts takes no option "testTimout"; did you mean "testTimeout"?\n');
      }),
    SLOW,
  );

  test(
    "a value of the wrong type names the key and what it must be",
    () =>
      inProject({ "turnlens.config.json": JSON.stringify({ maxWorkers: "many" }), "one.test.ts": PASSES }, async (dir) => {
        const result = await turnlens([], dir);
        expect(result.code).toBe(2);
        expect(result.stderr).toBe('turnlens.config.json: "maxWorkers" must be a whole number of workers from 1, or a share of the cores such as "50%", not "many"\n');
      }),
    SLOW,
  );

  test(
    "a config file beside a package.json turnlens key is refused, naming both",
    () =>
      inProject({ "turnlens.config.json": "{}", "package.json": JSON.stringify({ turnlens: {} }), "one.test.ts": PASSES }, async (dir) => {
        const result = await turnlens([], dir);
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(`turnlens.config.json and package.json's "turnlens" key both configure Turnlens in ${dir}; keep one\n`);
      }),
    SLOW,
  );

  test(
    "a config that does not compile names the file, line and column",
    () =>
      inProject({ "turnlens.config.ts": "export default {\n  include: [\n", "one.test.ts": PASSES }, async (dir) => {
        const result = await turnlens([], dir);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/^turnlens\.config\.ts:3:1: /);
      }),
    SLOW,
  );
});

describe("flags win over the file", () => {
  test(
    "--testTimeout, -t, --passWithNoTests and paths override the config's values",
    () =>
      inProject(
        {
          "turnlens.config.ts": config('{ testTimeout: 300, testNamePattern: "nothing", include: ["none"] }'),
          "waits.test.ts": SLOW_TEST,
        },
        async (dir) => {
          const fromFile = await turnlens(["waits.test.ts"], dir);
          expect(fromFile.code).toBe(1);
          expect(fromFile.stdout).toContain("no test name matched /nothing/");
          const flags = await turnlens(["waits.test.ts", "-t", "waits", "--testTimeout", "5s"], dir);
          expect(flags.code).toBe(0);
          expect(flags.lastLine).toBe("1 passed, 0 failed");
        },
      ),
    SLOW,
  );

  test(
    "--config names another file, used instead of the one found",
    () =>
      inProject(
        { "turnlens.config.json": JSON.stringify({ testTimeout: 5000 }), "ci.config.json": JSON.stringify({ testTimeout: 300 }), "waits.test.ts": SLOW_TEST },
        async (dir) => {
          const result = await turnlens(["--config", "ci.config.json"], dir);
          expect(result.stdout).toContain('test "waits" timed out after 300ms');
        },
      ),
    SLOW,
  );
});
