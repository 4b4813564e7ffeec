// The project's Turnlens config: which file it is (the nearest turnlens.config.{ts,mts,js,mjs,json},
// or a package.json with a "turnlens" key, searching up from a folder to the project's root and no
// further), and its keys checked, an unknown one refused with the nearest name. Loading a file is
// configLoader.ts's (a script config runs in a process of its own, configProcess.ts).
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { noSuchOption, suggestName } from "../workflow/unknownOptions.ts";
import { MAX_TIMER_MS } from "../execution/limits.ts";
import { REPORTER_NAMES } from "./config.ts";
import { defineProblem, defineTexts } from "../execution/viteDefine.ts";

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
  /** Vite's `define`, each value as source text (viteDefine.ts). */
  define?: Record<string, string>;
  /** Environment variables of each test file, as Vitest's `test.env`. */
  env?: Record<string, string>;
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
  define: {
    expected: "an object of replacements by name, each JSON text or a name as a string (such as { __VERSION__: '\"1.2\"' }), or a plain value",
    // Each entry's own problem is said below, by name.
    check: isPlainObject,
  },
  env: {
    expected: 'an object of strings by variable name (such as { API_URL: "http://localhost" })',
    check: (value) => isPlainObject(value) && Object.values(value).every((text) => typeof text === "string"),
  },
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
export function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel;
}

/** Checks a config's keys and values and makes it a ProjectConfig. `where` names it in refusals. */
export function checkConfig(raw: unknown, file: string, where: string): ProjectConfig {
  if (!isPlainObject(raw)) throw new ConfigError(`${where} must be an object of settings (export default defineConfig({ ... })), not ${describe(raw)}`);
  for (const [key, value] of Object.entries(raw)) {
    // Own keys only: a key named "toString" or "constructor" is an unknown key, not Object's method.
    const rule = Object.hasOwn(KEYS, key) ? KEYS[key] : undefined;
    if (!rule) {
      const meant = Object.hasOwn(OTHER_NAMES, key) ? OTHER_NAMES[key] : undefined;
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
  if (raw.define !== undefined) {
    const define = raw.define as Record<string, unknown>;
    for (const [name, replacement] of Object.entries(define)) {
      const problem = defineProblem(name, replacement);
      if (problem) throw new ConfigError(`${where}: "define" ${problem}`);
    }
    config.define = defineTexts(define);
  }
  if (raw.env !== undefined) config.env = { ...(raw.env as Record<string, string>) };
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

/** Reads and checks a package.json's "turnlens" key, or a turnlens.config.json: plain data, read in this process. */
export function readJsonConfig(path: string): ProjectConfig {
  if (basename(path) === "package.json") return packageConfig(path);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`${shown(path)} is not valid JSON: ${(error as Error).message}`);
  }
  return checkConfig(raw, path, shown(path));
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

/**
 * The folder the config search stops at, from `from` up: the nearest one holding a package.json or
 * a .git (a folder, or a worktree's file), the project's root. With neither up to `/`, the search
 * does not leave the folder it started from: `from` itself (the CLI's cwd), or `outermost` when
 * `from` is inside it (the editor's workspace folder). A folder above that is anyone's (a shared /tmp).
 */
export function projectRoot(from: string, outermost?: string): string {
  const start = resolve(from);
  for (let dir = start; ; ) {
    if (existsSync(join(dir, "package.json")) || existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return outermost !== undefined && isInside(start, resolve(outermost)) ? resolve(outermost) : start;
    dir = parent;
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The nearest config file searching up from `from` to the project's root (projectRoot) and no
 * further: the first folder with a turnlens.config.* or a package.json with a "turnlens" key. Two
 * in one folder are refused, naming both (one place for the settings, not a precedence to remember).
 */
export function findConfigFile(from: string, outermost?: string): string | undefined {
  const root = projectRoot(from, outermost);
  for (let dir = resolve(from); ; ) {
    const found: string[] = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((path) => existsSync(path));
    const pkgPath = join(dir, "package.json");
    if (existsSync(pkgPath) && packageHasKey(pkgPath)) found.push(pkgPath);
    if (found.length > 1) {
      const names = found.map((path) => (basename(path) === "package.json" ? `package.json's "turnlens" key` : basename(path)));
      throw new ConfigError(`${names.slice(0, -1).join(", ")} and ${names.at(-1)} both configure Turnlens in ${shown(dir)}; keep one`);
    }
    if (found[0]) return found[0];
    const parent = dirname(dir);
    if (dir === root || parent === dir) return undefined;
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
