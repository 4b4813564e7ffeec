// What emacs/check.mjs and neovim/check.mjs share: the built server they point the editor at, and a
// throwaway folder with copies of the examples the editor opens (the originals stay untouched),
// from which the editor's output and exit code are passed on.
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

/** dist/server.js; exits 2 when it is not built. */
export function builtServer() {
  const server = join(root, "dist", "server.js");
  if (!existsSync(server)) {
    console.error(`no ${server}: run \`npm run build\` first`);
    process.exit(2);
  }
  return server;
}

/**
 * Copies each of `examples` into a new temp folder named from `prefix`, runs the editor with
 * `run(scratch, copies)` (a spawnSync result), prints its output (headless editors print their
 * messages and errors on stderr: passed on for diagnosis) and exits with its code; then removes the folder.
 */
export function inScratchCopies(prefix, examples, run) {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  try {
    const copies = examples.map((example) => {
      const copy = join(scratch, example);
      cpSync(join(root, "examples", example), copy, { recursive: true });
      return copy;
    });
    const child = run(scratch, copies);
    if (child.error) throw child.error;
    process.stdout.write(child.stdout);
    if (child.stderr.trim() !== "") process.stderr.write(child.stderr);
    process.exitCode = child.status ?? 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
