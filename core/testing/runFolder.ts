// The temporary folder a test runs in when it gives no `cwd`: named at once, made only when its path
// first reaches code that may touch files (files laid out, prepare, wf.cwd, a script's turn.cwd, a
// tool's cwd), removed when the test ends. Most tests never touch it, and skip the mkdir and rm.

import { mkdirSync, rmSync } from "node:fs";
import { join, sep } from "node:path";
import { processTempFolder, processTempFolderPath } from "../tempFolder/tempFiles.ts";

// Inside this process's subfolder of the user's private temporary folder (core/tempFolder/tempFiles.ts):
// no other user can reach or plant it, and it goes with the process however it ends.
let made = 0;
// Read once per process: the subfolder's name reads /proc once and the environment (TMPDIR).
let processFolder: string | undefined;

export class RunFolder {
  readonly path = join((processFolder ??= processTempFolderPath()), `run-${++made}`);
  private state: "named" | "made" | "removed" = "named";

  /** Makes the folder if `path` is it or inside it, the first time; after the test it makes nothing. */
  use(path: string): void {
    if (this.state !== "named") return;
    if (path !== this.path && !path.startsWith(this.path + sep)) return;
    // Synchronous on purpose: whoever asked reads or writes the folder next. The private folder is
    // checked (and this process's made) first; 0o700 and never an existing one, as mkdtemp makes it.
    processTempFolder();
    mkdirSync(this.path, { mode: 0o700 });
    this.state = "made";
  }

  /** Removes the folder if it was made; later uses make nothing. */
  remove(): void {
    if (this.state === "made") rmSync(this.path, { recursive: true, force: true });
    this.state = "removed";
  }
}
