// `node test/editors/emacs/check.mjs`: runs check.el in batch Emacs 28 + eglot against dist/server.js
// on a temp copy of examples/feature-delivery (HOME in that temp folder). Prints Emacs's output; the
// exit code is Emacs's (0 = a Turnlens hover came back).
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

const scratch = mkdtempSync(join(tmpdir(), "turnlens-emacs-"));
try {
  const ws = join(scratch, "feature-delivery");
  const home = join(scratch, "home");
  cpSync(join(root, "examples", "feature-delivery"), ws, { recursive: true });
  mkdirSync(home);
  const child = spawnSync("emacs", ["--batch", "-Q", "-l", join(here, "check.el")], {
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
  if (child.error) throw child.error;
  process.stdout.write(child.stdout);
  if (child.stderr.trim() !== "") process.stderr.write(child.stderr);
  process.exitCode = child.status ?? 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
