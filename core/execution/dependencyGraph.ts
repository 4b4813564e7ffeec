// The files each test file's last run read (the runner reports them as a run's inputs) and the
// reverse map: which test files a change to a file affects. One graph for `turnlens test --watch`
// (watchGraph.ts) and the language server (server/state.ts); callers choose how paths are spelled.

export class DependencyGraph {
  private readonly inputsOf = new Map<string, ReadonlySet<string>>();
  private readonly dependentsOf = new Map<string, Set<string>>();

  /** Replaces what `testFile` depends on by what its latest run read (a test file reads itself). */
  set(testFile: string, inputs: Iterable<string>): void {
    this.forget(testFile);
    const read = new Set(inputs);
    read.add(testFile);
    this.inputsOf.set(testFile, read);
    for (const input of read) {
      let dependents = this.dependentsOf.get(input);
      if (!dependents) this.dependentsOf.set(input, (dependents = new Set()));
      dependents.add(testFile);
    }
  }

  forget(testFile: string): void {
    for (const input of this.inputsOf.get(testFile) ?? []) {
      const dependents = this.dependentsOf.get(input);
      dependents?.delete(testFile);
      if (dependents?.size === 0) this.dependentsOf.delete(input);
    }
    this.inputsOf.delete(testFile);
  }

  /** The files the test file's last run read (itself included); undefined before it ran. */
  inputs(testFile: string): ReadonlySet<string> | undefined {
    return this.inputsOf.get(testFile);
  }

  /** The test files whose last run read `file`. */
  dependents(file: string): string[] {
    return [...(this.dependentsOf.get(file) ?? [])];
  }

  /** Every file some test file's last run read. */
  readFiles(): string[] {
    return [...this.dependentsOf.keys()];
  }
}
