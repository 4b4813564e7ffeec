// turnlens.config.ts / .json: found from the current folder up, loaded (a script through esbuild,
// `turnlens/config` served to it), every key checked (an unknown one refused with the nearest),
// command-line flags over it, the package.json key still read, two configs in one folder refused.
// Each runs `turnlens test` as a child process on a fresh project.
import { describe } from "bun:test";
import { cliTests, DIR } from "./cliTable.ts";

const PASSES = 'import { test } from "bun:test";\ntest("passes", () => {});\n';
const SLOW_TEST = 'import { test } from "bun:test";\ntest("waits", async () => {\n  await new Promise((resolve) => setTimeout(resolve, 1000));\n});\n';
const config = (body: string) => `import { defineConfig } from "turnlens/config";\n\nexport default defineConfig(${body});\n`;

describe("the config file's forms", () => {
  cliTests([
    {
      name: "turnlens.config.ts with defineConfig: include and exclude choose the files, testTimeout applies",
      files: {
        "turnlens.config.ts": config('{ include: ["tests"], exclude: ["tests/skipped/**"], testTimeout: 300 }'),
        "tests/waits.test.ts": SLOW_TEST,
        "tests/skipped/never.test.ts": PASSES,
        "outside.test.ts": PASSES,
      },
      args: [],
      code: 1,
      stdout: { has: ["✗ tests/waits.test.ts (1 of 1 failed)", 'test "waits" timed out after 300ms'], lacks: ["never.test.ts", "outside.test.ts"] },
    },
    {
      name: "turnlens.config.json is read the same way, from a subfolder of the project (its package.json's folder) too",
      files: {
        "package.json": '{ "name": "project", "private": true }\n',
        "turnlens.config.json": JSON.stringify({ include: ["tests"] }),
        "tests/one.test.ts": PASSES,
        "outside.test.ts": PASSES,
      },
      steps: [
        { args: [], code: 0, stdout: { has: ["✓ tests/one.test.ts (1 test)"], lacks: ["outside.test.ts"] } },
        { args: [`${DIR}/tests`], cwd: "tests", code: 0, lastLine: "1 passed, 0 failed" },
      ],
    },
    {
      name: "turnlens.config.mjs, a plain module exporting an object, and a config importing a file of its own",
      files: {
        "turnlens.config.mjs": 'import { folders } from "./folders.mjs";\nexport default { include: folders };\n',
        "folders.mjs": 'export const folders = ["tests"];\n',
        "tests/one.test.ts": PASSES,
        "outside.test.ts": PASSES,
      },
      args: [],
      code: 0,
      lastLine: "1 passed, 0 failed",
    },
    {
      name: "the package.json key keeps working",
      files: { "package.json": JSON.stringify({ name: "p", turnlens: { include: ["tests"] } }), "tests/one.test.ts": PASSES, "outside.test.ts": PASSES },
      args: [],
      code: 0,
      lastLine: "1 passed, 0 failed",
    },
    {
      name: "setupFiles run in the worker before each test file, and their hooks apply to its tests",
      files: {
        "turnlens.config.ts": config('{ setupFiles: ["./setup.ts"] }'),
        "setup.ts":
          'import { beforeEach } from "bun:test";\n(globalThis as Record<string, unknown>).setUp = 0;\nbeforeEach(() => {\n  (globalThis as Record<string, number>).setUp++;\n});\n',
        "one.test.ts":
          'import { expect, test } from "bun:test";\ntest("first", () => expect((globalThis as Record<string, unknown>).setUp).toBe(1));\ntest("second", () => expect((globalThis as Record<string, unknown>).setUp).toBe(2));\n',
        "two.test.ts": 'import { expect, test } from "bun:test";\ntest("fresh count", () => expect((globalThis as Record<string, unknown>).setUp).toBe(1));\n',
      },
      args: ["--maxWorkers", "1"],
      code: 0,
      lastLine: "3 passed, 0 failed",
    },
  ]);
});

describe("refusals", () => {
  cliTests([
    {
      name: "an unknown key is refused by name, with the nearest one and the file, and exits 2",
      files: { "turnlens.config.ts": config("{ testTimout: 1000 } as never"), "one.test.ts": PASSES },
      args: [],
      code: 2,
      stderr: 'turnlens.config.ts takes no option "testTimout"; did you mean "testTimeout"?\n',
    },
    {
      name: "a value of the wrong type names the key and what it must be",
      files: { "turnlens.config.json": JSON.stringify({ maxWorkers: "many" }), "one.test.ts": PASSES },
      args: [],
      code: 2,
      stderr: 'turnlens.config.json: "maxWorkers" must be a whole number of workers from 1, or a share of the cores such as "50%", not "many"\n',
    },
    {
      name: "a config file beside a package.json turnlens key is refused, naming both",
      files: { "turnlens.config.json": "{}", "package.json": JSON.stringify({ turnlens: {} }), "one.test.ts": PASSES },
      args: [],
      code: 2,
      stderr: `turnlens.config.json and package.json's "turnlens" key both configure Turnlens in ${DIR}; keep one\n`,
    },
    {
      name: "a config that does not compile names the file, line and column",
      files: { "turnlens.config.ts": "export default {\n  include: [\n", "one.test.ts": PASSES },
      args: [],
      code: 2,
      stderr: { matches: /^turnlens\.config\.ts:3:1: / },
    },
  ]);
});

describe("flags win over the file", () => {
  cliTests([
    {
      name: "--testTimeout, -t, --passWithNoTests and paths override the config's values",
      files: {
        "turnlens.config.ts": config('{ testTimeout: 300, testNamePattern: "nothing", include: ["none"] }'),
        "waits.test.ts": SLOW_TEST,
      },
      steps: [
        { args: ["waits.test.ts"], code: 1, stdout: { has: ["no test name matched /nothing/"] } },
        { args: ["waits.test.ts", "-t", "waits", "--testTimeout", "5s"], code: 0, lastLine: "1 passed, 0 failed" },
      ],
    },
    {
      name: "--config names another file, used instead of the one found",
      files: { "turnlens.config.json": JSON.stringify({ testTimeout: 5000 }), "ci.config.json": JSON.stringify({ testTimeout: 300 }), "waits.test.ts": SLOW_TEST },
      args: ["--config", "ci.config.json"],
      code: 1,
      stdout: { has: ['test "waits" timed out after 300ms'] },
    },
  ]);
});
