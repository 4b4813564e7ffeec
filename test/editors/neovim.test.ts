// A real LSP client no one here wrote: Debian's Neovim (`nvim --headless`, its built-in client) runs
// neovim/check.lua against dist/server.js on a copy of examples/mistakes. Skipped only when nvim is
// missing outside CI; in CI (`CI` set) a missing nvim fails, since .ci/run installs it.
import { test, expect } from "bun:test";
import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const hasNvim = spawnSync("nvim", ["--version"], { stdio: "ignore" }).error === undefined;
const inCi = Boolean(process.env.CI);
const NAME = "Neovim opens examples/mistakes: diagnostics, the misspelled-option fix applied, a hover on answer(";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCheck(): Promise<Ran> {
  const driver = fileURLToPath(new URL("./neovim/check.mjs", import.meta.url));
  return new Promise((resolve) => {
    execFile(process.execPath, [driver], { timeout: 80_000, encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

if (!hasNvim && !inCi) {
  console.warn("test/editors/neovim.test.ts: skipped, nvim is not installed (apt-get install -y neovim; CI installs it)");
  test.skip(`${NAME} (skipped: nvim is not installed; \`apt-get install -y neovim\` to run it)`, () => {});
} else {
  test(
    NAME,
    async () => {
      if (!hasNvim) throw new Error("nvim is not installed, and CI must run this test: .ci/run installs it with `apt-get install -y neovim`");
      const { code, stdout, stderr } = await runCheck();
      const context = `nvim check exited ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`;
      const lines = stdout.split("\n");
      const line = (pattern: RegExp) => lines.find((l) => pattern.test(l)) ?? `(no line matching ${pattern} in:\n${context})`;

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
    90_000,
  );
}
