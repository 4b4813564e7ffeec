// Vitest's flags on `turnlens test`, one test per row of issue 16's table and per flag: -t with a
// name copied from the output, --passWithNoTests, --testTimeout (0: none), --maxWorkers (and its cap), --bail,
// --silent, Ctrl-C, --help. Each runs the command as a child process on a fresh project.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { FLAGS } from "../../core/runner/testFlags.ts";
import { TREE_VARIABLE, withTag } from "../../core/execution/processTree.ts";
import { freshTag, ROOT, SLOW, taggedCommands, tempProject, turnlens, turnlensCommand, until } from "./harness.ts";

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

async function inProject<T>(files: Record<string, string>, body: (dir: string) => Promise<T>): Promise<T> {
  const project = tempProject(files);
  try {
    return await body(project.dir);
  } finally {
    project.remove();
  }
}

describe("-t, --testNamePattern: the full name, joined by › or by spaces", () => {
  test(
    "a name copied from the output (math › adds) selects that test",
    () =>
      inProject({ "math.test.ts": MATH }, async (dir) => {
        const result = await turnlens(["-t", "math › adds"], dir);
        expect(result.code).toBe(0);
        expect(result.lastLine).toBe("1 passed, 0 failed, 1 skipped");
      }),
    SLOW,
  );

  test(
    "the same name joined by spaces (math adds), under --testNamePattern, selects it too",
    () =>
      inProject({ "math.test.ts": MATH }, async (dir) => {
        const result = await turnlens(["--testNamePattern", "^math adds$"], dir);
        expect(result.code).toBe(0);
        expect(result.lastLine).toBe("1 passed, 0 failed, 1 skipped");
      }),
    SLOW,
  );
});

describe("--passWithNoTests", () => {
  test(
    "-t matching nothing exits 1 and says what to add; with --passWithNoTests it exits 0",
    () =>
      inProject({ "math.test.ts": MATH }, async (dir) => {
        const strict = await turnlens(["-t", "divides"], dir);
        expect(strict.code).toBe(1);
        expect(strict.stdout).toContain("no test ran: no test name matched /divides/; --passWithNoTests exits 0 then");
        const allowed = await turnlens(["-t", "divides", "--passWithNoTests"], dir);
        expect(allowed.code).toBe(0);
        expect(allowed.stdout).toContain("no test ran: no test name matched /divides/ (--passWithNoTests: exit 0)");
        expect(allowed.lastLine).toBe("0 passed, 0 failed, 2 skipped");
      }),
    SLOW,
  );

  test(
    "an empty shard exits 1, and 0 with --passWithNoTests",
    () =>
      inProject({ "math.test.ts": MATH }, async (dir) => {
        const strict = await turnlens(["--shard", "2/2"], dir);
        expect(strict.code).toBe(1);
        expect(strict.stdout).toContain("no test ran: no test files found in shard 2/2");
        const allowed = await turnlens(["--shard", "2/2", "--passWithNoTests"], dir);
        expect(allowed.code).toBe(0);
      }),
    SLOW,
  );

  test(
    "a failing test still exits 1 under --passWithNoTests",
    () =>
      inProject({ "fails.test.ts": 'import { expect, test } from "bun:test";\ntest("fails", () => expect(1).toBe(2));\n' }, async (dir) => {
        expect((await turnlens(["--passWithNoTests"], dir)).code).toBe(1);
      }),
    SLOW,
  );
});

