// Which files `turnlens test` runs: the paths given (files or folders searched recursively), else
// the `turnlens.include` list of the nearest package.json with a `turnlens` field, else the cwd.
// That package.json's `turnlens.exclude` globs are skipped while searching folders, except inside
// a path named on the command line.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { glob } from "tinyglobby";

export const TEST_FILE_GLOB = "**/*.{test,spec}.{ts,mts,cts,tsx,js,mjs,cjs,jsx}";
const TEST_FILE = /\.(test|spec)\.(ts|mts|cts|tsx|js|mjs|cjs|jsx)$/;
const ALWAYS_SKIPPED = ["**/node_modules/**", "**/dist/**", "**/.*/**"];

export function isTestFile(file: string): boolean {
  return TEST_FILE.test(file);
}

export interface ProjectConfig {
  /** Folder of the package.json the config came from. */
  root: string;
  include?: string[];
  exclude: string[];
}

/** The nearest package.json with a `turnlens` field, searching up from `from`. */
export function findConfig(from: string): ProjectConfig | undefined {
  let dir = resolve(from);
  for (;;) {
    const pkgPath = join(dir, "package.json");
    if (existsSync(pkgPath)) {
      try {
        const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { turnlens?: { include?: unknown; exclude?: unknown } };
        if (pkg.turnlens && typeof pkg.turnlens === "object") {
          const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined);
          const config: ProjectConfig = { root: dir, exclude: strings(pkg.turnlens.exclude) ?? [] };
          const include = strings(pkg.turnlens.include);
          if (include) config.include = include;
          return config;
        }
      } catch {
        // an unreadable package.json does not configure anything
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** A glob as a regular expression over `/`-separated relative paths: `**`, `*`, `?`, `{a,b}`. */
export function globToRegExp(pattern: string): RegExp {
  let p = pattern.replace(/\\/g, "/").replace(/^\.\//, "");
  if (p.endsWith("/")) p = p.slice(0, -1);
  let out = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "*") {
      if (p[i + 1] === "*") {
        const slashBefore = i === 0 || p[i - 1] === "/";
        const slashAfter = p[i + 2] === "/" || i + 2 === p.length;
        if (slashBefore && slashAfter) {
          if (p[i + 2] === "/") {
            out += "(?:.*/)?";
            i += 2;
          } else {
            // trailing /** also matches the folder itself
            if (out.endsWith("/")) out = out.slice(0, -1) + "(?:/.*)?";
            else out += ".*";
            i += 1;
          }
          continue;
        }
        out += "[^/]*";
        i += 1;
        continue;
      }
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "{") {
      const end = p.indexOf("}", i);
      if (end < 0) {
        out += "\\{";
        continue;
      }
      const alternatives = p.slice(i + 1, end).split(",").map((a) => globToRegExp(a).source.slice(1, -1));
      out += `(?:${alternatives.join("|")})`;
      i = end;
    } else if ("\\^$.|+()[]".includes(c)) out += `\\${c}`;
    else out += c;
  }
  return new RegExp(`^${out}$`);
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** Whether `relPath` (relative to the config root) or one of its folders matches `pattern`. */
function excludedBy(pattern: RegExp, relPath: string): boolean {
  const parts = relPath.split("/");
  for (let i = parts.length; i > 0; i--) {
    if (pattern.test(parts.slice(0, i).join("/"))) return true;
  }
  return false;
}

export class UsageError extends Error {}

export interface Discovery {
  files: string[];
  /** Folders searched, for --watch. */
  dirs: string[];
  config?: ProjectConfig;
}

/**
 * The test files to run, sorted. `paths` as given on the command line (relative to `cwd`); a
 * missing path throws a UsageError.
 */
export async function discoverTests(paths: string[], cwd: string): Promise<Discovery> {
  const config = findConfig(cwd);
  const explicit = paths.length > 0;
  let targets: string[];
  if (explicit) targets = paths.map((p) => resolve(cwd, p));
  else if (config?.include && config.include.length > 0) targets = config.include.map((p) => resolve(config.root, p)).filter((p) => existsSync(p));
  else targets = [cwd];

  const excludes = (config?.exclude ?? []).map((g) => globToRegExp(g));
  const files = new Set<string>();
  const dirs: string[] = [];
  for (const target of targets) {
    if (!existsSync(target)) throw new UsageError(`no such file or directory: ${paths[targets.indexOf(target)] ?? target}`);
    if (statSync(target).isFile()) {
      files.add(target); // named files always run
      continue;
    }
    dirs.push(target);
    // A path named on the command line is searched even when an exclude glob covers it.
    const relTarget = config ? toPosix(relative(config.root, target)) : "";
    const inside = config && relTarget !== "" && !relTarget.startsWith("..") && !isAbsolute(relTarget);
    const active = excludes.filter((re) => !(explicit && inside && excludedBy(re, relTarget)));
    const found = await glob(TEST_FILE_GLOB, { cwd: target, absolute: true, ignore: ALWAYS_SKIPPED, dot: false });
    for (const file of found) {
      const abs = resolve(file);
      if (config && active.length > 0) {
        const rel = toPosix(relative(config.root, abs));
        if (!rel.startsWith("..") && active.some((re) => excludedBy(re, rel))) continue;
      }
      files.add(abs);
    }
  }
  return { files: [...files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), dirs, ...(config ? { config } : {}) };
}

/** The i-th (1-based) of n shares of `files`: every n-th file of the sorted list. */
export function shard(files: string[], index: number, count: number): string[] {
  return files.filter((_, i) => i % count === index - 1);
}
