// `turnlens test --watch` reruns exactly the test files a change affects (through the files each
// one's bundle read), keeps watching files saved by rename, picks up new test files and drops
// deleted ones, and says when a change reruns nothing. Each test drives the command as a child
// process in a fresh project and waits on its output, never on a clock.
import { describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES, ROOT, SLOW, tempProject, withoutAgentOrCi } from "./harness.ts";

/** A workflow whose one agent `key` is asked to say `prompt`; it returns the agent's text. */
function workflowSource(key: string, prompt: string, returns = "outcome.value.text"): string {
  return `import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const REPLY = Type.Object({ text: Type.String() });

export default defineWorkflow({
  name: "${key}",
  description: "asks one agent",
  async run(wf) {
    const agent = await wf.agents.open({ key: "${key}", runtime: "claude" });
    const { outcome } = await agent.run({ prompt: "${prompt}", schema: REPLY });
    return outcome.kind === "answered" ? ${returns} : "none";
  },
});
`;
}

/** A test of `flows/<key>.ts` expecting the agent's scripted "hi" back. */
function testSource(key: string, name = `${key} returns its agent's answer`): string {
  return `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import flow, { REPLY } from "../flows/${key}";

test("${name}", async () => {
  const run = await testWorkflow(flow, { agents: { ${key}: answer(REPLY, { text: "hi" }) } });
  expect(run.value).toBe("hi");
});
`;
}

/** Two workflows, each with its test file, and a file no test imports. */
const TWO_WORKFLOWS: Record<string, string> = {
  "flows/one.ts": workflowSource("one", "say one"),
  "flows/two.ts": workflowSource("two", "say two"),
  "tests/one.test.ts": testSource("one"),
  "tests/two.test.ts": testSource("two"),
  "notes.md": "# notes\n",
};

/** What a change that reruns one passing test file prints: the line naming the change, the file, the count. */
function rerunPassed(changed: string, testFile: string): string[] {
  return [`changed ${changed}: rerunning ${testFile}`, `✓ ${testFile} (1 test)`, "1 passed, 0 failed"];
}

/** `turnlens test --watch` running in `dir`, its stdout gathered as it arrives. */
class Watching {
  stdout = "";
  stderr = "";
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();
  private exited = false;

  /** `args`: the paths (and flags) after `turnlens test --watch`. */
  constructor(dir: string, args: string[] = []) {
    this.child = spawn(process.execPath, [join(ROOT, "bin", "turnlens.mjs"), "test", "--watch", ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, ...withoutAgentOrCi() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout?.on("data", (chunk: Buffer) => {
      this.stdout += chunk.toString();
      for (const waiter of this.waiters) waiter();
    });
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
      for (const waiter of this.waiters) waiter();
    });
    this.child.on("close", () => {
      this.exited = true;
      for (const waiter of this.waiters) waiter();
    });
  }

  /** Where the output is now: what a later wait and read start from. */
  mark(): number {
    return this.stdout.length;
  }

  /**
   * The output's non-empty lines from `from` once its run has ended (a count line such as `1 passed,
   * 0 failed`), once `line` has arrived, or a line starting with `lineStarting`; the timing line (`1 file in 0.4s`) is left out.
   */
  async linesAfter(from: number, until: { runEnded: true } | { line: string } | { lineStarting: string }): Promise<string[]> {
    const lines = () =>
      this.stdout
        .slice(from)
        .split("\n")
        .filter((line) => line.trim() !== "" && !/^\d+ files? in /.test(line));
    const done = () =>
      "line" in until
        ? lines().includes(until.line)
        : "lineStarting" in until
          ? lines().some((line) => line.startsWith(until.lineStarting))
          : lines().some((line) => /^\d+ passed, \d+ failed/.test(line));
    await this.until(done);
    return lines();
  }

