// Snapshots as Vitest writes them, on @vitest/snapshot: the state of the file being run (its
// `__snapshots__/<file>.snap`, its inline snapshots, its file snapshots), the match every snapshot
// matcher makes, and the write when the file ends. The runner (core/execution/runFile.ts) begins and
// ends a file here; the matchers (snapshotMatchers.ts, a chai plugin in chaiPlugins.ts) call `matchSnapshot`.
import { SnapshotClient, addSerializer, stripSnapshotIndentation, type SnapshotResult, type SnapshotState } from "@vitest/snapshot";
import { NodeSnapshotEnvironment } from "@vitest/snapshot/environment";
import { diff } from "@vitest/utils/diff";
import type { SourceSite as Site } from "../testing/trace.ts";
import { runningTest } from "./collector.ts";

/** Vitest's `updateSnapshot`: `all` (-u) rewrites, `new` writes only missing ones, `none` (CI) writes nothing. */
export type SnapshotUpdate = "all" | "new" | "none";

/** The matchers, by the name a test calls. */
export type SnapshotKind = "toMatchSnapshot" | "toMatchInlineSnapshot" | "toThrowErrorMatchingSnapshot" | "toThrowErrorMatchingInlineSnapshot" | "toMatchFileSnapshot";

/** One snapshot that did not match, as a client needs it to show the diff or update it. */
export interface SnapshotFailure {
  kind: SnapshotKind;
  /** The runner's id of the test that made it. */
  testId: string;
  /** Its key in the .snap file (`describe > test 1`); for an inline snapshot, the key Vitest counts it under. */
  key: string;
  /** The .snap file, the file of a file snapshot, or the source file an inline snapshot is written in. */
  file: string;
  /** An inline snapshot's call: its line and column in `file` (1-based). */
  site?: Site;
  expected?: string;
  actual: string;
}

/** What a file's snapshots came to, with Vitest's counts (`SnapshotResult`). */
export interface SnapshotFileResult {
  /** The .snap file. */
  snapshotFile: string;
  /** What the run could write: under `all` the obsolete snapshots were removed. */
  update: SnapshotUpdate;
  added: number;
  matched: number;
  unmatched: number;
  updated: number;
  /** Obsolete: in the .snap file, checked by no test that ran (removed under -u). */
  unchecked: number;
  uncheckedKeys: string[];
  /** The .snap file was left with no snapshot (and removed under -u). */
  fileDeleted: boolean;
  failures: SnapshotFailure[];
}

/** What the running test is, for a snapshot's key: Turnlens's collector today. */
export interface SnapshotTest {
  /** The describe names and the test name, joined by " > " as Vitest's keys are. */
  name: string;
  id: string;
}

/** How a runner names the test an `expect` is bound to (its task); undefined: the collector's running test. */
let testOfTask: ((task: unknown) => SnapshotTest | undefined) | undefined;

/**
 * Set by a runner whose `expect` carries its test (@vitest/runner's: `context.expect`, and the
 * global `expect` bound to the test last started): a snapshot is keyed by that test, as under
 * Vitest, not by whichever concurrent test the runner started last.
 */
export function setSnapshotTestOf(resolve: ((task: unknown) => SnapshotTest | undefined) | undefined): void {
  testOfTask = resolve;
}

/** The test a snapshot belongs to: the assertion's own (`task`) when the runner names it, else the running one. */
export function currentSnapshotTest(task?: unknown): SnapshotTest | undefined {
  const bound = task !== undefined && testOfTask ? testOfTask(task) : undefined;
  if (bound) return bound;
  const test = runningTest();
  if (!test) return undefined;
  const path = test.path ?? [test.name];
  return { name: path.join(" > "), id: test.id ?? path.join(" › ") };
}

/** Vitest's environment: its header, `__snapshots__/<file>.snap` beside the test file. */
class TurnlensSnapshotEnvironment extends NodeSnapshotEnvironment {
  override getHeader(): string {
    return `// Vitest Snapshot v${this.getVersion()}, https://vitest.dev/guide/snapshot.html`;
  }
}

interface FileState {
  file: string;
  update: SnapshotUpdate;
  /** Where a matcher was called, in the user's file, from a stack the runner knows how to read. */
  siteOf: (stack: string | undefined) => Site | undefined;
  failures: SnapshotFailure[];
}

let current: FileState | undefined;
let client: SnapshotClient | undefined;
/** `toMatchSnapshot(properties)`'s comparison: the `expect` in use hands its own (`setSnapshotEquality`). */
let equality: (received: unknown, properties: unknown) => boolean = (received, properties) => Object.is(received, properties);

