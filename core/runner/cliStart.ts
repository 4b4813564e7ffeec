// dist/cli.mjs, the `turnlens` command's entry: for `turnlens test`, forks the first worker before
// the rest of the CLI loads (earlyWorker.ts), so a worker's start overlaps the CLI's; then loads the
// CLI (cli.ts), through Node's compile cache where Node has one (22.1 and later).
import { cacheFolder } from "../execution/codeCache.ts";
import { ownProcessTree } from "../execution/processTree.ts";
import { forkEarlyWorker } from "./earlyWorker.ts";

const [command, ...rest] = process.argv.slice(2);
if (command === "test" && !rest.some((arg) => ["-h", "--help", "-v", "--version"].includes(arg))) {
  // Before the fork: the worker inherits the tag that ties it to this command (cli.ts repeats it).
  ownProcessTree();
  forkEarlyWorker();
}
// This user's own folder (codeCache.ts), not Node's default one in the shared temp folder.
const folder = cacheFolder();
const nodeModule = (await import("node:module")) as { enableCompileCache?: (directory: string) => unknown };
if (folder) nodeModule.enableCompileCache?.(folder);
await import("./cli.ts");
