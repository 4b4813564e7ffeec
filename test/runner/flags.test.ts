// Vitest's flags on `turnlens test`, one test per row of issue 16's table and per flag: -t with a
// name copied from the output, --passWithNoTests, --testTimeout (0: none), --maxWorkers (and its cap), --bail,
// --silent, Ctrl-C, --help. Each runs the command as a child process on a fresh project.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { FLAGS } from "../../core/runner/testFlags.ts";
import { TREE_VARIABLE, withTag } from "../../core/execution/processTree.ts";
import { cliTest, cliTests, inProject } from "./cliTable.ts";
import { freshTag, ROOT, SLOW, taggedCommands, until } from "./harness.ts";

const BIN = join(ROOT, "bin", "turnlens.mjs");

const MATH = `import { describe, expect, test } from "bun:test";
describe("math", () => {
  test("adds", () => expect(1 + 1).toBe(2));
  test("subtracts", () => expect(2 - 1).toBe(1));
});
`;

/** A test that waits `ms`, with no timeout of its own. */
const waits = (ms: number) => `import { test } from "bun:test";
test("waits", async () => {
  await new Promise((resolve) => setTimeout(resolve, ${ms}));
});
`;

describe("-t, --testNamePattern: the full name, joined by › or by spaces", () => {
  cliTests([
    {
      name: "a name copied from the output (math › adds) selects that test",
      files: { "math.test.ts": MATH },
      args: ["-t", "math › adds"],
      code: 0,
      lastLine: "1 passed, 0 failed, 1 skipped",
    },
    {
      name: "the same name joined by spaces (math adds), under --testNamePattern, selects it too",
      files: { "math.test.ts": MATH },
      args: ["--testNamePattern", "^math adds$"],
      code: 0,
      lastLine: "1 passed, 0 failed, 1 skipped",
    },
  ]);
});

describe("--passWithNoTests", () => {
  cliTests([
    {
      name: "-t matching nothing exits 1 and says what to add; with --passWithNoTests it exits 0",
      files: { "math.test.ts": MATH },
      steps: [
        { args: ["-t", "divides"], code: 1, stdout: { has: ["no test ran: no test name matched /divides/; --passWithNoTests exits 0 then"] } },
        {
          args: ["-t", "divides", "--passWithNoTests"],
          code: 0,
          stdout: { has: ["no test ran: no test name matched /divides/ (--passWithNoTests: exit 0)"] },
          lastLine: "0 passed, 0 failed, 2 skipped",
        },
      ],
    },
    {
      name: "an empty shard exits 1, and 0 with --passWithNoTests",
      files: { "math.test.ts": MATH },
      steps: [
        { args: ["--shard", "2/2"], code: 1, stdout: { has: ["no test ran: no test files found in shard 2/2"] } },
        { args: ["--shard", "2/2", "--passWithNoTests"], code: 0 },
      ],
    },
    {
      name: "a failing test still exits 1 under --passWithNoTests",
      files: { "fails.test.ts": 'import { expect, test } from "bun:test";\ntest("fails", () => expect(1).toBe(2));\n' },
      args: ["--passWithNoTests"],
      code: 1,
    },
  ]);
});

describe("--testTimeout", () => {
  cliTests([
    {
      name: "--testTimeout 300ms times out a test that waits a second, and --timeout is the same flag",
      files: { "waits.test.ts": waits(1000) },
      steps: ["--testTimeout", "--timeout"].map((flag) => ({ args: [flag, "300ms"], code: 1, stdout: { has: ['test "waits" timed out after 300ms'] } })),
    },
    {
      name: "--testTimeout 0 disables the timeout, over a config file's shorter one",
      files: { "waits.test.ts": waits(1000), "turnlens.config.json": JSON.stringify({ testTimeout: 300 }) },
      steps: [
        { args: [], code: 1, stdout: { has: ['test "waits" timed out after 300ms'] } },
        { args: ["--testTimeout", "0"], code: 0, lastLine: "1 passed, 0 failed" },
      ],
    },
    {
      name: "a duration that is not one is a usage error naming the flag",
      args: ["--testTimeout", "soon"],
      code: 2,
      stderr: '--testTimeout needs a duration such as 10s (0: no timeout): "soon" is not a number followed by ms, s or m\n',
    },
  ]);
});

