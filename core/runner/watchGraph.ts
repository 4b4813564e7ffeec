// Which test files a change reruns, for `turnlens test --watch`: each test file's last run reports
// the project files its bundle read (its inputs), and a changed file reruns the test files whose
// inputs hold it. A test file whose inputs are not known yet (before its first run, or when it did
// not bundle) reruns on any change, since any file might be the one it needs.
import { realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";

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
  /** Canonical test file → its canonical inputs; absent while not known. */
  private readonly inputsOf = new Map<string, Set<string>>();
  /** Canonical input → the canonical test files that read it. */
  private readonly dependentsOf = new Map<string, Set<string>>();

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
      this.forget(key);
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
    this.forget(key);
    if (inputs === undefined) return;
    const set = new Set(inputs.map(canonicalPath));
    set.add(key); // its own change always reruns it
    this.inputsOf.set(key, set);
    for (const input of set) {
      let dependents = this.dependentsOf.get(input);
      if (!dependents) this.dependentsOf.set(input, (dependents = new Set()));
      dependents.add(key);
    }
  }

  /** Every input of every test file with known inputs, for watching folders outside the project. */
  allInputs(): string[] {
    return [...this.dependentsOf.keys()];
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
      for (const dependent of this.dependentsOf.get(key) ?? []) rerun.add(dependent);
      const under = key + sep;
      for (const [input, dependents] of this.dependentsOf) {
        if (input.startsWith(under)) for (const dependent of dependents) rerun.add(dependent);
      }
      if (this.tests.has(key)) rerun.add(key);
    }
    if (changed.length > 0) for (const key of this.tests.keys()) if (!this.inputsOf.has(key)) rerun.add(key);
    return [...this.tests].filter(([key]) => rerun.has(key)).map(([, file]) => file);
  }

  /** Whether the path (or, for a folder, a file under it) is a test file or among some test file's known inputs. */
  reads(path: string): boolean {
    const key = canonicalPath(path);
    if (this.tests.has(key) || this.dependentsOf.has(key)) return true;
    const under = key + sep;
    return [...this.dependentsOf.keys(), ...this.tests.keys()].some((path) => path.startsWith(under));
  }

  private forget(key: string): void {
    for (const input of this.inputsOf.get(key) ?? []) {
      const dependents = this.dependentsOf.get(input);
      dependents?.delete(key);
      if (dependents?.size === 0) this.dependentsOf.delete(input);
    }
    this.inputsOf.delete(key);
  }
}
