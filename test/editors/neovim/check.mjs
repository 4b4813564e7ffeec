// `node test/editors/neovim/check.mjs [script.lua]`: runs check.lua (or the script named) in
// `nvim --headless` against dist/server.js on temp copies of examples/mistakes, examples/feature-delivery
// and examples/summarize (the originals stay untouched), with nvim's XDG_* dirs in that temp folder.
// Prints nvim's output; the exit code is nvim's (0 = every check held).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { builtServer, inScratchCopies } from "../scratchCopies.mjs";

const server = builtServer();
inScratchCopies("turnlens-nvim-", ["mistakes", "feature-delivery", "summarize"], (scratch, [ws, passing, summarize]) => {
  const xdg = join(scratch, "xdg");
  mkdirSync(xdg);
  return spawnSync("nvim", ["--headless", "-n", "-i", "NONE", "-u", join(import.meta.dirname, process.argv[2] ?? "check.lua")], {
    cwd: ws,
    encoding: "utf8",
    // Only a true hang: check.lua's own waits end first (TURNLENS_TIMEOUT_MS each).
    timeout: 8 * 60_000,
    env: {
      ...process.env,
      TURNLENS_SERVER: server,
      TURNLENS_WS: ws,
      TURNLENS_PASSING: passing,
      TURNLENS_SUMMARIZE: summarize,
      TURNLENS_NODE: process.execPath,
      XDG_CONFIG_HOME: xdg,
      XDG_DATA_HOME: xdg,
      XDG_CACHE_HOME: xdg,
      XDG_STATE_HOME: xdg,
      TMPDIR: scratch,
    },
  });
});
