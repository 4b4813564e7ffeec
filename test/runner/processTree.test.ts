// Nothing a run starts outlives it, and a test cannot signal the runner. Each check counts the
// processes that carry the run's tag in their environment (inherited by every descendant, even
// detached or re-parented ones), so a leak anywhere in the tree is seen.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cliTest, reportOf } from "./cliTable.ts";
import { fixture, freshTag, ROOT, SLOW, startTurnlens, taggedCommands, until } from "./harness.ts";

/** The tag of the leaving-things-behind run's processes. */
const TAG = freshTag();

const exited = (child: ReturnType<typeof startTurnlens>) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));

describe("nothing outlives turnlens test", () => {
  for (const signal of ["SIGKILL", "SIGTERM"] as const) {
    test(
      `${signal} to turnlens test mid-loop leaves no process of its tree`,
      async () => {
        const tag = freshTag();
        const cli = startTurnlens([fixture("tree/spawnsAndLoops.test.ts"), "--timeout", "10m"], tag);
        const ended = exited(cli);
        // The worker, its esbuild service and both children of the looping test are up.
        await until(() => taggedCommands(tag).filter((command) => command.startsWith("sleep 30")).length === 2);
        expect(taggedCommands(tag).filter((command) => command.includes("worker.mjs"))).toHaveLength(1);
        cli.kill(signal);
        expect(await ended).toBe(signal === "SIGKILL" ? "SIGKILL" : 143);
        await until(() => taggedCommands(tag).length === 0);
        expect(taggedCommands(tag)).toEqual([]);
      },
      SLOW,
    );
  }

  cliTest({
    name: "what a passed test leaves running (children, detached, re-parented, intervals, threads) is gone when the run ends",
    args: [fixture("tree/leavesThingsBehind.test.ts"), "--reporter", "json"],
    env: { TURNLENS_TREES: TAG },
    code: 0,
    check: async (result) => {
      expect(reportOf(result).passed).toBe(2);
      await until(() => taggedCommands(TAG).length === 0);
      expect(taggedCommands(TAG)).toEqual([]);
    },
  });
});

describe("a test cannot signal its runner", () => {
  cliTest({
    name: "a test that signals its parent or its parent's group fails, and the run goes on to report",
    args: [fixture("tree/killsItsParent.test.ts"), "--reporter", "json"],
    code: 1,
    check: (result) => {
      const tests = reportOf(result).files[0]!.tests;
      expect(tests.map((t) => [t.name, t.status])).toEqual([
        ["sends SIGTERM to its parent", "failed"],
        ["sends SIGKILL to its parent's process group", "failed"],
        ["still runs after", "passed"],
      ]);
      expect(tests[0]!.error?.message).toMatch(
        /^the test called process\.kill\(\d+, "SIGTERM"\), which would signal the turnlens process that runs it; a test must not signal its runner$/,
      );
      expect(tests[0]!.error?.location).toMatchObject({ file: join(ROOT, fixture("tree/killsItsParent.test.ts")), line: 6 });
      expect(tests[1]!.error?.message).toMatch(/^the test called process\.kill\(-\d+, "SIGKILL"\)/);
    },
  });
});
