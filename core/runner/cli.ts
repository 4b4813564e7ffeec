// The `turnlens` command, loaded by its entry (cliStart.ts, the built dist/cli.mjs that bin/turnlens.mjs imports).
import { main } from "./command.ts";
import { endOnSignals, ownProcessTree } from "../execution/processTree.ts";
import { discardEarlyWorker } from "./earlyWorker.ts";

// Every process a run starts dies with the command, however it ends (SIGINT is the run's own:
// it stops the workers, reports and exits 130).
ownProcessTree();
endOnSignals(["SIGTERM", "SIGHUP"]);
const crash = (error: unknown) => {
  process.stderr.write(`turnlens: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(2);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);

// `turnlens test | head` closes stdout early: that is not an error of the run.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

main(process.argv.slice(2)).then((code) => {
  // A usage error, or no test file found: the worker forked as the command began was not needed.
  discardEarlyWorker();
  process.exitCode = code;
}, crash);
