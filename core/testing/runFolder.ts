// The temporary folder a test runs in when it gives no `cwd`: named at once, made only when its path
// first reaches code that may touch files (files laid out, prepare, wf.cwd, a script's turn.cwd, a
// tool's cwd), removed when the test ends. Most tests never touch it, and skip the mkdir and rm.

import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";

// The pid leads so the runner can remove a killed process's folders (core/runner/tempFiles.ts); the
// tag is random per process, so a name is not one another process (a reused pid) could have left.
const processTag = Math.random().toString(36).slice(2, 10).padEnd(8, "0");
let made = 0;
// Read once per process: tmpdir() reads the environment at each call, a cost per test.
let temporaryRoot: string | undefined;

export class RunFolder {
  readonly path = join((temporaryRoot ??= tmpdir()), `turnlens-run-${process.pid}-${processTag}-${++made}`);
  private state: "named" | "made" | "removed" = "named";

  /** Makes the folder if `path` is it or inside it, the first time; after the test it makes nothing. */
  use(path: string): void {
    if (this.state !== "named") return;
    if (path !== this.path && !path.startsWith(this.path + sep)) return;
    // Synchronous on purpose: whoever asked reads or writes the folder next. 0o700, as mkdtemp makes it.
    mkdirSync(this.path, { mode: 0o700 });
    this.state = "made";
  }

  /** Removes the folder if it was made; later uses make nothing. */
  remove(): void {
    if (this.state === "made") rmSync(this.path, { recursive: true, force: true });
    this.state = "removed";
  }
}
