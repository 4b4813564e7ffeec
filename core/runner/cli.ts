// Entry of the `turnlens` command (bin/turnlens.mjs imports the built dist/cli.mjs).
import { main } from "./command.ts";

// `turnlens test | head` closes stdout early: that is not an error of the run.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`turnlens: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
