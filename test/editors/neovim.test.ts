// A real LSP client no one here wrote: Debian's Neovim (`nvim --headless`, its built-in client) runs
// neovim/check.lua against dist/server.js on copies of examples/mistakes and examples/feature-delivery,
// once for both tests, neovim/workflowEdit.lua on a copy of examples/summarize, and neovim/lensAfterFix.lua
// (docs/language-server.md's Neovim 0.7 configuration) on examples/mistakes, neovim/completion.lua on
// examples/feature-delivery. Skipped only when nvim is missing outside CI; in CI (`CI` set) a missing nvim fails.
import { test, expect } from "bun:test";
import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HANG_GUARD_MS } from "../hangGuard.ts";

const hasNvim = spawnSync("nvim", ["--version"], { stdio: "ignore" }).error === undefined;
const inCi = Boolean(process.env.CI);
const NAME = "Neovim opens examples/mistakes: diagnostics, the misspelled-option fix applied, a hover on answer(";
const OPERATIONS_NAME = "Neovim shows what the other scripts met: an event never sent on its during, a wake on its messages entry";
const WORKFLOW_EDIT_NAME = "Neovim: an unsaved edit to a workflow buffer changes the open test file's diagnostics";
const COMPLETION_NAME =
  "Neovim gets completion items from the server inside answer(WORK, …): the required properties not yet written after a partial name, and a whole value";
const LENS_AFTER_FIX_NAME =
  "Neovim 0.7 with the documented configuration: after the quick fix makes the failing test pass, a hover sent at once and its code lens show the fresh ✓ result";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

// One nvim session drives every check; each test reads its own lines from it.
let checked: Promise<Ran> | undefined;
function runCheck(): Promise<Ran> {
  checked ??= runDriver();
  return checked;
}

