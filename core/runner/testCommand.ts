// `turnlens test [paths] [options]`: the flags read, the config merged under them, the reporters
// and their files checked before anything runs (a usage or config error exits 2), then one run,
// `--watch` or `--mutate`, with Ctrl-C stopping it (exit 130).
import { ConfigError } from "../project/configFile.ts";
import { UsageError } from "../project/discover.ts";
import { checkTempFolder, TempFolderError } from "../tempFolder/tempFiles.ts";
import { ChangedFilesError } from "./changedFiles.ts";
import { mergeCommand } from "./mergeReports.ts";
import { DEFAULT_MUTATE_BUDGET_MS, mutateCommand } from "./mutateCommand.ts";
import { refuseCodeAsReport } from "./outputFileGuard.ts";
import { chooseReporters, type Chosen, ReporterUsageError } from "./reporters/reporterGroup.ts";
import { outputs } from "./runOutput.ts";
import { parseTestArgs } from "./testFlags.ts";
import { capMaxWorkers, CliUsageError, projectConfig, withConfig, type CliOptions } from "./testOptions.ts";
import { withCiShard } from "./runShards.ts";
import { exitCodeOf, runOnce, selectFiles } from "./testRun.ts";
import { prepareTimelineFolder, TimelineFolderError } from "./timelineFiles.ts";
import { USAGE } from "./usage.ts";
import { versionLine } from "./versionLine.ts";
import { watchMode } from "./watchCommand.ts";

/** Runs `turnlens test` with the arguments after `test`; resolves to the exit code. */
export async function testCommand(args: string[]): Promise<number> {
  let options: CliOptions;
  let reportFiles: Chosen[];
  let configFile: string | undefined;
  try {
    const parsed = parseTestArgs(args);
    if (parsed === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (parsed === "version") {
      process.stdout.write(`${versionLine()}\n`);
      return 0;
    }
    // Before any file is bundled: a temporary folder another user made is said once, not per file.
    checkTempFolder();
    const config = await projectConfig(parsed);
    options = capMaxWorkers(withConfig(parsed, config), config?.file);
    // A merge runs no test: a CI's shard is not its own.
    if (options.mergeReports === undefined) options = withCiShard(options, process.env);
    reportFiles = chooseReporters(options.reporters, options.outputFile, process.env, options.shard);
    configFile = config?.file;
    refuseCodeAsReport(reportFiles, process.cwd(), [], configFile);
  } catch (error) {
    if (error instanceof TempFolderError) {
      process.stderr.write(`turnlens: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CliUsageError || error instanceof ReporterUsageError) {
      process.stderr.write(`${error.message}\n${error instanceof CliUsageError && error.showUsage ? `\n${USAGE}\n` : ""}`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }

  try {
    // A folder the timelines may not go into is refused before the run, not after it.
    if (options.timeline) prepareTimelineFolder(options.timeline);
    if (options.mergeReports !== undefined) return mergeCommand(args, options);
    if (options.watch) return await watchMode(options);
    const { files, split } = await selectFiles(options);
    if (split) options = { ...options, split };
    // A test file the run found is never a report's file, whatever its name.
    refuseCodeAsReport(reportFiles, process.cwd(), files, configFile);
    const controller = new AbortController();
    // Ctrl-C stops the run: every worker is killed, what finished is reported, and the exit is 130.
    // A second Ctrl-C while that report is written ends at once.
    const onSigint = () => {
      if (controller.signal.aborted) process.exit(130);
      controller.abort();
      process.exitCode = 130;
    };
    process.on("SIGINT", onSigint);
    if (options.mutate) {
      const { mutate: format, mutateBudgetMs: budgetMs = DEFAULT_MUTATE_BUDGET_MS, mutateThreshold } = options;
      const mutateOptions = { ...options, format, budgetMs, ...(mutateThreshold !== undefined ? { threshold: mutateThreshold } : {}) };
      return await mutateCommand(files, mutateOptions, outputs(), controller.signal).finally(() => process.off("SIGINT", onSigint));
    }
    const { summary, stop } = await runOnce(files, options, controller.signal);
    process.off("SIGINT", onSigint);
    if (stop.interrupted) return 130;
    return exitCodeOf(summary, options);
  } catch (error) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof ChangedFilesError || error instanceof TimelineFolderError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