describe("--maxWorkers", () => {
  const pid = (name: string) => `import { test } from "bun:test";
test("${name}", async () => {
  console.log("pid " + process.pid);
  await new Promise((resolve) => setTimeout(resolve, 1200));
});
`;

  /** The distinct worker pids the tests printed. */
  const pidsOf = (stdout: string) => new Set([...stdout.matchAll(/pid (\d+)/g)].map((match) => match[1]));
  const cores = availableParallelism();
  const cap = Math.max(2 * cores, 4);

  cliTests([
    {
      name: "--maxWorkers 1 runs every file in one worker, though each file is slow enough to start more",
      files: { "a.test.ts": pid("a"), "b.test.ts": pid("b"), "c.test.ts": pid("c") },
      args: ["--maxWorkers", "1"],
      code: 0,
      check: (result) => expect(pidsOf(result.stdout).size).toBe(1),
    },
    {
      name: "--maxWorkers above twice the cores (at least 4) is capped there, with a note on stderr saying so",
      // More slow files than the cap: without it, each would get a worker of its own.
      files: Object.fromEntries(Array.from({ length: cap + 4 }, (_, n) => [`f${n}.test.ts`, pid(`f${n}`)])),
      args: ["--maxWorkers", "1000"],
      code: 0,
      stderr: `--maxWorkers 1000 is capped at ${cap} workers: twice the ${cores} core${cores === 1 ? "" : "s"}, at least 4\n`,
      lastLine: `${cap + 4} passed, 0 failed`,
      check: (result) => expect(pidsOf(result.stdout).size).toBeLessThanOrEqual(cap),
    },
    {
      name: "--maxWorkers takes a share of the cores, and refuses 0",
      files: { "math.test.ts": MATH },
      steps: [
        {
          args: ["--maxWorkers", "0"],
          cwd: ROOT,
          code: 2,
          stderr: "--maxWorkers needs a number of workers from 1, or a share of the cores such as 50%: 0 workers would run no test\n",
        },
        { args: ["--maxWorkers", "50%"], code: 0, lastLine: "2 passed, 0 failed" },
      ],
    },
  ]);
});

describe("--bail", () => {
  const fails = (name: string) => `import { expect, test } from "bun:test";
test("${name} fails", () => expect(1).toBe(2));
test("${name} after", async () => {
  await new Promise((resolve) => setTimeout(resolve, 200));
});
`;
  const threeFailing = { "a.test.ts": fails("a"), "b.test.ts": fails("b"), "c.test.ts": fails("c") };

  cliTests([
    {
      name: "--bail stops at the first failed test: it is reported, the rest is not run, and the exit is 1",
      files: threeFailing,
      args: ["--bail", "--maxWorkers", "1"],
      code: 1,
      stdout: { has: ["FAIL a fails", "bailed out after 1 failure (--bail 1)"], lacks: ["FAIL b fails"] },
      lastLine: "0 passed, 1 failed",
    },
    {
      name: "--bail 2 lets the second failure happen, then stops",
      files: threeFailing,
      args: ["--bail", "2", "--maxWorkers", "1"],
      code: 1,
      stdout: { has: ["FAIL b fails", "bailed out after 2 failures (--bail 2)"], lacks: ["FAIL c fails"] },
    },
  ]);
});

cliTest({
  name: "--silent drops what the tests print and keeps the report",
  files: { "noisy.test.ts": 'import { test } from "bun:test";\ntest("noisy", () => console.log("NOISE FROM THE TEST"));\n' },
  steps: [
    { args: [], code: 0, stdout: { has: ["NOISE FROM THE TEST"] } },
    { args: ["--silent"], code: 0, stdout: { lacks: ["NOISE FROM THE TEST"] }, lastLine: "1 passed, 0 failed" },
  ],
});

test(
  "Ctrl-C stops the run: it says it was interrupted, reports what finished, exits 130 and leaves no process",
  () =>
    inProject(
      {
        files: {
          "math.test.ts": MATH,
          "slow.test.ts": `import { test } from "bun:test";
test("quick", () => {});
test("slow", async () => {
  console.log("slow started");
  await new Promise((resolve) => setTimeout(resolve, 600000));
}, 1200000);
`,
        },
      },
      async (dir) => {
        const tag = freshTag();
        // A process group of its own, signalled whole, as a terminal's Ctrl-C is.
        const child = spawn(process.execPath, [BIN, "test", "--maxWorkers", "1"], {
          cwd: dir,
          detached: true,
          env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, [TREE_VARIABLE]: withTag(process.env[TREE_VARIABLE], tag) },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
        await until(() => stdout.includes("slow started"));
        process.kill(-child.pid!, "SIGINT");
        const code = await exited;
        expect(code).toBe(130);
        const lines = stdout.split("\n").filter((line) => line !== "");
        expect(lines.slice(-2)).toEqual(["interrupted (Ctrl-C): 1 of 2 files finished", "3 passed, 0 failed"]);
        expect(lines).toContain("✓ math.test.ts (2 tests)");
        expect(lines).toContain("✓ slow.test.ts (1 test; stopped before its end)");
        expect(stdout).not.toContain("failed)");
        expect(stdout).not.toContain("process.kill");
        await until(() => taggedCommands(tag).length === 0);
        expect(taggedCommands(tag)).toEqual([]);
      },
    ),
  SLOW,
);

cliTests([
  { name: "--help lists every flag", command: "test", args: ["--help"], code: 0, stdout: { has: [...FLAGS] } },
  {
    name: "a misspelt flag is refused with the nearest one",
    args: ["--passWithNoTest"],
    code: 2,
    stderr: { startsWith: "unknown option: --passWithNoTest (did you mean --passWithNoTests?)\n" },
  },
]);