function theClient(): SnapshotClient {
  client ??= new SnapshotClient({ isEqual: (received, properties) => equality(received, properties) });
  return client;
}

/** Sets how `properties` are compared (Vitest: `equals` with iterable and subset equality). */
export function setSnapshotEquality(isEqual: (received: unknown, properties: unknown) => boolean): void {
  equality = isEqual;
}

/** `expect.addSnapshotSerializer`. */
export { addSerializer as addSnapshotSerializer };

/** Starts `file`'s snapshots: reads its .snap file. `siteOf` finds a call's line in a stack. */
export async function beginSnapshots(file: string, update: SnapshotUpdate, siteOf: FileState["siteOf"]): Promise<void> {
  theClient().clear();
  current = { file, update, siteOf, failures: [] };
  await theClient().setup(file, { updateSnapshot: update, snapshotEnvironment: new TurnlensSnapshotEnvironment(), snapshotFormat: {} });
}

/** The running file's snapshot state, as Vitest puts it on `expect.getState().snapshotState`; undefined outside a file. */
export function currentSnapshotState(): SnapshotState | undefined {
  return current ? theClient().getSnapshotState(current.file) : undefined;
}

/** A test skipped: its snapshots are not obsolete (Vitest's `skipTest`). */
export function skipSnapshotTest(path: readonly string[]): void {
  if (current) theClient().skipTest(current.file, path.join(" > "));
}

/** A test about to be tried (again): what an earlier try counted is forgotten (Vitest's `clearTest`). */
export function clearSnapshotTest(id: string): void {
  if (!current) return;
  theClient().clearTest(current.file, id);
  current.failures = current.failures.filter((failure) => failure.testId !== id);
}

/**
 * A run of some of the file's tests by id (the editor's "Update this snapshot", a resumed file): no
 * snapshot the run did not check is obsolete, so none is removed under `all`. The keys are marked
 * checked through the names they were made under (`name 1`, `name > hint 1`), as a skipped test's are.
 */
export function keepUncheckedSnapshots(): void {
  if (!current) return;
  const state = theClient().getSnapshotState(current.file);
  for (const key of state.getUncheckedKeys()) state.markSnapshotsAsCheckedForTest(key.replace(/ \d+$/, ""));
}

/**
 * Ends the file: obsolete snapshots found (and removed under `all`), the .snap file and inline
 * snapshots written. Undefined when the file had no snapshot state.
 */
export async function finishSnapshots(): Promise<SnapshotFileResult | undefined> {
  const state = current;
  if (!state) return undefined;
  current = undefined;
  const snapshotFile = theClient().getSnapshotState(state.file).snapshotPath;
  const result: SnapshotResult = await theClient().finish(state.file);
  return {
    snapshotFile,
    update: state.update,
    added: result.added,
    matched: result.matched,
    unmatched: result.unmatched,
    updated: result.updated,
    unchecked: result.unchecked,
    uncheckedKeys: result.uncheckedKeys,
    fileDeleted: result.fileDeleted,
    failures: state.failures,
  };
}

/** What the matchers return: the shape of a custom matcher's result. */
export interface SnapshotMatch {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

export interface SnapshotCall {
  kind: SnapshotKind;
  received: unknown;
  properties?: object;
  hint?: string;
  /** An inline snapshot's text as written (indented), undefined for a first run. */
  inlineSnapshot?: string;
  /** `expect(x, message)`'s message. */
  errorMessage?: string;
  /** A file snapshot's path (resolved) and content, undefined when there is no such file yet. */
  raw?: { file: string; content?: string };
  /** The test the assertion is bound to (chai's `vitest-test` flag), when it has one. */
  task?: unknown;
  /**
   * The error `.resolves`/`.rejects` made at the user's call (chai's `error` flag): the matcher runs
   * later, off a promise, so the inline snapshot's line is read from this error's stack (as Vitest does).
   */
  callError?: Error;
}

function stateOf(kind: SnapshotKind, task?: unknown): { state: FileState; snapshots: SnapshotState; test: SnapshotTest } {
  const test = currentSnapshotTest(task);
  if (!current || !test) throw new Error(`'${kind}' cannot be used without test context`);
  return { state: current, snapshots: theClient().getSnapshotState(current.file), test };
}

/** A stack @vitest/snapshot reads an inline snapshot's place from: the user's call, already mapped to the source. */
function inlineStackError(state: FileState, kind: SnapshotKind, callError: Error | undefined): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder);
  Error.stackTraceLimit = limit;
  const site = state.siteOf(holder.stack) ?? (callError ? state.siteOf(callError.stack) : undefined);
  if (!site) throw new Error(`${kind}: the line of the call could not be found in the test's stack`);
  // @vitest/snapshot takes the frame after one named __INLINE_SNAPSHOT_OFFSET_1__, and parses no
  // stack that already has `stacks`: the site is the bundle's frame mapped back to the .ts source.
  const stacks = [
    { method: "__INLINE_SNAPSHOT_OFFSET_1__", file: site.file, line: site.line, column: site.column },
    { method: "", file: site.file, line: site.line, column: site.column },
  ];
  return Object.assign(new Error("snapshot"), { stacks });
}

