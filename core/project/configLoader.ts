// Loads the project's config, the file configFile.ts finds: a JSON one (turnlens.config.json, a
// package.json's "turnlens" key) is read here; a script one runs in a process of its own
// (configProcess.ts), killed past CONFIG_LOAD_TIMEOUT_MS, so a config that loops, throws or exits
// is a clear error naming it and never stops the CLI's or the language server's thread.
import { fork, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError, findConfigFile, readJsonConfig, shown, type ProjectConfig } from "./configFile.ts";
import type { ConfigProcessMessage } from "./configProcess.ts";
import { CONFIG_HEAP_MB, CONFIG_LOAD_TIMEOUT_MS } from "../execution/limits.ts";
import { turnlensRoot } from "../execution/paths.ts";
import { killWorkerTree } from "../execution/processTree.ts";
import { workerEnvironment } from "../execution/workerProcess.ts";

/** The timer the bound is kept on: Node's, or the language server's injected one. */
export interface LoadTimer {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const NODE_TIMER: LoadTimer = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A load stopped from outside (a shutdown): not the file's answer, so it is not kept. */
class StoppedLoad extends ConfigError {}

/** Each file's last load, by its size and modification time: a config that loops is run once per version, not once per run. */
const cache = new Map<string, { stamp: string; config: Promise<ProjectConfig> }>();
const loading = new Set<(why: string) => void>();

/**
 * The config of the project `from` is in (configFile.ts's search; `outermost`: where it stops when
 * there is no package.json or .git), or undefined when it has none. Rejects with a ConfigError.
 */
export async function findProjectConfig(from: string, timer: LoadTimer = NODE_TIMER, outermost?: string): Promise<ProjectConfig | undefined> {
  const file = findConfigFile(from, outermost);
  return file === undefined ? undefined : loadConfigFile(file, timer);
}

/** Loads and checks one config file (a turnlens.config.* or a package.json's "turnlens" key). Rejects with a ConfigError. */
export function loadConfigFile(file: string, timer: LoadTimer = NODE_TIMER): Promise<ProjectConfig> {
  const path = resolve(file);
  let stamp: string;
  try {
    const stats = statSync(path);
    stamp = `${stats.size}:${stats.mtimeMs}`;
  } catch {
    return Promise.reject(new ConfigError(`no such config file: ${shown(path)}`));
  }
  const cached = cache.get(path);
  if (cached?.stamp === stamp) return cached.config;
  const script = !path.endsWith(".json");
  const config = script ? loadScript(path, timer) : new Promise<ProjectConfig>((settle) => settle(readJsonConfig(path)));
  const entry = { stamp, config };
  cache.set(path, entry);
  config.catch((error: unknown) => {
    if (error instanceof StoppedLoad && cache.get(path) === entry) cache.delete(path);
  });
  return config;
}

/** Stops every script config still loading in this process (its process killed); each load rejects saying `why`. */
export function stopConfigLoads(why: string): void {
  for (const stop of [...loading]) stop(why);
}

/** The script config's settings, from a process of its own that is killed when done or past the bound. */
function loadScript(path: string, timer: LoadTimer): Promise<ProjectConfig> {
  return new Promise((settle, refuse) => {
    let child: ChildProcess;
    try {
      child = fork(join(turnlensRoot(), "dist", "configProcess.mjs"), [path], {
        stdio: ["ignore", "pipe", "pipe", "ipc"],
        // The structured clone keeps a RegExp (testNamePattern) a RegExp.
        serialization: "advanced",
        env: workerEnvironment(),
        execArgv: [`--max-old-space-size=${CONFIG_HEAP_MB}`],
        // setsid(): its own process group, so killing the group kills what the config started.
        detached: process.platform !== "win32",
      });
    } catch (error) {
      refuse(new ConfigError(`${shown(path)} could not be loaded: ${(error as Error).message}`));
      return;
    }
    // What the config prints goes to stderr: over the server's --stdio and a document reporter's stdout, stdout is not its.
    child.stdout?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    let ended = false;
    const end = (outcome: ProjectConfig | ConfigError) => {
      if (ended) return;
      ended = true;
      timer.clearTimeout(bound);
      loading.delete(stop);
      if (child.pid !== undefined) killWorkerTree(child.pid);
      if (outcome instanceof ConfigError) refuse(outcome);
      else settle(outcome);
    };
    const stop = (why: string) => end(new StoppedLoad(`${shown(path)} was not loaded: ${why}`));
    loading.add(stop);
    const seconds = CONFIG_LOAD_TIMEOUT_MS / 1000;
    const bound = timer.setTimeout(
      () => end(new ConfigError(`${shown(path)} did not finish loading within ${seconds} s and was stopped (a config must export its settings, not loop or wait)`)),
      CONFIG_LOAD_TIMEOUT_MS,
    );
    child.on("message", (message: ConfigProcessMessage) => end(outcomeOf(path, message)));
    child.on("error", (error) => end(new ConfigError(`${shown(path)} could not be loaded: ${error.message}`)));
    child.on("close", (code, signal) =>
      end(new ConfigError(`${shown(path)} ended the process loading it (${signal ? `signal ${signal}` : `exit code ${code}`}) before exporting its settings`)),
    );
  });
}

/** The settings the config's process sent, or its error (anything else it sent is an error too). */
function outcomeOf(path: string, message: ConfigProcessMessage): ProjectConfig | ConfigError {
  if (typeof message !== "object" || message === null) return new ConfigError(`${shown(path)}: its loading process sent ${typeof message}, not settings`);
  return "config" in message ? (message.config as ProjectConfig) : new ConfigError(String(message.error));
}
