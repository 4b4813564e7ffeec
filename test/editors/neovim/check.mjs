// `node test/editors/neovim/check.mjs [script.lua]`: runs check.lua (or the script named) in
// `nvim --headless` against dist/server.js on temp copies of examples/mistakes, examples/feature-delivery
// and examples/summarize (the originals stay untouched), with nvim's XDG_* dirs in that temp folder.
// Prints nvim's output; the exit code is nvim's (0 = every check held).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const server = join(root, "dist", "server.js");
if (!existsSync(server)) {
  console.error(`no ${server}: run \`npm run build\` first`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), "turnlens-nvim-"));
try {
  const ws = join(scratch, "mistakes");
  const passing = join(scratch, "feature-delivery");
  const summarize = join(scratch, "summarize");
  const xdg = join(scratch, "xdg");
  cpSync(join(root, "examples", "mistakes"), ws, { recursive: true });
  cpSync(join(root, "examples", "feature-delivery"), passing, { recursive: true });
  cpSync(join(root, "examples", "summarize"), summarize, { recursive: true });
  mkdirSync(xdg);
  const child = spawnSync("nvim", ["--headless", "-n", "-i", "NONE", "-u", join(here, process.argv[2] ?? "check.lua")], {
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
  if (child.error) throw child.error;
  process.stdout.write(child.stdout);
  // nvim's print()/errors go to stderr in headless mode; pass them on for diagnosis.
  if (child.stderr.trim() !== "") process.stderr.write(child.stderr);
  process.exitCode = child.status ?? 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