describe("--testTimeout", () => {
  test(
    "--testTimeout 300ms times out a test that waits a second, and --timeout is the same flag",
    () =>
      inProject({ "waits.test.ts": waits(1000) }, async (dir) => {
        for (const flag of ["--testTimeout", "--timeout"]) {
          const result = await turnlens([flag, "300ms"], dir);
          expect(result.code).toBe(1);
          expect(result.stdout).toContain('test "waits" timed out after 300ms');
        }
      }),
    SLOW,
  );

  test(
    "--testTimeout 0 disables the timeout, over a config file's shorter one",
    () =>
      inProject({ "waits.test.ts": waits(1000), "turnlens.config.json": JSON.stringify({ testTimeout: 300 }) }, async (dir) => {
        const fromFile = await turnlens([], dir);
        expect(fromFile.stdout).toContain('test "waits" timed out after 300ms');
        const disabled = await turnlens(["--testTimeout", "0"], dir);
        expect(disabled.code).toBe(0);
        expect(disabled.lastLine).toBe("1 passed, 0 failed");
      }),
    SLOW,
  );

  test(
    "a duration that is not one is a usage error naming the flag",
    async () => {
      const result = await turnlens(["--testTimeout", "soon"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe("--testTimeout needs a duration such as 10s (0: no timeout)\n");
    },
    SLOW,
  );
});

describe("--maxWorkers", () => {
  const pid = (name: string) => `import { test } from "bun:test";
test("${name}", async () => {
  console.log("pid " + process.pid);
  await new Promise((resolve) => setTimeout(resolve, 1200));
});
`;

  test(
    "--maxWorkers 1 runs every file in one worker, though each file is slow enough to start more",
    () =>
      inProject({ "a.test.ts": pid("a"), "b.test.ts": pid("b"), "c.test.ts": pid("c") }, async (dir) => {
        const result = await turnlens(["--maxWorkers", "1"], dir);
        expect(result.code).toBe(0);
        const pids = new Set([...result.stdout.matchAll(/pid (\d+)/g)].map((match) => match[1]));
        expect(pids.size).toBe(1);
      }),
    SLOW,
  );

  test(
    "--maxWorkers above twice the cores (at least 4) is capped there, with a note on stderr saying so",
    async () => {
      const cores = availableParallelism();
      const cap = Math.max(2 * cores, 4);
      // More slow files than the cap: without it, each would get a worker of its own.
      const files = Object.fromEntries(Array.from({ length: cap + 4 }, (_, n) => [`f${n}.test.ts`, pid(`f${n}`)]));
      await inProject(files, async (dir) => {
        const result = await turnlens(["--maxWorkers", "1000"], dir);
        const pids = new Set([...result.stdout.matchAll(/pid (\d+)/g)].map((match) => match[1]));
        expect(pids.size).toBeLessThanOrEqual(cap);
        expect(result.stderr).toBe(`--maxWorkers 1000 is capped at ${cap} workers: twice the ${cores} core${cores === 1 ? "" : "s"}, at least 4\n`);
        expect(result.lastLine).toBe(`${cap + 4} passed, 0 failed`);
      });
    },
    SLOW,
  );

  test(
    "--maxWorkers takes a share of the cores, and refuses 0",
    async () => {
      const zero = await turnlens(["--maxWorkers", "0"]);
      expect(zero.code).toBe(2);
      expect(zero.stderr).toBe("--maxWorkers needs a number of workers from 1, or a share of the cores such as 50%\n");
      await inProject({ "math.test.ts": MATH }, async (dir) => {
        expect((await turnlens(["--maxWorkers", "50%"], dir)).lastLine).toBe("2 passed, 0 failed");
      });
    },
    SLOW,
  );
});

describe("--bail", () => {
  const fails = (name: string) => `import { expect, test } from "bun:test";
test("${name} fails", () => expect(1).toBe(2));
test("${name} after", async () => {
  await new Promise((resolve) => setTimeout(resolve, 200));
});
`;

  test(
    "--bail stops at the first failed test: it is reported, the rest is not run, and the exit is 1",
    () =>
      inProject({ "a.test.ts": fails("a"), "b.test.ts": fails("b"), "c.test.ts": fails("c") }, async (dir) => {
        const result = await turnlens(["--bail", "--maxWorkers", "1"], dir);
        expect(result.code).toBe(1);
        expect(result.stdout).toContain("FAIL a fails");
        expect(result.stdout).not.toContain("FAIL b fails");
        expect(result.stdout).toContain("bailed out after 1 failure (--bail 1)");
        expect(result.lastLine).toBe("0 passed, 1 failed");
      }),
    SLOW,
  );

  test(
    "--bail 2 lets the second failure happen, then stops",
    () =>
      inProject({ "a.test.ts": fails("a"), "b.test.ts": fails("b"), "c.test.ts": fails("c") }, async (dir) => {
        const result = await turnlens(["--bail", "2", "--maxWorkers", "1"], dir);
        expect(result.stdout).toContain("FAIL b fails");
        expect(result.stdout).not.toContain("FAIL c fails");
        expect(result.stdout).toContain("bailed out after 2 failures (--bail 2)");
      }),
    SLOW,
  );
});

test(
  "--silent drops what the tests print and keeps the report",
  () =>
    inProject({ "noisy.test.ts": 'import { test } from "bun:test";\ntest("noisy", () => console.log("NOISE FROM THE TEST"));\n' }, async (dir) => {
      expect((await turnlens([], dir)).stdout).toContain("NOISE FROM THE TEST");
      const silent = await turnlens(["--silent"], dir);
      expect(silent.stdout).not.toContain("NOISE FROM THE TEST");
      expect(silent.lastLine).toBe("1 passed, 0 failed");
    }),
  SLOW,
);

test(
  "Ctrl-C stops the run: it says it was interrupted, reports what finished, exits 130 and leaves no process",
  () =>
    inProject(
      {
        "math.test.ts": MATH,
        "slow.test.ts": `import { test } from "bun:test";
test("quick", () => {});
test("slow", async () => {
  console.log("slow started");
  await new Promise((resolve) => setTimeout(resolve, 600000));
}, 1200000);
`,
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

test(
  "--help lists every flag",
  async () => {
    const result = await turnlensCommand(["test", "--help"]);
    expect(result.code).toBe(0);
    for (const flag of FLAGS) {
      expect(result.stdout).toContain(flag);
    }
  },
  SLOW,
);

test(
  "a misspelt flag is refused with the nearest one",
  async () => {
    const result = await turnlens(["--passWithNoTest"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe("unknown option: --passWithNoTest (did you mean --passWithNoTests?)");
  },
  SLOW,
);
