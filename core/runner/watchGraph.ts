// Which test files a change reruns, for `turnlens test --watch`: each test file's last run reports
// the project files its bundle read (its inputs), and a changed file reruns the test files whose
// inputs hold it. A test file whose inputs are not known yet (before its first run, or when it did
// not bundle) reruns on any change, since any file might be the one it needs.
import { realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { DependencyGraph } from "../execution/dependencyGraph.ts";

/** The path with symlinks resolved (its folder's, for a file deleted meanwhile), so both sides compare alike. */
export function canonicalPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

export class TestGraph {
  /** Canonical test file → the path it runs under (as discovery reported it). */
  private readonly tests = new Map<string, string>();
  /** Canonical test files and their canonical inputs; a file is absent while its inputs are not known. */
  private readonly graph = new DependencyGraph();

  /** The test files, as run. */
  get files(): string[] {
    return [...this.tests.values()];
  }

  has(file: string): boolean {
    return this.tests.has(canonicalPath(file));
  }

  /** Makes `files` the watched test files; returns those added and those dropped. */
  setFiles(files: string[]): { added: string[]; removed: string[] } {
    const next = new Map(files.map((file) => [canonicalPath(file), file]));
    const removed: string[] = [];
    for (const [key, file] of this.tests) {
      if (next.has(key)) continue;
      this.graph.forget(key);
      this.tests.delete(key);
      removed.push(file);
    }
    const added: string[] = [];
    for (const [key, file] of next) {
      if (this.tests.has(key)) continue;
      this.tests.set(key, file);
      added.push(file);
    }
    return { added, removed };
  }

  /** What the file's last run read; `undefined` (it did not bundle) makes any change rerun it. */
  record(file: string, inputs: readonly string[] | undefined): void {
    const key = canonicalPath(file);
    if (!this.tests.has(key)) return;
    this.graph.forget(key);
    // (its own change always reruns it: the graph counts a test file among its inputs)
    if (inputs !== undefined) this.graph.set(key, inputs.map(canonicalPath));
  }

  /** Every input of every test file with known inputs, for watching folders outside the project. */
  allInputs(): string[] {
    return this.graph.readFiles();
  }

  /**
   * The test files to rerun for these changed paths, in run order: those whose inputs hold one, a
   * changed test file itself, and those whose inputs are not known. A path that is a folder (deleted
   * or moved) stands for the files under it.
   */
  affected(changed: string[]): string[] {
    const rerun = new Set<string>();
    for (const path of changed) {
      const key = canonicalPath(path);
      for (const dependent of this.graph.dependents(key)) rerun.add(dependent);
      const under = key + sep;
      for (const input of this.graph.readFiles()) {
        if (input.startsWith(under)) for (const dependent of this.graph.dependents(input)) rerun.add(dependent);
      }
      if (this.tests.has(key)) rerun.add(key);
    }
    if (changed.length > 0) for (const key of this.tests.keys()) if (this.graph.inputs(key) === undefined) rerun.add(key);
    return [...this.tests].filter(([key]) => rerun.has(key)).map(([, file]) => file);
  }

  /** Whether the path (or, for a folder, a file under it) is a test file or among some test file's known inputs. */
  reads(path: string): boolean {
    const key = canonicalPath(path);
    if (this.tests.has(key) || this.graph.dependents(key).length > 0) return true;
    const under = key + sep;
    return [...this.graph.readFiles(), ...this.tests.keys()].some((path) => path.startsWith(under));
  }
}
