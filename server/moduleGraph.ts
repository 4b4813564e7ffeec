// What each test file depends on: the project files its last run read (core's runner reports them),
// the reverse map (which test files a change to a file reruns), and, for a file not run yet, its
// relative imports as written. Paths are absolute, as the runner reports them.
import { dirname, extname, resolve } from "node:path";

/** The extensions a relative import without one may name, in the order esbuild tries them. */
const IMPLIED_EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".css", ".json", ".mts", ".cts", ".mjs", ".cjs"];
/** `./x.js` in TypeScript names `./x.ts` (and so on), as esbuild resolves it. */
const TYPESCRIPT_FOR: Record<string, string[]> = { ".js": [".ts", ".tsx"], ".jsx": [".ts", ".tsx"], ".mjs": [".mts"], ".cjs": [".cts"] };

export class ModuleGraph {
  private readonly inputsOf = new Map<string, ReadonlySet<string>>();
  private readonly dependentsOf = new Map<string, Set<string>>();

  /** Replaces what `testFile` depends on by what its latest run read. */
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

  /** The test files whose last run read `file` (a test file reads itself). */
  dependents(file: string): string[] {
    return [...(this.dependentsOf.get(file) ?? [])];
  }
}

/**
 * Whether one of the test file's relative import specifiers (as written: `./workflow`,
 * `../lib/agents.js`, `./steps/index.ts`) may name `file`. No disk is read: the specifier's
 * possible files are compared with the path, so a file that does not exist yet (and is created
 * next) counts too.
 */
export function importsDirectly(testFile: string, specifiers: Iterable<string>, file: string): boolean {
  for (const specifier of specifiers) {
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) continue;
    if (candidatesOf(resolve(dirname(testFile), specifier)).includes(file)) return true;
  }
  return false;
}

function candidatesOf(base: string): string[] {
  const extension = extname(base);
  const candidates = [base];
  for (const typescript of TYPESCRIPT_FOR[extension] ?? []) candidates.push(base.slice(0, -extension.length) + typescript);
  for (const implied of IMPLIED_EXTENSIONS) candidates.push(base + implied, `${base}/index${implied}`);
  return candidates;
}
