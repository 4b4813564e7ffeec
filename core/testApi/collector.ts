// The tree a test file declares while it loads, shared by the test API (testApi.ts), which fills
// it, and the file runner (runFile.ts), which walks it.
import type { SourceSite as Site } from "../testing/trace.ts";
import { stackText } from "../testing/stackText.ts";

export type Flavour = "bun" | "vitest";

// biome-ignore lint/suspicious/noExplicitAny: any function, whatever its parameters (unknown[] would refuse most)
export type AnyFn = (...args: any[]) => unknown;

export interface HookEntry {
  fn: AnyFn;
  timeout?: number;
  site?: Site;
}

export interface Hooks {
  beforeAll: HookEntry[];
  afterAll: HookEntry[];
  beforeEach: HookEntry[];
  afterEach: HookEntry[];
}

export interface SuiteNode {
  kind: "suite";
  name: string;
  parent?: SuiteNode;
  children: Array<SuiteNode | TestNode>;
  skip: boolean;
  only: boolean;
  hooks: Hooks;
  site?: Site;
}

export interface TestNode {
  kind: "test";
  name: string;
  parent: SuiteNode;
  fn?: AnyFn;
  /** Arguments `test.each` passes to fn. */
  args?: unknown[];
  skip: boolean;
  only: boolean;
  todo: boolean;
  failing: boolean;
  timeout?: number;
  retry: number;
  site?: Site;
  flavour: Flavour;
}

export function newSuite(name: string, parent?: SuiteNode): SuiteNode {
  const suite: SuiteNode = {
    kind: "suite",
    name,
    children: [],
    skip: false,
    only: false,
    hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] },
  };
  if (parent) suite.parent = parent;
  return suite;
}

interface Collecting {
  root: SuiteNode;
  current: SuiteNode;
  file: string;
  /** The user's line in a stack trace; the runner hands it in, since reading stacks is the runner's. */
  siteOf: (stack: string | undefined) => Site | undefined;
  /** Set by bun's `setDefaultTimeout` from inside the file. */
  defaultTimeout?: number;
}

let collecting: Collecting | null = null;

/** Starts collecting the declarations of `file`, whose call sites `siteOf` reads from a stack. */
export function beginCollect(file: string, siteOf: Collecting["siteOf"]): Collecting {
  collecting = { root: newSuite(""), current: undefined as unknown as SuiteNode, file, siteOf };
  collecting.current = collecting.root;
  return collecting;
}

export function endCollect(): void {
  collecting = null;
}

export function collectingState(): Collecting | null {
  return collecting;
}

/** The suite new declarations go to; throws when no file is loading. */
export function currentSuite(what: string): SuiteNode {
  if (!collecting) {
    throw new Error(
      running
        ? `${what} was called inside a running test; declare tests and hooks at the top level or inside describe()`
        : `${what} was called outside a test file run by turnlens`,
    );
  }
  return collecting.current;
}

/** Runs `body` with `suite` as the suite declarations go to. */
export function withSuite(suite: SuiteNode, body: () => void): void {
  if (!collecting) throw new Error("describe() was called outside a test file run by turnlens");
  const previous = collecting.current;
  collecting.current = suite;
  try {
    body();
  } finally {
    collecting.current = previous;
  }
}

/** Frames a declaration's first capture keeps: the test file's call is nearly always among them. */
const DECLARATION_FRAMES = 6;

/** The stack above this call, `frames` deep, formatted (and mapped through the source maps). */
function stackOf(frames: number): string | undefined {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = frames;
  Error.captureStackTrace(holder, callSite);
  Error.stackTraceLimit = limit;
  return stackText(holder);
}

/** Where the test API was called from, in the user's file. */
export function callSite(): Site | undefined {
  if (!collecting) return undefined;
  // Formatting maps every frame through the source maps, which cost by the frame (most of what
  // declaring a test cost): a few frames first; the process's whole limit only when none of them
  // is in the test file, so the site found is the one the whole stack gives.
  const limit = Error.stackTraceLimit;
  if (typeof limit === "number" && limit > DECLARATION_FRAMES) {
    try {
      const site = collecting.siteOf(stackOf(DECLARATION_FRAMES));
      if (site && site.file === collecting.file) return site;
    } catch {
      // a limit a test made read-only: the whole stack, as below
    }
  }
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder);
  return collecting.siteOf(stackText(holder));
}

/** The test being run, for `onTestFinished` and the vitest context. */
export interface RunningTest {
  name: string;
  finishers: AnyFn[];
  /** The describe names, then the test name: a snapshot's key (snapshots.ts). */
  path?: readonly string[];
  /** The runner's id of the test. */
  id?: string;
  /** Run by @vitest/runner (vitestRunner.ts), whose own hooks and `onTestFinished` apply, not the hand-written ones. */
  onVitestRunner?: true;
}

let running: RunningTest | null = null;
export function setRunning(test: RunningTest | null): void {
  running = test;
}
export function runningTest(): RunningTest | null {
  return running;
}

let defaultTimeoutOverride: number | undefined;
/** bun's `setDefaultTimeout`: the default for tests declared after it, in this file. */
export function setFileDefaultTimeout(ms: number): void {
  if (collecting) collecting.defaultTimeout = ms;
  else defaultTimeoutOverride = ms;
}
export function fileDefaultTimeout(): number | undefined {
  return collecting?.defaultTimeout ?? defaultTimeoutOverride;
}

/** Thrown by the vitest context's `skip()`: the test ends as skipped. */
export class SkipSignal extends Error {
  constructor(note?: string) {
    super(note ?? "skipped");
    this.name = "SkipSignal";
  }
}
