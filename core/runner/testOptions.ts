// What a `turnlens test` run is asked to do: the options its flags set (testFlags.ts), the project's
// config file merged under them (flags win), and `--maxWorkers` capped.
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { MAX_TIMER_MS, workerCap } from "../execution/limits.ts";
import { type ViteSettings, viteSettingsOf } from "../execution/viteSettings.ts";
import type { CoverageFormat } from "../coverage/coverageReport.ts";
import type { ReportType } from "istanbul-reports";
import { resolveMaxWorkers, type ProjectConfig, type ReporterChoice } from "../project/configFile.ts";
import { findProjectConfig, loadConfigFile } from "../project/configLoader.ts";
import type { BlobShard } from "./blobReport.ts";

export interface CliOptions {
  paths: string[];
  pattern?: RegExp;
  /** The per-test timeout; `--testTimeout 0` is the longest a timer holds (no timeout). */
  timeoutMs: number;
  /** `--reporter` (repeatable) or the config's `reporters`; empty: the default reporter. */
  reporters: ReporterChoice[];
  /** `--outputFile <path>` (or the config's), or `--outputFile.<reporter>=<path>` per reporter. */
  outputFile?: string | Record<string, string>;
  /** `--silent`: what the tests print is dropped. */
  silent: boolean;
  /** `--passWithNoTests`: exit 0 when no test ran. */
  passWithNoTests: boolean;
  /** `--maxWorkers` as written: a count or a percentage (resolveMaxWorkers). */
  maxWorkers?: number | string;
  /** `-u`, `--update`: snapshots that differ are rewritten, obsolete ones removed (Vitest's `--update`). */
  update?: boolean;
  /** `--bail [n]`: stop after n failed tests; 0 never stops. */
  bail: number;
  /** `--changed [ref]`: true for the uncommitted changes, else the git ref. */
  changed?: string | true;
  /** `--shard i/n` (or the shard Bazel's variables name, resolved by testRun.ts). */
  shard?: { index: number; count: number };
  /** `--shard auto`: the shard a CI's variables name (ciShard.ts). */
  shardAuto?: boolean;
  /** `--cache` (with `--cache.dir`, `--cache.remote`): results of unchanged files from earlier runs (resultCache.ts). */
  cache?: { dir?: string; remote?: string };
  /** `--cache-verify n%`: the share of cached files run anyway and compared. */
  cacheVerify?: number;
  /** `--merge-reports [dir]` (or `turnlens merge-reports`): the blobs' folder, or true for the default one (mergeReports.ts). */
  mergeReports?: string | true;
  /** The split the shard is one of, once selectFiles made it (for the blob report). */
  split?: BlobShard;
  /** `--durations <file>`: each file's time, read for `--shard`, this run's written after it (durationsFile.ts). */
  durations?: string;
  watch: boolean;
  /** `--run` (Vitest's): run once; it turns `--watch` off, as in Vitest. */
  run?: boolean;
  /** `--coverage` (a table) or `--coverage=json` (a document on stdout), printed after the run. */
  coverage?: CoverageFormat;
  /** `--coverage.reporter` (repeatable): the line coverage's formats; absent, DEFAULT_COVERAGE_REPORTERS. */
  coverageReporters?: ReportType[];
  /** `--coverage.reportsDirectory`: where its files go, as written; absent, `coverage`. */
  coverageDirectory?: string;
  /** `--config <path>`: the config file instead of the one found from the current folder. */
  configFile?: string;
  /** Files each worker runs before each test file (the config's `setupFiles`, absolute). */
  setupFiles: string[];
  /** The config's define and env, and the folder of the `.env` files (absent: the current folder's, no define). */
  vite?: ViteSettings;
  /** The options a flag set, which the config file does not override. */
  given: ReadonlySet<ConfigurableOption>;
  /** `--mutate` (a table) or `--mutate=json`, with its budget per file and threshold (docs/mutate.md). */
  mutate?: "table" | "json";
  mutateBudgetMs?: number;
  mutateThreshold?: number;
  /** `--timeline <dir>`: each test's run timeline written there as HTML (timelineFiles.ts). */
  timeline?: string;
}

/** The options a config file may set, when no flag did. */
export type ConfigurableOption = "pattern" | "timeoutMs" | "reporters" | "outputFile" | "silent" | "passWithNoTests" | "maxWorkers" | "bail";

export class CliUsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = false,
  ) {
    super(message);
  }
}

/**
 * The options with the project config's values where no flag set them (flags win), its setup
 * files, and the reporter names checked; `maxWorkers` stays as written.
 */
export function withConfig(options: CliOptions, config: ProjectConfig | undefined): CliOptions {
  if (!config) return options;
  const merged: CliOptions = { ...options, setupFiles: config.setupFiles, vite: viteSettingsOf(config, process.cwd()) };
  const unset = (key: ConfigurableOption) => !options.given.has(key);
  if (unset("pattern") && config.testNamePattern) merged.pattern = config.testNamePattern;
  if (unset("timeoutMs") && config.testTimeout !== undefined) merged.timeoutMs = config.testTimeout === 0 ? MAX_TIMER_MS : config.testTimeout;
  if (unset("reporters") && config.reporters) merged.reporters = config.reporters;
  // A config's output paths are relative to its folder; a flag's, to the current folder.
  if (unset("outputFile") && config.outputFile !== undefined) {
    const from = (path: string) => resolve(config.root, path);
    merged.outputFile =
      typeof config.outputFile === "string" ? from(config.outputFile) : Object.fromEntries(Object.entries(config.outputFile).map(([name, path]) => [name, from(path)]));
  }
  if (unset("silent") && config.silent !== undefined) merged.silent = config.silent;
  if (unset("passWithNoTests") && config.passWithNoTests !== undefined) merged.passWithNoTests = config.passWithNoTests;
  if (unset("maxWorkers") && config.maxWorkers !== undefined) merged.maxWorkers = config.maxWorkers;
  if (unset("bail") && config.bail !== undefined) merged.bail = config.bail;
  return merged;
}

/** The project's config: `--config`'s file, else the nearest one in the project (configFile.ts). Rejects with a ConfigError. */
export function projectConfig(options: CliOptions): Promise<ProjectConfig | undefined> {
  return options.configFile ? loadConfigFile(resolve(process.cwd(), options.configFile)) : findProjectConfig(process.cwd());
}

/**
 * `--maxWorkers` (or the config's) above workerCap is lowered to it, with a note on stderr saying
 * what was asked and what it became; otherwise the options are as given.
 */
export function capMaxWorkers(options: CliOptions, configFile: string | undefined): CliOptions {
  if (options.maxWorkers === undefined) return options;
  const cores = availableParallelism();
  const asked = resolveMaxWorkers(options.maxWorkers, cores);
  const cap = workerCap(cores);
  if (asked <= cap) return options;
  const where = options.given.has("maxWorkers") ? `--maxWorkers ${options.maxWorkers}` : `maxWorkers ${options.maxWorkers} (${configFile ?? "the config"})`;
  const counted = typeof options.maxWorkers === "string" ? ` (${asked} workers)` : "";
  process.stderr.write(`${where}${counted} is capped at ${cap} workers: twice the ${cores} core${cores === 1 ? "" : "s"}, at least 4\n`);
  return { ...options, maxWorkers: cap };
}
