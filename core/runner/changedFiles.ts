// `turnlens test --changed [ref]`: the test files changed since a git ref (default: the uncommitted
// changes, staged or not, and untracked files), plus the test files whose module graph holds a
// changed file (one esbuild pass with a metafile over the test files, no code run).
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";
import { DependencyGraph } from "../execution/dependencyGraph.ts";
import { servedNames } from "../execution/served.ts";
import { canonicalPath } from "./watchGraph.ts";

/** `--changed` cannot be answered: not a git repository, or git does not know the ref. */
export class ChangedFilesError extends Error {}

function git(args: string[], cwd: string): string {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new ChangedFilesError("--changed needs git, which is not installed (or not on PATH)");
    throw new ChangedFilesError(`--changed: git ${args.join(" ")} failed${stderr ? `: ${stderr.split("\n")[0]}` : ""}`);
  }
}

/** The absolute paths git sees changed since `ref` (true: since HEAD, the uncommitted changes), untracked files included. */
export function changedPaths(cwd: string, ref: string | true): string[] {
  let top: string;
  try {
    top = git(["rev-parse", "--show-toplevel"], cwd).trim();
  } catch (error) {
    throw new ChangedFilesError(`--changed needs a git repository: ${cwd} is not in one (${(error as Error).message})`);
  }
  const since = ref === true ? "HEAD" : ref;
  const isCommit = (name: string) => {
    try {
      git(["rev-parse", "--verify", "--quiet", `${name}^{commit}`], top);
      return true;
    } catch {
      return false;
    }
  };
  if (ref !== true && !isCommit(ref)) throw new ChangedFilesError(`--changed ${ref}: git knows no commit, branch or tag of that name`);
  // A repository with no commit yet: every file is a change.
  const hasHead = ref !== true || isCommit("HEAD");
  const lines = (text: string) => text.split("\0").filter((line) => line !== "");
  const diffed = hasHead ? lines(git(["diff", "--name-only", "-z", since, "--"], top)) : lines(git(["ls-files", "-z"], top));
  const untracked = lines(git(["ls-files", "-z", "--others", "--exclude-standard"], top));
  return [...new Set([...diffed, ...untracked])].map((path) => join(top, path));
}

/** A declaration file (`.d.ts`, `.d.mts`, `.d.cts`): types for tsc, no module a bundle reads. */
const DECLARATION = /\.d\.[cm]?ts$/;

/**
 * The names a run's bundle takes from Turnlens (served.ts) are external here too, before any
 * tsconfig path: `turnlens init` maps them (typebox too) to Turnlens's declarations for tsc, and
 * esbuild would follow those paths into `.d.mts` files whose imports do not resolve, failing the
 * pass, so every test importing typebox counted as changed. A bare name a path sends to any other
 * declaration file is left out the same way: a run never bundles one.
 */
function servedFirst(): Plugin {
  const served = new Set(servedNames);
  return {
    name: "turnlens-served-first",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.servedFirst || args.kind === "entry-point") return undefined;
        if (served.has(args.path)) return { path: args.path, external: true };
        const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { servedFirst: true } });
        return resolved.errors.length === 0 && DECLARATION.test(resolved.path) ? { path: args.path, external: true } : undefined;
      });
    },
  };
}

/** Each test file's project inputs (itself, the files it imports through any depth; no packages), from one esbuild pass. */
async function moduleGraph(testFiles: string[], cwd: string): Promise<{ graph: DependencyGraph; unknown: Set<string> }> {
  const graph = new DependencyGraph();
  const unknown = new Set<string>();
  const record = (metafile: Metafile) => {
    for (const output of Object.values(metafile.outputs)) {
      if (!output.entryPoint) continue;
      const entry = canonicalPath(resolve(cwd, output.entryPoint));
      graph.set(
        entry,
        Object.keys(output.inputs).map((input) => canonicalPath(resolve(cwd, input))),
      );
    }
  };
  const pass = (entryPoints: string[]) =>
    build({
      entryPoints,
      bundle: true,
      write: false,
      metafile: true,
      outdir: join(cwd, ".turnlens-changed"),
      platform: "node",
      format: "esm",
      // Packages are not the project's files (the watch graph leaves them out too), nor the served names.
      packages: "external",
      external: ["bun:test"],
      plugins: [servedFirst()],
      logLevel: "silent",
      absWorkingDir: cwd,
    });
  try {
    record((await pass(testFiles)).metafile);
  } catch {
    // One file that does not bundle fails the pass: each file alone then, and one that still fails
    // is kept (its graph is not known, so any change may be its).
    for (const file of testFiles) {
      try {
        record((await pass([file])).metafile);
      } catch {
        graph.set(canonicalPath(file), []);
        unknown.add(canonicalPath(file));
      }
    }
  }
  return { graph, unknown };
}

/** The test files of `testFiles` that changed since `ref`, or that import a changed file, in their order. */
export async function changedTestFiles(testFiles: string[], ref: string | true, cwd: string): Promise<string[]> {
  const changed = new Set(changedPaths(cwd, ref).map(canonicalPath));
  if (changed.size === 0 || testFiles.length === 0) return [];
  const { graph, unknown } = await moduleGraph(testFiles, cwd);
  const affected = new Set([...changed].flatMap((path) => graph.dependents(path)));
  return testFiles.filter((file) => {
    const canonical = canonicalPath(file);
    return changed.has(canonical) || affected.has(canonical) || unknown.has(canonical);
  });
}