  /** Once `done()` holds, checked as output arrives; rejects with the output if the watch exits first. */
  private until(done: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (done()) {
          this.waiters.delete(check);
          resolve();
        } else if (this.exited) {
          this.waiters.delete(check);
          reject(new Error(`turnlens --watch exited early\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`));
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Once the watch has said on stderr, `times` times in all, that it is waiting for changes: idle again after a run. */
  async idle(times: number): Promise<void> {
    await this.until(() => this.stderr.split("watching for changes").length - 1 >= times);
  }

  /** Ctrl-C, and its exit. */
  async stop(): Promise<number | null> {
    if (this.exited) return this.child.exitCode;
    const closed = new Promise<number | null>((resolve) => this.child.once("close", (code) => resolve(code)));
    this.child.kill("SIGINT");
    return closed;
  }
}

/** Runs `body` against `turnlens test --watch [args]` in a fresh project holding `files`; stops it and removes the project after. */
async function watchIn(files: Record<string, string>, body: (watching: Watching, dir: string) => Promise<void>, args: string[] = []): Promise<void> {
  const project = tempProject(files);
  const watching = new Watching(project.dir, args);
  try {
    await body(watching, project.dir);
  } finally {
    await watching.stop();
    project.remove();
  }
}

describe("what a change reruns", () => {
  test(
    "a change to one of two workflows reruns only its test file, and a test file's own change reruns only it",
    () =>
      watchIn(TWO_WORKFLOWS, async (watching, dir) => {
        expect(await watching.linesAfter(0, { runEnded: true })).toEqual(["✓ tests/one.test.ts (1 test)", "✓ tests/two.test.ts (1 test)", "2 passed, 0 failed"]);

        let from = watching.mark();
        writeFileSync(join(dir, "flows/one.ts"), workflowSource("one", "say one, please"));
        expect(await watching.linesAfter(from, { runEnded: true })).toEqual(rerunPassed("flows/one.ts", "tests/one.test.ts"));

        from = watching.mark();
        writeFileSync(join(dir, "tests/two.test.ts"), testSource("two", "two still returns its agent's answer"));
        expect(await watching.linesAfter(from, { runEnded: true })).toEqual(rerunPassed("tests/two.test.ts", "tests/two.test.ts"));
        expect(await watching.stop()).toBe(130);
      }),
    SLOW,
  );

  test(
    "a change to a file no test imports reruns nothing, and says so in one line",
    () =>
      watchIn(TWO_WORKFLOWS, async (watching, dir) => {
        await watching.linesAfter(0, { runEnded: true });
        const from = watching.mark();
        writeFileSync(join(dir, "notes.md"), "# notes\n\nmore\n");
        const noted = "changed notes.md: no test imports it, nothing to rerun";
        expect(await watching.linesAfter(from, { line: noted })).toEqual([noted]);
        // Nothing ran for it: the next change's rerun comes straight after the note.
        writeFileSync(join(dir, "flows/two.ts"), workflowSource("two", "say two, please"));
        expect(await watching.linesAfter(from, { runEnded: true })).toEqual([noted, ...rerunPassed("flows/two.ts", "tests/two.test.ts")]);
      }),
    SLOW,
  );

  test(
    "a test file that did not bundle (its workflow not written yet) reruns when the workflow appears, and the other test file does not",
    () =>
      watchIn(
        {
          "flows/two.ts": workflowSource("two", "say two"),
          "tests/one.test.ts": testSource("one"),
          "tests/two.test.ts": testSource("two"),
        },
        async (watching, dir) => {
          const first = await watching.linesAfter(0, { runEnded: true });
          expect(first.filter((line) => /^[✓✗] /.test(line))).toEqual(["✗ tests/one.test.ts (could not run)", "✓ tests/two.test.ts (1 test)"]);
          const from = watching.mark();
          writeFileSync(join(dir, "flows/one.ts"), workflowSource("one", "say one"));
          expect(await watching.linesAfter(from, { runEnded: true })).toEqual(rerunPassed("flows/one.ts", "tests/one.test.ts"));
        },
      ),
    SLOW,
  );
});

describe("what a change outside the run says", () => {
  test(
    "a new test file outside the paths being watched is named as outside them, with the paths, and is not run",
    () =>
      watchIn(
        TWO_WORKFLOWS,
        async (watching, dir) => {
          expect(await watching.linesAfter(0, { runEnded: true })).toEqual(["✓ tests/one.test.ts (1 test)", "✓ tests/two.test.ts (1 test)", "2 passed, 0 failed"]);
          const from = watching.mark();
          writeFileSync(join(dir, "scratch.test.ts"), testSource("two").replace("../flows/", "./flows/"));
          const said = "changed scratch.test.ts: a test file outside the paths being watched (tests), not running it";
          // Whatever the watch says of it first, it must be that.
          expect(await watching.linesAfter(from, { lineStarting: "changed scratch.test.ts" })).toEqual([said]);
          // Nothing ran for it: the next change's rerun comes straight after the line.
          writeFileSync(join(dir, "flows/one.ts"), workflowSource("one", "say one, please"));
          expect(await watching.linesAfter(from, { runEnded: true })).toEqual([said, ...rerunPassed("flows/one.ts", "tests/one.test.ts")]);
        },
        ["tests"],
      ),
    SLOW,
  );
});

describe("many reruns", () => {
  test(
    "12 reruns in one watch print no MaxListenersExceededWarning: each run's abort listener goes with it",
    () =>
      watchIn(TWO_WORKFLOWS, async (watching, dir) => {
        // Each save waits for the watch to be idle again, and then a little: a file's mtime comes from
        // the kernel's coarse clock, which lags Date.now() by up to a tick, so a save the moment the run
        // ends reads as written during it, and four of those in a row are a rerun loop, stopped.
        const idleAgain = async (times: number) => {
          await watching.idle(times);
          await new Promise((resolve) => setTimeout(resolve, 50));
        };
        await idleAgain(1);
        for (let n = 1; n <= 12; n++) {
          const from = watching.mark();
          writeFileSync(join(dir, "flows/one.ts"), workflowSource("one", `say one, take ${n}`));
          expect(await watching.linesAfter(from, { runEnded: true })).toEqual(rerunPassed("flows/one.ts", "tests/one.test.ts"));
          await idleAgain(n + 1);
        }
        expect(watching.stderr).not.toContain("MaxListenersExceededWarning");
        expect(watching.stderr).not.toContain("abort listeners");
      }),
    SLOW,
  );
});

describe("a test that rewrites what it imports", () => {
  test(
    "reruns 3 times, then the loop is stopped with a line naming the file that keeps changing and the test that writes it; a change between runs still reruns",
    async () => {
      // The reliability case: w.test.ts writes gen.ts, which it imports, each time it runs.
      const fixture = join(FIXTURES, "watchSelfTrigger");
      const files = Object.fromEntries(["gen.ts", "w.test.ts"].map((name) => [name, readFileSync(join(fixture, name), "utf8")]));
      await watchIn(files, async (watching, dir) => {
        const stopped =
          "stopped a rerun loop: gen.ts changed during each of the last 4 runs, written while w.test.ts ran; " +
          "a test that writes a file it imports would rerun for ever, so what its runs write no longer reruns it (a change between runs does)";
        const run = ["✓ w.test.ts (1 test)", "1 passed, 0 failed"];
        const rerun = ["changed gen.ts: rerunning w.test.ts", ...run];
        expect(await watching.linesAfter(0, { line: stopped })).toEqual([...run, ...rerun, ...rerun, ...rerun, stopped]);

        // A save between runs reruns; what that run writes is named and reruns nothing.
        const from = watching.mark();
        writeFileSync(join(dir, "w.test.ts"), `${readFileSync(join(fixture, "w.test.ts"), "utf8")}// saved\n`);
        const known = "changed gen.ts during the run, as its test writes it: not rerunning for it (a change between runs does)";
        expect(await watching.linesAfter(from, { line: known })).toEqual(["changed w.test.ts: rerunning w.test.ts", ...run, known]);
        expect(readFileSync(join(dir, "gen.ts"), "utf8")).toBe("export const n = 6;\n");
      });
    },
    SLOW,
  );
});

describe("what stays watched", () => {
  test(
    "a workflow saved by rename (a temp file renamed over it, as vim, Emacs and sed -i do) reruns its test on each save",
    async () => {
      await watchIn(TWO_WORKFLOWS, async (watching, dir) => {
        const saveByRename = (text: string) => {
          const temp = join(dir, "flows/sedTmp4f2a");
          writeFileSync(temp, text);
          renameSync(temp, join(dir, "flows/one.ts"));
        };
        await watching.linesAfter(0, { runEnded: true });
        let from = watching.mark();
        saveByRename(workflowSource("one", "say one, please"));
        expect(await watching.linesAfter(from, { runEnded: true })).toEqual(rerunPassed("flows/one.ts", "tests/one.test.ts"));

        // The second save must be seen too, and run what it saved: the workflow now returns "bye".
        from = watching.mark();
        saveByRename(workflowSource("one", "say one, please", '"bye"'));
        const lines = await watching.linesAfter(from, { runEnded: true });
        expect(lines.slice(0, 2)).toEqual(["changed flows/one.ts: rerunning tests/one.test.ts", "✗ tests/one.test.ts (1 of 1 failed)"]);
        expect(lines.at(-1)).toBe("0 passed, 1 failed");
      });
    },
    SLOW,
  );

  test(
    "a test file created after the watch started is run, and one deleted is dropped",
    () =>
      watchIn(
        {
          "flows/one.ts": workflowSource("one", "say one"),
          "flows/two.ts": workflowSource("two", "say two"),
          "tests/one.test.ts": testSource("one"),
        },
        async (watching, dir) => {
          expect(await watching.linesAfter(0, { runEnded: true })).toEqual(["✓ tests/one.test.ts (1 test)", "1 passed, 0 failed"]);

          let from = watching.mark();
          writeFileSync(join(dir, "tests/two.test.ts"), testSource("two"));
          expect(await watching.linesAfter(from, { runEnded: true })).toEqual([
            "new test file tests/two.test.ts: running it",
            "✓ tests/two.test.ts (1 test)",
            "1 passed, 0 failed",
          ]);

          // Its graph is known now: a change to the other workflow leaves it alone.
          from = watching.mark();
          writeFileSync(join(dir, "flows/one.ts"), workflowSource("one", "say one, please"));
          expect(await watching.linesAfter(from, { runEnded: true })).toEqual(rerunPassed("flows/one.ts", "tests/one.test.ts"));

          from = watching.mark();
          rmSync(join(dir, "tests/two.test.ts"));
          const dropped = "dropped tests/two.test.ts: deleted";
          expect(await watching.linesAfter(from, { line: dropped })).toEqual([dropped]);
          // A change to its workflow now reruns nothing.
          writeFileSync(join(dir, "flows/two.ts"), workflowSource("two", "say two, please"));
          const noted = "changed flows/two.ts: no test imports it, nothing to rerun";
          expect(await watching.linesAfter(from, { line: noted })).toEqual([dropped, noted]);
        },
      ),
    SLOW,
  );

  test(
    "a folder of test files moved into the project is watched and run, and moved away is dropped",
    async () => {
      const project = tempProject({
        "flows/one.ts": workflowSource("one", "say one"),
        "flows/two.ts": workflowSource("two", "say two"),
        "tests/one.test.ts": testSource("one"),
      });
      // Made outside the project, then moved in whole: no event of its own for the file inside.
      const outside = join(tmpdir(), `turnlens-watch-moved-${process.pid}-${Date.now()}`);
      mkdirSync(outside);
      writeFileSync(join(outside, "two.test.ts"), testSource("two"));
      const watching = new Watching(project.dir);
      try {
        await watching.linesAfter(0, { runEnded: true });
        let from = watching.mark();
        renameSync(outside, join(project.dir, "more"));
        expect(await watching.linesAfter(from, { runEnded: true })).toEqual([
          "new test file more/two.test.ts: running it",
          "✓ more/two.test.ts (1 test)",
          "1 passed, 0 failed",
        ]);

        // The moved-in folder is watched: its test file's own change reruns it.
        from = watching.mark();
        writeFileSync(join(project.dir, "more/two.test.ts"), testSource("two", "two, edited, returns its agent's answer"));
        expect(await watching.linesAfter(from, { runEnded: true })).toEqual(rerunPassed("more/two.test.ts", "more/two.test.ts"));

        from = watching.mark();
        renameSync(join(project.dir, "more"), outside);
        const dropped = "dropped more/two.test.ts: deleted";
        expect(await watching.linesAfter(from, { line: dropped })).toEqual([dropped]);
      } finally {
        await watching.stop();
        project.remove();
        rmSync(outside, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