function runDriver(script = "check.lua"): Promise<Ran> {
  const driver = fileURLToPath(new URL("./neovim/check.mjs", import.meta.url));
  return new Promise((resolve) => {
    execFile(process.execPath, [driver, script], { timeout: HANG_GUARD_MS - 30_000, encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** What a driver run printed, as a failing test shows it. */
function contextOf(script: string, { code, stdout, stderr }: Ran): string {
  return `nvim ${script.replace(/\.lua$/, "")} exited ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`;
}

/** The driver's output, and the first line matching a pattern (or a message showing all of it). */
async function checkedLines(): Promise<{ code: number | null; context: string; line: (pattern: RegExp) => string }> {
  if (!hasNvim) throw new Error("nvim is not installed, and CI must run this test: .ci/run installs it with `apt-get install -y neovim`");
  const ran = await runCheck();
  const context = contextOf("check.lua", ran);
  const lines = ran.stdout.split("\n");
  return { code: ran.code, context, line: (pattern) => lines.find((l) => pattern.test(l)) ?? `(no line matching ${pattern} in:\n${context})` };
}

/** Runs `script` in its own nvim session; the lines it printed that `pattern` matches, and what to show when it failed. */
async function scriptLines(script: string, pattern: RegExp): Promise<{ code: number | null; context: string; lines: string[] }> {
  const ran = await runDriver(script);
  return { code: ran.code, context: contextOf(script, ran), lines: ran.stdout.split("\n").filter((line) => pattern.test(line)) };
}

if (!hasNvim && !inCi) {
  console.warn("test/editors/neovim.test.ts: skipped, nvim is not installed (apt-get install -y neovim; CI installs it)");
  for (const name of [NAME, OPERATIONS_NAME, WORKFLOW_EDIT_NAME, LENS_AFTER_FIX_NAME, COMPLETION_NAME])
    test.skip(`${name} (skipped: nvim is not installed; \`apt-get install -y neovim\` to run it)`, () => {});
} else {
  test(
    NAME,
    async () => {
      const { code, context, line } = await checkedLines();
      // The diagnostic reached Neovim, with our source and code.
      expect(line(/^DIAG misspelled-option\.test\.ts:/)).toMatch(
        /^DIAG misspelled-option\.test\.ts:10:\d+ \[turnlens unknown-option\] testWorkflow takes no option "agnets"; did you mean "agents"\?$/,
      );
      // The quick fix was offered and applied to the buffer, and the server saw the edit.
      expect(line(/^ACTION /)).toMatch(/^ACTION Rename "agnets" to "agents" \(quickfix, preferred\)$/);
      expect(line(/^AFTER FIX line/)).toBe('AFTER FIX line 10: agents: { writer: answer(NOTE, { title: "Release 1.2" }) },');
      expect(line(/^AFTER FIX unknown/)).toBe("AFTER FIX unknown-option gone");
      // The second file ran: its runtime diagnostic and the hover on its first answer( entry.
      expect(line(/^DIAG entry-never-reached/)).toMatch(/\[turnlens entry-never-reached\] agent "writer" was asked 1 turn; its script has 2/);
      expect(line(/^HOVER /)).toMatch(/^HOVER entry-never-reached\.test\.ts:9:\d+ .*\bwriter\W+(turn |#)1\b/);
      expect(line(/^RESULT:/)).toBe("RESULT: OK");
      if (code !== 0) throw new Error(context);
    },
    HANG_GUARD_MS,
  );
  test(
    OPERATIONS_NAME,
    async () => {
      const { code, context, line } = await checkedLines();
      // The event's diagnostic is on its element's `during` (line 11, column 16), where every reporter places it, not on the call.
      expect(line(/^DIAG event-never-sent\.test\.ts:/)).toBe(
        'DIAG event-never-sent.test.ts:11:16 [turnlens event-never-sent] event "approved" (during writer#2): agent "writer" never had turn 2',
      );
      expect(line(/^AT event-never-sent /)).toBe('AT event-never-sent during: "writer#2", name: "approved", data: { by: "ann" } }],');
      // A passing example: the planner's messages function met the reviewer's message, and replied.
      // Its line is found as check.lua finds it, so the example may move.
      const example = readFileSync(fileURLToPath(new URL("../../examples/feature-delivery/workflow.test.ts", import.meta.url)), "utf8").split("\n");
      const wake = example.findIndex((text) => text.includes("messages:") && text.includes("(message) => message.reply(")) + 1;
      expect(wake).toBeGreaterThan(0);
      expect(line(/^HOVER workflow\.test\.ts:/)).toBe(
        `HOVER workflow.test.ts:${wake}:27 Turnlens · **planner · woken by reviewer: replied** | --- | **planner** woken by **reviewer** · ✓ replied | > name the cache | It awaited a reply.`,
      );
      expect(line(/^HINT workflow\.test\.ts:/)).toMatch(new RegExp(`^HINT workflow\\.test\\.ts:${wake}:\\d+ planner · woken by reviewer: replied$`));
      expect(line(/^RESULT:/)).toBe("RESULT: OK");
      if (code !== 0) throw new Error(context);
    },
    HANG_GUARD_MS,
  );
  test(
    WORKFLOW_EDIT_NAME,
    async () => {
      const { code, context, lines } = await scriptLines("workflowEdit.lua", /^(BEFORE|EDITED|DIAG|RESULT)/);
      // Before: the tests pass against the saved workflow. After the unsaved rename, both tests
      // reach an agent no script answers, and the server says so at each testWorkflow call.
      expect(lines).toEqual([
        "BEFORE (no diagnostics)",
        "EDITED summarize.ts (unsaved)",
        'DIAG summarize.test.ts:9:13 [turnlens agent-unscripted] agent "writer" turn 1: no script for it; scripted: "reader". It was asked: Read README.md and summarise it in two sentences.',
        'DIAG summarize.test.ts:18:13 [turnlens agent-unscripted] agent "writer" turn 1: no script for it; scripted: "reader". It was asked: Read README.md and summarise it in two sentences.',
        "RESULT: OK",
      ]);
      if (code !== 0) throw new Error(context);
    },
    HANG_GUARD_MS,
  );
  test(
    LENS_AFTER_FIX_NAME,
    async () => {
      const { code, context, lines } = await scriptLines("lensAfterFix.lua", /^(LENS|HOVER|CURRENT|RESULT)/);
      // Before the fix the lens shows the failing run; after it, the rerun's pass, though the cursor
      // has moved to a new window (0.7's own codelens.refresh() would serve only that one).
      // A hover sent at once after the fix waits for the rerun (hoverWaitMs) and shows its pass.
      expect(lines.map((line) => line.replace(/ · \d+ ms/, " · N ms"))).toEqual([
        "LENS BEFORE FIX 7: ▶ Run | ✗ 1 problem",
        "HOVER AFTER FIX 7: Turnlens · **✓ passed** · 1 turn · N ms",
        "CURRENT BUFFER a new one",
        "LENS AFTER FIX 7: ▶ Run | ✓ 1 turn · N ms | Check what this test asserts",
        "LENS AFTER FIX 1: ▶ Run file",
        "RESULT: OK",
      ]);
      if (code !== 0) throw new Error(context);
    },
    HANG_GUARD_MS,
  );
  test(
    COMPLETION_NAME,
    async () => {
      const { code, context, lines } = await scriptLines("completion.lua", /^(COMPLETION|EDITED|ITEM|VALUE|RESULT)/);
      // Neovim 0.7 takes no snippets: each item inserts plain text, the value WORK accepts. Beside
      // TypeScript (the default: a Neovim user has ts_ls attached too), not the name `summary` itself.
      expect(lines).toEqual([
        `COMPLETION PROVIDER . " ' { [ :`,
        "EDITED planner: [answer(WORK, planned), answer(WORK, { docPath: doc, su })],",
        'ITEM summary: "", decisions: [] | summary: "", decisions: [] | the required properties · summary, decisions',
        'VALUE { docPath: "", summary: "", decisions: [] } | object with docPath, summary, decisions',
        "RESULT: OK",
      ]);
      if (code !== 0) throw new Error(context);
    },
    HANG_GUARD_MS,
  );
}
