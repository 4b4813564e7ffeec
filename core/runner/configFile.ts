// The project's Turnlens config: the nearest turnlens.config.{ts,mts,js,mjs,json}, or a package.json
// with a "turnlens" key, searching up from a folder. A script config is bundled by esbuild to
// CommonJS in memory and evaluated, so it loads synchronously (discovery, the language server)
// on every Node; each key is checked, an unknown one refused with the nearest name.
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { noSuchOption, suggestName } from "../workflow/unknownOptions.ts";
import { MAX_TIMER_MS } from "./limits.ts";
import { REPORTER_NAMES } from "./config.ts";

/** The names a config file may have, in the order they are looked for. */
export const CONFIG_FILE_NAMES = ["turnlens.config.ts", "turnlens.config.mts", "turnlens.config.js", "turnlens.config.mjs", "turnlens.config.json"] as const;

/** A reporter as the runner takes it: its name and its options (`{}` when none were given). */
export interface ReporterChoice {
  name: string;
  options: Record<string, unknown>;
}

/** A project's config, checked, with its paths made absolute. */
export interface ProjectConfig {
  /** The folder of the file it came from. */
  root: string;
  /** The file it came from: a turnlens.config.* or a package.json. */
  file: string;
  include?: string[];
  exclude: string[];
  testTimeout?: number;
  /** As written: a count, or a percentage such as "50%" (resolveMaxWorkers). */
  maxWorkers?: number | string;
  reporters?: ReporterChoice[];
  outputFile?: string | Record<string, string>;
  silent?: boolean;
  /** Absolute paths. */
  setupFiles: string[];
  passWithNoTests?: boolean;
  bail?: number;
  testNamePattern?: RegExp;
}

/** A config that cannot be used: its message names the file and the key. */
export class ConfigError extends Error {}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof RegExp);
const isReporter = (value: unknown): boolean =>
  (typeof value === "string" && value !== "") ||
  (Array.isArray(value) && value.length >= 1 && value.length <= 2 && typeof value[0] === "string" && value[0] !== "" && (value.length === 1 || isPlainObject(value[1])));

/** Each key a config takes, with what its value must be (the words of the refusal) and the check. */
const KEYS: Record<string, { expected: string; check: (value: unknown) => boolean }> = {
  include: { expected: "an array of paths", check: isStringArray },
  exclude: { expected: "an array of globs", check: isStringArray },
  testTimeout: {
    expected: `a whole number of milliseconds from 0 (no timeout) to ${MAX_TIMER_MS}`,
    check: (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_TIMER_MS,
  },
  maxWorkers: {
    expected: 'a whole number of workers from 1, or a share of the cores such as "50%"',
    check: (value) => (Number.isInteger(value) && (value as number) >= 1) || (typeof value === "string" && parsePercent(value) !== undefined),
  },
  reporters: {
    expected: 'a reporter name, [name, options], or an array of them (such as ["default", ["junit", { suiteName: "x" }]])',
    check: (value) => isReporter(value) || (Array.isArray(value) && value.every(isReporter)),
  },
  outputFile: {
    expected: 'a path, or an object of paths by reporter name (such as { junit: "junit.xml" })',
    check: (value) =>
      (typeof value === "string" && value !== "") || (isPlainObject(value) && Object.values(value).every((path) => typeof path === "string" && path !== "")),
  },
  silent: { expected: "true or false", check: (value) => typeof value === "boolean" },
  setupFiles: { expected: "a path or an array of paths", check: (value) => typeof value === "string" || isStringArray(value) },
  passWithNoTests: { expected: "true or false", check: (value) => typeof value === "boolean" },
  bail: { expected: "a whole number of failed tests (0: never stop)", check: (value) => Number.isInteger(value) && (value as number) >= 0 },
  testNamePattern: { expected: "a regular expression, or its source as a string", check: (value) => typeof value === "string" || value instanceof RegExp },
};

export const CONFIG_KEYS: readonly string[] = Object.keys(KEYS);

/** Names a config is likely to be written with, from the flags, the editor's settings or other runners, too far to be the nearest. */
const OTHER_NAMES: Record<string, string> = {
  workers: "maxWorkers",
  timeout: "testTimeout",
  reporter: "reporters",
  setupFilesAfterEnv: "setupFiles",
  testPathIgnorePatterns: "exclude",
  testMatch: "include",
};

/** `"50%"` → 0.5; undefined for anything else (0% and above 100% included). */
export function parsePercent(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)%$/.exec(text.trim());
  const share = match ? Number(match[1]) / 100 : 0;
  return share > 0 && share <= 1 ? share : undefined;
}

