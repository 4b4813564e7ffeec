// `--cache`: a test file whose inputs have not changed is reported from an earlier run's result,
// without running. Its key: the engine and Node, the run's settings, the project's config, package
// and lock files, the files its bundle read and the paths its code read as it ran (docs/ci.md).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { snapshotFileOf, turnlensRoot } from "../execution/paths.ts";
import type { FileReport, TestReport } from "../execution/report.ts";
import { type BlobFile, blobText, readBlobText } from "./blobReport.ts";
import type { CacheStore } from "./cacheStore.ts";
import { versionLine } from "./versionLine.ts";
import type { FileReach } from "../execution/runFile.ts";

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/** A file's bytes as a hash, or "-" when it is not there. */
function contentHash(path: string): string {
  try {
    return sha256(readFileSync(path));
  } catch {
    return "-";
  }
}

/**
 * What a test's code could have learnt by reading `path` as it ran: a file's bytes, a folder's
 * names, or that nothing is there ("-"), as a hash.
 */
function pathStateHash(path: string): string {
  try {
    return sha256(readFileSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EISDIR") return "-";
  }
  try {
    return sha256(`folder\n${readdirSync(path).sort().join("\n")}`);
  } catch {
    return "-";
  }
}

/** The project's files that change what any test does: its config, its packages and their lock, its tsconfig, the `.env` files. */
const PROJECT_FILES = [
  "turnlens.config.ts",
  "turnlens.config.mts",
  "turnlens.config.js",
  "turnlens.config.mjs",
  "turnlens.config.json",
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lock",
  "bun.lockb",
  "tsconfig.json",
  ".env",
  ".env.local",
  ".env.test",
  ".env.test.local",
];

/**
 * What a file's code may reach that its bytes do not say: processes, the network, the environment.
 * A test file whose bundle's text names any of these is never stored: its result may change while
 * every byte of its inputs stays the same. The worker also sees processes, threads, native addons
 * and connections as they happen, a package's too (runFile.ts's FileReach); the text is what
 * catches `process.env`, which a run does not watch. The file system is not among them: the worker
 * records what a file read as it ran (fileSystemReach.ts), and a result is keyed on it.
 */
const REACHES_OUTSIDE = /["'](?:node:)?(?:child_process|net|http|https|http2|dgram|worker_threads|cluster|dns|tls)["']|\bprocess\.env\b/;

/** A path whose text is code a test may run (a module imported at run time), checked against REACHES_OUTSIDE. */
const CODE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** What the run's settings are, as far as a test's result depends on them. */
export interface CacheRunSettings {
  pattern?: { source: string; flags: string };
  timeoutMs: number;
  setupFiles: readonly string[];
  vite: unknown;
  updateSnapshot: string;
  coverage: boolean;
}

/** A file's result as stored: what its run told the reporters, with line coverage when the run measured it. */
export interface CachedResult extends BlobFile {
  report: FileReport;
  coverage?: unknown;
}

/** What a stored result depends on: its bundle's inputs and the paths its code read as it ran. */
interface RecordedInputs {
  inputs: readonly string[];
  reads: readonly string[];
}

export interface CacheLookup {
  /** The key of the file's inputs as recorded (its manifest's), for the stored result. */
  fileKey: string;
  result?: CachedResult;
}

export class ResultCache {
  /** Files looked up, found, stored, and run again by `--cache-verify`. */
  looked = 0;
  found = 0;
  stored = 0;
  verified = 0;
  /** What `--cache-verify` found a cached result did not say: `file: why`, each a sentence. */
  readonly differences: string[] = [];
  /** The first error of each store, said once; that store is then left alone. */
  private readonly broken = new Set<CacheStore>();
  /**
   * Each input read once a run, by path: its bytes' hash and whether its code reaches outside
   * (undefined when it is not there). Test files share workflows and helpers; an input changed
   * since the run began is caught by `store`'s time check, not here.
   */
  private readonly inputs = new Map<string, { hash: string; reachesOutside: boolean } | undefined>();
  /** Each path a test's code read, by path: its state's hash (pathStateHash), once a run. */
  private readonly pathStates = new Map<string, string>();

  private constructor(
    private readonly stores: readonly CacheStore[],
    private readonly runKey: string,
    private readonly cwd: string,
    private readonly warn: (line: string) => void,
  ) {}

  /** A cache over `stores` (the first one asked first) for a run with `settings` in `cwd`. */
  static open(stores: readonly CacheStore[], settings: CacheRunSettings, cwd: string, warn: (line: string) => void): ResultCache {
    const engine = contentHash(join(turnlensRoot(), "dist", "workerMain.js"));
    const project = PROJECT_FILES.map((name) => [name, contentHash(join(cwd, name))]);
    const setup = settings.setupFiles.map((file) => [relative(cwd, file), contentHash(file)]);
    const runKey = sha256(JSON.stringify(["turnlens result cache 2", versionLine(), engine, project, { ...settings, setupFiles: setup }]));
    return new ResultCache(stores, runKey, cwd, warn);
  }

  /**
   * The stored result of `file` when every input it recorded has the bytes it had then; with its
   * tests' run traces when `traces` (kept apart: most runs' reporters read none, and they are most of an entry).
   */
  async lookup(file: string, traces: boolean): Promise<CacheLookup> {
    this.looked++;
    const fileKey = sha256(`${this.runKey}\n${relative(this.cwd, file)}`);
    const manifest = await this.get(fileKey);
    if (manifest === undefined) return { fileKey };
    let recorded: RecordedInputs;
    try {
      const parsed = JSON.parse(manifest) as { inputs: string[]; reads: string[] };
      recorded = { inputs: parsed.inputs.map((input) => resolve(this.cwd, input)), reads: parsed.reads.map((read) => resolve(this.cwd, read)) };
    } catch {
      return { fileKey };
    }
    const resultKey = this.resultKey(fileKey, file, recorded);
    const text = await this.get(resultKey);
    const tracesText = text !== undefined && traces ? await this.get(tracesKey(resultKey)) : undefined;
    if (text === undefined || (traces && tracesText === undefined)) return { fileKey };
    try {
      const result = readBlobText(text, this.cwd) as CachedResult;
      if (tracesText !== undefined) withRuns(result, readBlobText(tracesText, this.cwd) as Record<string, TestReport["runs"]>);
      this.found++;
      return { fileKey, result: { ...result, report: { ...result.report, cached: true } } };
    } catch {
      return { fileKey };
    }
  }

  /**
   * Stores a file's result under the bytes of its inputs and the state of what its code read,
   * unless it is not a pass, its code reaches what no byte says (REACHES_OUTSIDE in its text; as
   * it ran: a change outside the runner's folders, a process, a thread, a native addon, the
   * network), or an input or a path it read changed after `since` (the run's start: its bundle,
   * or its code, may have seen the older bytes).
   */
  async store(fileKey: string, result: CachedResult, ran: { inputs?: readonly string[]; reach?: FileReach }, since: number): Promise<void> {
    const { report } = result;
    const { inputs, reach } = ran;
    if (!inputs || inputs.length === 0 || !reach || reach.wroteOutside !== undefined || reach.started || reach.network) return;
    if (report.error || report.stopped || report.warnings?.length || report.tests.some((test) => test.status === "failed")) return;
    const changedSince = (path: string) => (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Number.NEGATIVE_INFINITY) > since;
    for (const input of inputs) {
      const read = this.input(input);
      if (!read || read.reachesOutside || changedSince(input)) return;
    }
    // A module its code imported at run time is read, not bundled: its text is checked as the bundle's is.
    if (reach.reads.some((read) => changedSince(read) || (CODE_FILE.test(read) && this.input(read)?.reachesOutside))) return;
    const recorded: RecordedInputs = { inputs, reads: reach.reads };
    const manifest = JSON.stringify({ inputs: inputs.map((input) => relative(this.cwd, input)), reads: reach.reads.map((read) => relative(this.cwd, read)) });
    const runs: Record<string, TestReport["runs"]> = Object.fromEntries(report.tests.map((test) => [test.id, test.runs]));
    const resultKey = this.resultKey(fileKey, result.file, recorded);
    await this.put(tracesKey(resultKey), blobText(runs, this.cwd));
    await this.put(resultKey, blobText(withRuns(structuredClone(result), {}), this.cwd));
    await this.put(fileKey, manifest);
    this.stored++;
  }

  /** `--cache-verify`: the file's fresh report against its cached one; a difference is kept, to be said and to fail the run. */
  compare(file: string, cached: FileReport, fresh: FileReport): void {
    this.verified++;
    const difference = cacheDifference(cached, fresh);
    if (difference) this.differences.push(`${relative(this.cwd, file)}: ${difference}`);
  }

  /** The line said after the run: what the cache gave, stored and, with --cache-verify, found. */
  summary(): string {
    const names = this.stores.map((store) => store.name).join(" and ");
    const verified =
      this.verified > 0 ? `; ${this.verified} run again to verify, ${this.differences.length === 0 ? "all alike" : `${this.differences.length} NOT alike`}` : "";
    return `cache: ${this.found} of ${this.looked} files from ${names}, ${this.stored} stored${verified}`;
  }

  /** The key of a result: the file's key, the bytes of its inputs and of its snapshot file, and the state of each path its code read. */
  private resultKey(fileKey: string, file: string, recorded: RecordedInputs): string {
    const snapshot = snapshotFileOf(file);
    // The snapshot file is read each time: a run may write it (a new snapshot), and its result is stored against the written bytes.
    const bytes = [
      ...recorded.inputs.map((input) => [relative(this.cwd, input), this.input(input)?.hash ?? "-"]),
      [relative(this.cwd, snapshot), contentHash(snapshot)],
      ...recorded.reads.map((read) => [relative(this.cwd, read), this.pathState(read)]),
    ];
    return sha256(`${fileKey}\n${JSON.stringify(bytes)}`);
  }

  /** A read path's state (pathStateHash), taken the first time the run asks. */
  private pathState(path: string): string {
    let state = this.pathStates.get(path);
    if (state === undefined) this.pathStates.set(path, (state = pathStateHash(path)));
    return state;
  }

  /** An input's hash and verdict, read the first time the run asks. */
  private input(path: string): { hash: string; reachesOutside: boolean } | undefined {
    if (this.inputs.has(path)) return this.inputs.get(path);
    let read: { hash: string; reachesOutside: boolean } | undefined;
    try {
      const bytes = readFileSync(path);
      read = { hash: sha256(bytes), reachesOutside: REACHES_OUTSIDE.test(bytes.toString("utf8")) };
    } catch {
      read = undefined;
    }
    this.inputs.set(path, read);
    return read;
  }

  private async get(key: string): Promise<string | undefined> {
    for (const store of this.stores) {
      if (this.broken.has(store)) continue;
      try {
        const text = await store.get(key);
        if (text !== undefined) return text;
      } catch (error) {
        this.fail(store, error);
      }
    }
    return undefined;
  }

  private async put(key: string, text: string): Promise<void> {
    for (const store of this.stores) {
      if (this.broken.has(store)) continue;
      try {
        await store.put(key, text);
      } catch (error) {
        this.fail(store, error);
      }
    }
  }

  private fail(store: CacheStore, error: unknown): void {
    this.broken.add(store);
    this.warn(`cache: ${store.name} is left alone for the rest of the run: ${(error as Error).message}`);
  }
}

/** The key of a result's run traces, kept apart from it. */
const tracesKey = (resultKey: string) => sha256(`${resultKey}\nruns`);

/** `result` with each test's run traces those of `runs` by test id (none where it has none), in its events and its report. */
function withRuns<T extends BlobFile>(result: T, runs: Readonly<Record<string, TestReport["runs"]>>): T {
  for (const event of result.events) if ("test" in event) event.test.runs = runs[event.test.id] ?? [];
  for (const test of result.report?.tests ?? []) test.runs = runs[test.id] ?? [];
  return result;
}

/** Whether `--cache-verify` runs this file again: its share of the hits, the same files for the same key. */
export function verifies(fileKey: string, percent: number): boolean {
  return Number.parseInt(fileKey.slice(0, 8), 16) % 10_000 < percent * 100;
}

/** What a run found that its cached result does not say, a sentence; undefined when they agree. */
export function cacheDifference(cached: FileReport, fresh: FileReport): string | undefined {
  if (fresh.error) return `it could not run now: ${fresh.error.message}`;
  const statusOf = (report: FileReport) => new Map(report.tests.map((test) => [test.path.join(" › "), test.status]));
  const before = statusOf(cached);
  const now = statusOf(fresh);
  for (const [name, status] of now) {
    const was = before.get(name);
    if (was === undefined) return `"${name}" is new (${status})`;
    if (was !== status) return `"${name}" was ${was} and is ${status} now`;
  }
  for (const name of before.keys()) if (!now.has(name)) return `"${name}" is gone`;
  return undefined;
}
