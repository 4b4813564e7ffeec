// The `turnlens` command line: `turnlens test` (testCommand.ts), `turnlens merge-reports`
// (mergeReports.ts), `turnlens init [folder]` (init.ts) and `turnlens record` (core/record/record.ts)
// dispatched, the help and the version. `turnlens lsp`
// is dispatched by bin/turnlens.mjs, before this.
import { recordCommand } from "../record/record.ts";
import { initCommand } from "./init.ts";
import { testCommand } from "./testCommand.ts";
import { USAGE } from "./usage.ts";
import { versionLine } from "./versionLine.ts";

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help" || command === "help") {
    (command === undefined ? process.stderr : process.stdout).write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${versionLine()}\n`);
    return 0;
  }
  if (command === "init") return initCommand(rest, { stdout: process.stdout, stderr: process.stderr });
  if (command === "record") return recordCommand(rest, { stdout: process.stdout, stderr: process.stderr });
  // The blob reports of a run's shards as one report: `turnlens test --merge-reports`, by its own name.
  if (command === "merge-reports") return testCommand(["--merge-reports", ...rest]);
  if (command !== "test") {
    process.stderr.write(`unknown command: ${command}\n\n${USAGE}\n`);
    return 2;
  }
  return testCommand(rest);
}