/** `--maxWorkers`/`maxWorkers` as a count: a percentage of `cores`, at least 1. */
export function resolveMaxWorkers(value: number | string, cores: number): number {
  if (typeof value === "number") return value;
  return Math.max(1, Math.floor(cores * (parsePercent(value) ?? 1)));
}

/** Refuses a reporter name Turnlens has not, with the nearest; `where` names the flag or the file. */
export function checkReporterName(name: string, where: string): void {
  if ((REPORTER_NAMES as readonly string[]).includes(name)) return;
  const nearest = suggestName(name, REPORTER_NAMES);
  throw new ConfigError(`${where}: no reporter "${name}"${nearest ? `; did you mean "${nearest}"?` : ""} (the reporters: ${REPORTER_NAMES.join(", ")})`);
}

/** The reporters a config or the command line names, each as { name, options }. */
export function reporterChoices(value: unknown): ReporterChoice[] {
  const list = isReporter(value) ? [value] : (value as unknown[]);
  return list.map((item) =>
    typeof item === "string" ? { name: item, options: {} } : { name: (item as [string])[0], options: { ...((item as [string, Record<string, unknown>])[1] ?? {}) } },
  );
}

/** The path as a message shows it: relative to the current folder when inside it. */
function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel;
}

/** Checks a config's keys and values and makes it a ProjectConfig. `where` names it in refusals. */
export function checkConfig(raw: unknown, file: string, where: string): ProjectConfig {
  if (!isPlainObject(raw)) throw new ConfigError(`${where} must be an object of settings (export default defineConfig({ ... })), not ${describe(raw)}`);
  for (const [key, value] of Object.entries(raw)) {
    const rule = KEYS[key];
    if (!rule) {
      const meant = OTHER_NAMES[key];
      throw new ConfigError(meant ? `${where} takes no option "${key}"; did you mean "${meant}"?` : noSuchOption(where, key, CONFIG_KEYS).message);
    }
    if (value === undefined) continue;
    if (!rule.check(value)) throw new ConfigError(`${where}: "${key}" must be ${rule.expected}, not ${describe(value)}`);
  }
  const root = dirname(file);
  const config: ProjectConfig = { root, file, exclude: (raw.exclude as string[] | undefined) ?? [], setupFiles: [] };
  if (raw.include !== undefined) config.include = raw.include as string[];
  if (raw.testTimeout !== undefined) config.testTimeout = raw.testTimeout as number;
  if (raw.maxWorkers !== undefined) config.maxWorkers = raw.maxWorkers as number | string;
  if (raw.reporters !== undefined) {
    config.reporters = reporterChoices(raw.reporters);
    for (const { name } of config.reporters) checkReporterName(name, `${where}: "reporters"`);
  }
  if (raw.outputFile !== undefined) config.outputFile = typeof raw.outputFile === "string" ? raw.outputFile : { ...(raw.outputFile as Record<string, string>) };
  if (raw.silent !== undefined) config.silent = raw.silent as boolean;
  if (raw.passWithNoTests !== undefined) config.passWithNoTests = raw.passWithNoTests as boolean;
  if (raw.bail !== undefined) config.bail = raw.bail as number;
  if (raw.testNamePattern !== undefined) {
    try {
      config.testNamePattern = raw.testNamePattern instanceof RegExp ? raw.testNamePattern : new RegExp(raw.testNamePattern as string);
    } catch (error) {
      throw new ConfigError(`${where}: "testNamePattern" must be a valid regular expression: ${(error as Error).message}`);
    }
  }
  const setupFiles = raw.setupFiles === undefined ? [] : typeof raw.setupFiles === "string" ? [raw.setupFiles] : (raw.setupFiles as string[]);
  for (const setupFile of setupFiles) {
    const path = resolve(root, setupFile);
    if (!existsSync(path) || !statSync(path).isFile())
      throw new ConfigError(`${where}: "setupFiles" names ${setupFile}, which is not a file (looked for ${shown(path)})`);
    config.setupFiles.push(path);
  }
  return config;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array (${truncated(JSON.stringify(value))})`;
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object") return `an object (${truncated(JSON.stringify(value) ?? String(value))})`;
  return typeof value === "function" ? "a function" : `${typeof value} ${String(value)}`;
}

function truncated(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const IMPORT_META = ["import", "meta"].join(".");

const cache = new Map<string, { stamp: string; config: ProjectConfig }>();

/** Loads and checks one config file (a turnlens.config.* or a package.json's "turnlens" key). Cached by its size and time. */
export function loadConfigFile(file: string): ProjectConfig {
  const path = resolve(file);
  let stamp: string;
  try {
    const stats = statSync(path);
    stamp = `${stats.size}:${stats.mtimeMs}`;
  } catch {
    throw new ConfigError(`no such config file: ${shown(path)}`);
  }
  const cached = cache.get(path);
  if (cached?.stamp === stamp) return cached.config;
  const config = basename(path) === "package.json" ? packageConfig(path) : checkConfig(readConfigModule(path), path, shown(path));
  cache.set(path, { stamp, config });
  return config;
}

function packageConfig(path: string): ProjectConfig {
  let pkg: { turnlens?: unknown };
  try {
    pkg = JSON.parse(readFileSync(path, "utf8")) as { turnlens?: unknown };
  } catch (error) {
    throw new ConfigError(`${shown(path)} is not valid JSON: ${(error as Error).message}`);
  }
  return checkConfig(pkg.turnlens, path, `the "turnlens" key of ${shown(path)}`);
}

/** The default export of a config file: JSON parsed, a script bundled to CommonJS and evaluated. */
function readConfigModule(path: string): unknown {
  const text = readFileSync(path, "utf8");
  if (path.endsWith(".json")) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`${shown(path)} is not valid JSON: ${(error as Error).message}`);
    }
  }
  // esbuild is loaded only when a script config exists: the language server's start pays nothing otherwise.
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  let code: string;
  try {
    const result = esbuild.buildSync({
      entryPoints: [path],
      bundle: true,
      write: false,
      platform: "node",
      format: "cjs",
      target: "node20",
      // Packages resolve from the config's folder when it runs; `turnlens/config` is served below.
      packages: "external",
      logLevel: "silent",
      // The config's own file, not the bundle's (spelt in parts: a test file's bundler rewrites the whole words).
      define: {
        [`${IMPORT_META}.url`]: JSON.stringify(pathToFileURL(path).href),
        [`${IMPORT_META}.filename`]: JSON.stringify(path),
        [`${IMPORT_META}.dirname`]: JSON.stringify(dirname(path)),
      },
    });
    code = result.outputFiles[0]?.text ?? "";
  } catch (error) {
    const errors = (error as { errors?: Array<{ text: string; location?: { line: number; column: number } | null }> }).errors;
    const first = errors?.[0];
    const at = first?.location ? `:${first.location.line}:${first.location.column + 1}` : "";
    throw new ConfigError(`${shown(path)}${at}: ${first?.text ?? (error as Error).message}`);
  }
  const requireFromConfig = createRequire(path);
  const module = { exports: {} as Record<string, unknown> };
  // `turnlens/config` is Turnlens's own, whether or not the project installed it.
  const requireForConfig = (name: string) => (name === "turnlens/config" ? { defineConfig: (config: unknown) => config } : requireFromConfig(name));
  try {
    new Function("module", "exports", "require", "__filename", "__dirname", code)(module, module.exports, requireForConfig, path, dirname(path));
  } catch (error) {
    throw new ConfigError(`${shown(path)} failed to load: ${error instanceof Error ? error.message : String(error)}`);
  }
  const exported = module.exports;
  const value = exported.__esModule || "default" in exported ? exported.default : exported;
  if (value instanceof Promise || (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"))
    throw new ConfigError(`${shown(path)} must export its settings, not a promise of them`);
  return value;
}

/**
 * The nearest config searching up from `from`: the first folder with a turnlens.config.* or a
 * package.json with a "turnlens" key. Two in one folder are refused, naming both (one place for
 * the settings, not a precedence to remember).
 */
export function findProjectConfig(from: string): ProjectConfig | undefined {
  let dir = resolve(from);
  for (;;) {
    const found: string[] = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((path) => existsSync(path));
    const pkgPath = join(dir, "package.json");
    if (existsSync(pkgPath) && packageHasKey(pkgPath)) found.push(pkgPath);
    if (found.length > 1) {
      const names = found.map((path) => (basename(path) === "package.json" ? `package.json's "turnlens" key` : basename(path)));
      throw new ConfigError(`${names.slice(0, -1).join(", ")} and ${names.at(-1)} both configure Turnlens in ${shown(dir)}; keep one`);
    }
    if (found[0]) return loadConfigFile(found[0]);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function packageHasKey(path: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(path, "utf8")) as { turnlens?: unknown };
    return pkg.turnlens !== undefined;
  } catch {
    return false; // an unreadable package.json configures nothing, as before
  }
}
