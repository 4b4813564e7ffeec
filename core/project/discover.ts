// Which files `turnlens test` runs: the paths given (files or folders searched recursively), else
// the `include` list of the project's config (configFile.ts), else the cwd.
// The config's `exclude` globs are skipped while searching folders, except inside
// a path named on the command line. A folder search stays inside the project and finds each real
// file once: symlinks are followed only to where they really lead, and only inside the project.
import { existsSync, readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { ProjectConfig } from "./configFile.ts";
import { findProjectConfig } from "./configLoader.ts";

export type { ProjectConfig } from "./configFile.ts";

export const TEST_FILE_GLOB = "**/*.{test,spec}.{ts,mts,cts,tsx,js,mjs,cjs,jsx}";
const TEST_FILE = /\.(test|spec)\.(ts|mts|cts|tsx|js|mjs|cjs|jsx)$/;

/** The order a run takes its test files in (and merge-reports replays them in): by path, code unit by code unit. */
export function inRunOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function isTestFile(file: string): boolean {
  return TEST_FILE.test(file);
}

/** The nearest project config (configFile.ts): a turnlens.config.* or a package.json "turnlens" key. */
export function findConfig(from: string): Promise<ProjectConfig | undefined> {
  return findProjectConfig(from);
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
            if (out.endsWith("/")) out = `${out.slice(0, -1)}(?:/.*)?`;
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
      const alternatives = p
        .slice(i + 1, end)
        .split(",")
        .map((a) => globToRegExp(a).source.slice(1, -1));
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
export async function discoverTests(paths: string[], cwd: string, given?: { config: ProjectConfig | undefined }): Promise<Discovery> {
  const config = given ? given.config : await findConfig(cwd);
  const explicit = paths.length > 0;
  let targets: string[];
  if (explicit) targets = paths.map((p) => resolve(cwd, p));
  else if (config?.include && config.include.length > 0) targets = config.include.map((p) => resolve(config.root, p)).filter((p) => existsSync(p));
  else targets = [cwd];

  const excludes = (config?.exclude ?? []).map((g) => globToRegExp(g));
  // Real path → the path the file is reported under: each real file runs once.
  const files = new Map<string, string>();
  const dirs: string[] = [];
  for (const target of targets) {
    if (!existsSync(target)) throw new UsageError(`no such file or directory: ${paths[targets.indexOf(target)] ?? target}`);
    if (statSync(target).isFile()) {
      const real = realPathOf(target) ?? target;
      if (!files.has(real)) files.set(real, target); // named files always run
      continue;
    }
    dirs.push(target);
    // A path named on the command line is searched even when an exclude glob covers it.
    const relTarget = config ? toPosix(relative(config.root, target)) : "";
    const inside = config && !escapes(relTarget);
    const active = excludes.filter((re) => !(explicit && inside && relTarget !== "" && excludedBy(re, relTarget)));
    // What the search may reach: the project (or, for a folder outside it, that folder).
    const project = inside ? config.root : target;
    const excluded = (reported: string) => {
      if (!config || active.length === 0) return false;
      const rel = toPosix(relative(config.root, reported));
      return !escapes(rel) && active.some((re) => excludedBy(re, rel));
    };
    for (const { real, reported } of searchFolder(target, project, excluded)) {
      if (!files.has(real)) files.set(real, reported);
    }
  }
  return { files: [...files.values()].sort(inRunOrder), dirs, ...(config ? { config } : {}) };
}

/**
 * The test files under `folder`, walked with an explicit stack: node_modules, dist and dot-folders
 * skipped, `excluded` paths pruned. A symlink is followed only when it really leads inside
 * `project` (so the walk never reads outside it), and each real folder is entered once (so a loop
 * or an alias finds its files once). Files are reported under their real path in the project.
 */
function searchFolder(folder: string, project: string, excluded: (reported: string) => boolean): Array<{ real: string; reported: string }> {
  const realProject = realPathOf(project) ?? project;
  const realFolder = realPathOf(folder) ?? folder;
  const reportedOf = (real: string) => join(project, relative(realProject, real));
  const found: Array<{ real: string; reported: string }> = [];
  const entered = new Set<string>([realFolder]);
  const pending = [realFolder];
  while (pending.length > 0) {
    const real = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(real, { withFileTypes: true });
    } catch {
      continue; // gone or unreadable meanwhile
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      let childReal = join(real, entry.name);
      let isFolder = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const resolved = realPathOf(childReal);
        if (!resolved || escapes(toPosix(relative(realProject, resolved)))) continue;
        // Where it leads must be searchable too: not inside node_modules, dist or a dot-folder.
        const fromFolder = toPosix(relative(realFolder, resolved));
        if (skippedAlways(`${escapes(fromFolder) ? toPosix(relative(realProject, resolved)) : fromFolder}/x`)) continue;
        childReal = resolved;
        const stats = statSync(resolved, { throwIfNoEntry: false });
        isFolder = stats?.isDirectory() ?? false;
        isFile = stats?.isFile() ?? false;
      }
      if (isFolder) {
        if (entry.name === "node_modules" || entry.name === "dist" || entered.has(childReal) || excluded(reportedOf(childReal))) continue;
        entered.add(childReal);
        pending.push(childReal);
      } else if (isFile && isTestFile(entry.name) && !excluded(reportedOf(childReal))) {
        found.push({ real: childReal, reported: reportedOf(childReal) });
      }
    }
  }
  return found;
}

/** The file's real path (symlinks resolved); undefined for a broken link or a file gone meanwhile. */
function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether a relative path leads out of the folder it is relative to. */
function escapes(relPath: string): boolean {
  return relPath === ".." || relPath.startsWith("../") || isAbsolute(relPath);
}

/** The folders a search never enters (node_modules, dist, dot-folders), for a path reached through a symlink. */
function skippedAlways(relPath: string): boolean {
  const folders = relPath.split("/").slice(0, -1);
  return folders.some((folder) => folder === "node_modules" || folder === "dist" || folder.startsWith("."));
}
