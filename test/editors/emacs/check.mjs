// `node test/editors/emacs/check.mjs`: runs check.el in batch Emacs 28 + eglot against dist/server.js
// on a temp copy of examples/feature-delivery (HOME in that temp folder). Prints Emacs's output; the
// exit code is Emacs's (0 = a Turnlens hover came back).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { builtServer, inScratchCopies } from "../scratchCopies.mjs";

const server = builtServer();
inScratchCopies("turnlens-emacs-", ["feature-delivery"], (scratch, [ws]) => {
  const home = join(scratch, "home");
  mkdirSync(home);
  return spawnSync("emacs", ["--batch", "-Q", "-l", join(import.meta.dirname, "check.el")], {
    cwd: ws,
    encoding: "utf8",
    // Only a true hang: check.el's own wait ends first.
    timeout: 6 * 60_000,
    env: {
      ...process.env,
      HOME: home,
      TURNLENS_SERVER: server,
      TURNLENS_NODE: process.execPath,
      TURNLENS_FILE: join(ws, "workflow.test.ts"),
      TURNLENS_TIMEOUT_S: "240",
      TMPDIR: scratch,
    },
  });
});
