// The project config a test file belongs to (turnlens.config.* or package.json's "turnlens" key,
// core/project/configLoader.ts), for the editor's runs: its testTimeout and setupFiles apply there as
// under `turnlens test`, so the project keeps them in one place. A script config runs in a process
// of its own within a time bound on the server's timer, never in the server's thread; a config that
// cannot be used (it loops, throws, has a wrong key) is logged and shown once per message, and the
// runs go on with the editor's settings.
import { dirname, sep } from "node:path";
import { ConfigError, type ProjectConfig } from "../core/project/configFile.ts";
import { findProjectConfig, stopConfigLoads } from "../core/project/configLoader.ts";
import { MAX_TIMER_MS } from "../core/execution/limits.ts";
import { type ViteSettings, viteSettingsOf } from "../core/execution/viteSettings.ts";
import type { Timer } from "./scheduler.ts";
import type { Logger } from "./state.ts";

export class ProjectConfigs {
  /** The problems already said: a config that cannot be used is said once, not at every run. */
  private readonly said = new Set<string>();
  /** The workspace's folders (initialize): with no package.json or .git, the search stops at the one holding the file. */
  workspaceFolders: string[] = [];

  constructor(
    private readonly log: Logger,
    private readonly timer: Timer,
    /** Shows a warning to the user (window/showMessage). */
    private readonly show: (message: string) => void,
  ) {}

  /** The config of `file`'s project, or undefined (none, or one that cannot be used: said). */
  forFile(file: string): Promise<ProjectConfig | undefined> {
    return this.ofFolder(dirname(file));
  }

  /** The config of the project `folder` is in, or undefined (none, or one that cannot be used: said). */
  async ofFolder(folder: string): Promise<ProjectConfig | undefined> {
    try {
      return await findProjectConfig(folder, this.timer, this.workspaceFolderOf(folder));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const message = `the project's config is not used: ${error.message}`;
      if (!this.said.has(message)) {
        this.said.add(message);
        this.log.warn(message);
        this.show(`Turnlens: ${message}. The tests run with the editor's settings.`);
      }
      return undefined;
    }
  }

  /** The innermost workspace folder holding `folder`, if any. */
  private workspaceFolderOf(folder: string): string | undefined {
    const holding = this.workspaceFolders.filter((workspace) => folder === workspace || folder.startsWith(workspace.endsWith(sep) ? workspace : workspace + sep));
    return holding.sort((left, right) => right.length - left.length)[0];
  }

  /** Stops every config still loading (a shutdown, trust withdrawn): its process is killed. */
  stop(): void {
    stopConfigLoads("the language server stopped its runs");
  }
}

/** What a run of `file` takes from its project's config: the timeout (0: none) and the setup files. */
export function runSettingsFrom(config: ProjectConfig | undefined): { timeoutMs?: number; setupFiles?: string[]; vite?: ViteSettings } {
  if (!config) return {};
  return {
    vite: viteSettingsOf(config, config.root),
    ...(config.testTimeout !== undefined ? { timeoutMs: config.testTimeout === 0 ? MAX_TIMER_MS : config.testTimeout } : {}),
    ...(config.setupFiles.length > 0 ? { setupFiles: config.setupFiles } : {}),
  };
}
