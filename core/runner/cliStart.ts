// dist/cli.mjs, the `turnlens` command's entry: for `turnlens test`, forks the first worker before
// the rest of the CLI loads (earlyWorker.ts), so a worker's start overlaps the CLI's; then runs the
// CLI (cli.ts, the CommonJS bundle dist/cliMain.js) through a V8 code cache (codeCache.ts).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheFolder, requireWithCodeCache } from "../execution/codeCache.ts";
import { lendImport } from "../execution/importModule.ts";
import { ownProcessTree } from "../execution/processTree.ts";
import { forkEarlyWorker } from "./earlyWorker.ts";

const [command, ...rest] = process.argv.slice(2);
if (command === "test" && !rest.some((arg) => ["-h", "--help", "-v", "--version"].includes(arg))) {
  // Before the fork: the worker inherits the tag that ties it to this command (cli.ts repeats it).
  ownProcessTree();
  forkEarlyWorker();
}
// This user's own folder (codeCache.ts), not Node's default one in the shared temp folder: on Node
// 22.1 and later the few ES modules of this entry load through Node's compile cache too.
const folder = cacheFolder();
const nodeModule = (await import("node:module")) as { enableCompileCache?: (directory: string) => unknown };
if (folder) nodeModule.enableCompileCache?.(folder);
// Code compiled from a cache has no import() of its own on Node 20 (importModule.ts): `turnlens
// record` imports the workflow it replays with this one.
lendImport((url) => import(url));
requireWithCodeCache(join(dirname(fileURLToPath(import.meta.url)), "cliMain.js"));
