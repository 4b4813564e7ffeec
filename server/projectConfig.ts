// The project config a test file belongs to (turnlens.config.* or package.json's "turnlens" key,
// core/runner/configFile.ts), for the editor's runs: its testTimeout and setupFiles apply there as
// under `turnlens test`, so the project keeps them in one place. A config that cannot be used is
// logged (once per message), and the runs go on with the editor's settings.
import { dirname } from "node:path";
import { ConfigError, findProjectConfig, type ProjectConfig } from "../core/runner/configFile.ts";
import { MAX_TIMER_MS } from "../core/runner/limits.ts";
import type { Logger } from "./state.ts";

const logged = new Set<string>();

/** The config of `file`'s project, or undefined (none, or one that cannot be used: logged). */
export function projectConfigFor(file: string, log: Logger): ProjectConfig | undefined {
  return projectConfigOfFolder(dirname(file), log);
}

/** The config of the project `folder` is in, or undefined (none, or one that cannot be used: logged). */
export function projectConfigOfFolder(folder: string, log: Logger): ProjectConfig | undefined {
  try {
    return findProjectConfig(folder);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (!logged.has(error.message)) {
      logged.add(error.message);
      log.warn(`the project's config is not used: ${error.message}`);
    }
    return undefined;
  }
}

/** What a run of `file` takes from its project's config: the timeout (0: none) and the setup files. */
export function runSettingsFrom(config: ProjectConfig | undefined): { timeoutMs?: number; setupFiles?: string[] } {
  if (!config) return {};
  return {
    ...(config.testTimeout !== undefined ? { timeoutMs: config.testTimeout === 0 ? MAX_TIMER_MS : config.testTimeout } : {}),
    ...(config.setupFiles.length > 0 ? { setupFiles: config.setupFiles } : {}),
  };
}
