// Refuses a report file (`--outputFile`, the config's `outputFile`, a reporter's own) that would
// replace the project's code or settings: a report never takes the name of a file the run reads.
import { realpathSync } from "node:fs";
import { basename, resolve } from "node:path";
import { isTestFile, UsageError } from "../project/discover.ts";
import type { Chosen } from "./reporters/reporterGroup.ts";
import { REPORTERS } from "./reporters/reporterMap.ts";

/** The extensions of the files a run bundles: a report is never written under one. */
const CODE_FILE = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx)$/;
/** Files that change how the project bundles or is configured. */
const SETTINGS_FILE = /^(package\.json|tsconfig.*\.json|jsconfig\.json|turnlens\.config\.[cm]?[jt]s|turnlens\.config\.json)$/;

/** The path a symbolic link leads to, or the path itself when it does not exist yet. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** What `path` is to the run, when a report must not replace it; undefined when it may. */
function whatItIs(path: string, testFiles: ReadonlySet<string>, configFile: string | undefined): string | undefined {
  for (const candidate of new Set([path, real(path)])) {
    if (testFiles.has(candidate) || isTestFile(candidate)) return "a test file";
    if (configFile !== undefined && candidate === configFile) return "the project's config file";
    if (SETTINGS_FILE.test(basename(candidate))) return "a project settings file";
    if (CODE_FILE.test(candidate)) return "a source file (a report is never written under a .ts or .js name)";
  }
  return undefined;
}

/**
 * Throws a UsageError (exit 2) when a chosen reporter's file is a test file of the run (`testFiles`,
 * absolute), the config file, package.json or a tsconfig, or has a source file's extension,
 * whether it exists or not, also through a symbolic link.
 */
export function refuseCodeAsReport(chosen: readonly Chosen[], cwd: string, testFiles: readonly string[] = [], configFile?: string): void {
  const tests = new Set(testFiles.flatMap((file) => [file, real(file)]));
  const config = configFile === undefined ? undefined : real(configFile);
  for (const setting of chosen) {
    if (setting.file === undefined) continue;
    const what = whatItIs(resolve(cwd, setting.file), tests, config);
    if (what)
      throw new UsageError(
        `--outputFile ${setting.file}: the ${setting.name} report would replace ${what}; give it a file of its own, such as report.${REPORTERS[setting.name].extension}`,
      );
  }
}