/** Matches `received` against its snapshot; records a failure for the file's report. Throws on misuse. */
export function matchSnapshot(call: SnapshotCall): SnapshotMatch {
  const { state, snapshots, test } = stateOf(call.kind, call.task);
  const isInline = call.kind === "toMatchInlineSnapshot" || call.kind === "toThrowErrorMatchingInlineSnapshot";
  const inlineSnapshot = call.inlineSnapshot === undefined ? undefined : stripSnapshotIndentation(call.inlineSnapshot);
  const testName = [test.name, ...(call.hint ? [call.hint] : [])].join(" > ");
  const key = snapshots.probeExpectedSnapshot({ testName, testId: test.id, isInline, ...(inlineSnapshot === undefined ? {} : { inlineSnapshot }) }).key;
  const error = isInline ? inlineStackError(state, call.kind, call.callError) : undefined;
  // Copied now: @vitest/snapshot moves the frame's column to its own 0-based one.
  const site = error ? { ...(error as Error & { stacks: Site[] }).stacks[1]! } : undefined;
  const rawSnapshot = call.raw;
  const result = theClient().match({
    received: call.received,
    filepath: state.file,
    name: test.name,
    testId: test.id,
    isInline,
    assertionName: call.kind,
    ...(call.properties === undefined ? {} : { properties: call.properties }),
    ...(call.hint === undefined ? {} : { message: call.hint }),
    ...(inlineSnapshot === undefined ? {} : { inlineSnapshot }),
    ...(error ? { error } : {}),
    ...(call.errorMessage === undefined ? {} : { errorMessage: call.errorMessage }),
    ...(rawSnapshot ? { rawSnapshot } : {}),
  });
  if (result.pass) return result;
  const actual = typeof result.actual === "string" ? result.actual : String(result.actual);
  const expected = result.expected === undefined ? undefined : typeof result.expected === "string" ? result.expected : String(result.expected);
  state.failures.push({
    kind: call.kind,
    testId: test.id,
    key,
    file: rawSnapshot ? rawSnapshot.file : site ? site.file : snapshots.snapshotPath,
    ...(site ? { site: { file: site.file, line: site.line, column: site.column } } : {}),
    ...(expected === undefined ? {} : { expected }),
    actual,
  });
  return result;
}

/** `toMatchFileSnapshot`: reads the file (asynchronously, as Vitest does), then matches. */
export async function matchFileSnapshot(call: SnapshotCall, rawFile: string): Promise<SnapshotMatch> {
  const { state, snapshots } = stateOf(call.kind, call.task);
  const file = await snapshots.environment.resolveRawPath(state.file, rawFile);
  const content = await snapshots.environment.readSnapshotFile(file);
  return matchSnapshot({ ...call, raw: content === null ? { file } : { file, content } });
}

/** Vitest's getError: the error a function throws (or, after `.rejects`, the value itself). */
export function thrownBy(received: unknown, promise: string | undefined): unknown {
  if (typeof received !== "function") {
    if (!promise) throw new Error(`expected must be a function, received ${typeof received}`);
    return received;
  }
  try {
    received();
  } catch (error) {
    return error;
  }
  throw new Error("snapshot function didn't throw");
}

/** A mismatch's message as a reporter prints it: Vitest's first line, then the diff of the snapshots. */
export function mismatchMessage(result: SnapshotMatch, customMessage?: string): string {
  const head = (customMessage ? `${customMessage}: ` : "") + result.message();
  if (typeof result.actual !== "string") return head;
  const shown = diff(result.expected ?? "", result.actual, { expand: false });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the diff's colours are stripped; the reporters paint their own
  const plain = (shown ?? "").replace(/\u001b\[[0-9;]*m/g, "");
  return plain ? `${head}\n\n${plain}` : head;
}
