// The wire-to-tree mapping: the server's test messages (server/protocol.ts) become a tree of files,
// describes, tests and the `testWorkflow` runs inside them, and progress becomes test states. No
// `vscode` import, so it is unit-tested; testController.ts applies it to a vscode.TestController.
import type { Range } from "vscode-languageserver-protocol";
import { TestId, type TestItem, type TestRunProgressMessage, type TestsDiscoveredParams, type TestTranscript, type WorkflowRun } from "../../server/protocol.ts";

export type NodeKind = "file" | "describe" | "test" | "run";

/** One item of the tree, as the controller shows it. */
export interface TreeNode {
  /** The controller's id: the uri for a file, a `TestId` for a describe or test, `runNodeId` for a run. */
  id: string;
  label: string;
  kind: NodeKind;
  /** The document the item is in (a run's is where `testWorkflow` was called). */
  uri: string;
  range?: Range;
  /** Shown after the label: a run's ending and turns. */
  description?: string;
  /** `disk`: a file the workspace scan found; `static`/`run`: as the server said; `progress`: only a run's progress named it. */
  source: "disk" | "static" | "run" | "progress";
  children: TreeNode[];
}

// A space never occurs in a TestId (its uri and path parts are URI-encoded), so it marks run ids.
const RUN_MARK = " run #";

/** The id of a test's `index`-th (0-based) `testWorkflow` run. */
export function runNodeId(testId: string, index: number): string {
  return `${testId}${RUN_MARK}${index + 1}`;
}

/** The test an item id belongs to: itself, or the test a run node is in. */
export function testIdOf(id: string): string {
  const mark = id.indexOf(RUN_MARK);
  return mark < 0 ? id : id.slice(0, mark);
}

/** A file's label: the last segment of its uri, decoded. */
export function fileLabel(uri: string): string {
  const path = uri.replace(/[?#].*$/, "");
  return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * How a run node reads: `run review`, described `completed · 3 turns · 12 ms`. It has no range: VS
 * Code draws a gutter icon at every item's range, and a run has no state of its own, so the
 * `testWorkflow(` line would get a second, stateless ▷ beside its test's ✓ (docs/vscode-extension.md).
 */
export function runNode(testId: string, index: number, run: WorkflowRun): TreeNode {
  return {
    id: runNodeId(testId, index),
    label: `run ${run.workflow}`,
    kind: "run",
    uri: run.location?.uri ?? TestId.parse(testId).uri,
    description: `${run.ending} · ${run.turns} turn${run.turns === 1 ? "" : "s"} · ${Math.round(run.durationMs)} ms`,
    source: "run",
    children: [],
  };
}

/**
 * The affected test files a continuous run reruns: all of them when it runs everything (`scope`
 * undefined), else those it includes (a file, or a test or describe in it), each once.
 */
export function affectedInScope(affected: readonly string[], scope: readonly string[] | undefined): string[] {
  const wanted = scope ? new Set(scope) : undefined;
  return [...new Set(affected)].filter((uri) => !wanted || wanted.has(uri));
}

/** Every file's tree, from discovery, progress and transcripts. */
export class TestTree {
  private readonly files = new Map<string, TreeNode>();
  /** Test id → the runs of its last result, kept across rediscoveries so an edit does not drop them. */
  private readonly runs = new Map<string, WorkflowRun[]>();

  fileUris(): string[] {
    return [...this.files.keys()];
  }

  file(uri: string): TreeNode | undefined {
    return this.files.get(uri);
  }

  /** A file found in the workspace (or named by a message); an existing one is kept as it is. */
  addFile(uri: string): TreeNode {
    let file = this.files.get(uri);
    if (!file) this.files.set(uri, (file = { id: uri, label: fileLabel(uri), kind: "file", uri, source: "disk", children: [] }));
    return file;
  }

  removeFile(uri: string): boolean {
    for (const id of this.runs.keys()) if (TestId.parse(id).uri === uri) this.runs.delete(id);
    return this.files.delete(uri);
  }

  /** `turnlens/testsDiscovered`: the file's tree is replaced by the one sent. */
  discovered(params: TestsDiscoveredParams): TreeNode {
    const uri = params.textDocument.uri;
    const file = this.addFile(uri);
    const convert = (item: TestItem): TreeNode => {
      const node: TreeNode = { id: item.id, label: item.label, kind: item.kind, uri, source: item.source, children: item.children.map(convert) };
      if (item.range) node.range = item.range;
      if (item.kind === "test") node.children = (this.runs.get(item.id) ?? []).map((run, index) => runNode(item.id, index, run));
      return node;
    };
    file.children = params.tests.map(convert);
    const present = new Set<string>();
    walk(file, (node) => present.add(node.id));
    for (const id of this.runs.keys()) if (TestId.parse(id).uri === uri && !present.has(id)) this.runs.delete(id);
    return file;
  }

  /** The node of a test id; a test only a run's progress named (a file never opened) is added. */
  ensureTest(testId: string): TreeNode {
    const { uri, path } = TestId.parse(testId);
    let parent = this.addFile(uri);
    for (let depth = 1; depth <= path.length; depth++) {
      const id = TestId.of(uri, path.slice(0, depth));
      let node = parent.children.find((child) => child.id === id);
      if (!node) {
        node = { id, label: path[depth - 1]!, kind: depth === path.length ? "test" : "describe", uri, source: "progress", children: [] };
        parent.children.push(node);
      }
      parent = node;
    }
    return parent;
  }

  /** A transcript's runs become the test's run nodes; returns the test's node. */
  setRuns(transcript: TestTranscript): TreeNode {
    this.runs.set(transcript.test, transcript.runs);
    const test = this.ensureTest(transcript.test);
    test.children = transcript.runs.map((run, index) => runNode(transcript.test, index, run));
    return test;
  }

  find(id: string): TreeNode | undefined {
    const file = this.files.get(TestId.parse(testIdOf(id)).uri);
    let found: TreeNode | undefined;
    if (file) walk(file, (node) => void (node.id === id && (found = node)));
    return found;
  }

  /**
   * The ids to send in `turnlens/runTests` for these items: a file is its uri, a test itself, a
   * run node its test, and a describe the tests inside it (the server runs tests by id, not
   * describes); each once, in order.
   */
  runIds(ids: readonly string[]): string[] {
    const out = new Set<string>();
    for (const id of ids) {
      const node = this.find(id);
      if (node?.kind !== "describe") {
        out.add(testIdOf(id));
        continue;
      }
      const tests: string[] = [];
      walk(node, (child) => void (child.kind === "test" && tests.push(child.id)));
      for (const test of tests.length > 0 ? tests : [node.uri]) out.add(test);
    }
    return [...out];
  }

  /** The innermost test (else describe) of `uri` whose range holds `line`. */
  testAt(uri: string, line: number): TreeNode | undefined {
    const file = this.files.get(uri);
    let found: TreeNode | undefined;
    if (file) {
      walk(file, (node) => {
        if ((node.kind === "test" || node.kind === "describe") && node.range && node.range.start.line <= line && line <= node.range.end.line) found = node;
      });
    }
    return found;
  }
}

/** Visits a node and its descendants, parents first. */
export function walk(node: TreeNode, visit: (node: TreeNode) => void): void {
  visit(node);
  for (const child of node.children) walk(child, visit);
}

// ---------------------------------------------------------------------------------------------
// Progress → states

export type TestState = "enqueued" | "started" | "passed" | "failed" | "skipped" | "errored";

/** A test message as the controller shows it (a diff when it has expected and actual). */
export interface MessageModel {
  message: string;
  expected?: string;
  actual?: string;
  location?: { uri: string; range: Range };
  /** A published diagnostic marks its problem at `location` (server/protocol.ts's `TestMessage`). */
  diagnostic?: true;
}

/**
 * One mark per problem (docs/vscode-extension.md, "One mark per problem"): where VS Code is to put
 * a message. VS Code draws every failure message that has a location in an open file as a red
 * inline message on that line, cut to its width, with no severity; where the server's diagnostic
 * already marks the problem there (its squiggle in the severity's colour, its quick fixes, its
 * Problems row), the message goes without a location, so it is read in the peek and Test Results
 * only, and the peek opens on the test's line. A plain failure (a failing expect) keeps its place,
 * as Vitest's extension shows one.
 */
export function messageLocation(model: MessageModel): MessageModel["location"] {
  return model.diagnostic ? undefined : model.location;
}

/**
 * Whether the first message may carry the test's turns as its call stack. VS Code draws a failure
 * message without a location inline at its first stack frame in the open file, so a message a
 * diagnostic marks (sent with no location) gets no frames: they would draw it again, on an entry.
 */
export function turnsOnFirstMessage(models: readonly MessageModel[]): boolean {
  return models.length > 0 && models[0]!.diagnostic !== true;
}

export interface StateChange {
  test: string;
  state: TestState;
  durationMs?: number;
  messages?: MessageModel[];
}

/** Tests by their result: what a run's summary, the Testing view's counts and the status say. */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

const FINAL: ReadonlySet<TestState> = new Set(["passed", "failed", "skipped", "errored"]);

/** One run's test states, fed its progress messages in order. */
export class RunStates {
  private readonly states = new Map<string, TestState>();
  ended = false;
  /** The run ended because the server went away, not with `end`. */
  interrupted = false;

  /** What a message changes; nothing for `output`, nothing after `end`, no state going back. */
  apply(message: TestRunProgressMessage): StateChange[] {
    if (this.ended) return [];
    switch (message.type) {
      case "end":
        this.ended = true;
        return [];
      case "output":
      case "snapshotFailures":
        return [];
      case "enqueued":
      case "started": {
        const current = this.states.get(message.test);
        if (current === message.type || (current && FINAL.has(current))) return [];
        return [this.set({ test: message.test, state: message.type })];
      }
      case "passed":
        return [this.set({ test: message.test, state: "passed", durationMs: message.durationMs })];
      case "skipped":
        return [this.set({ test: message.test, state: "skipped" })];
      case "failed":
        return [this.set({ test: message.test, state: "failed", durationMs: message.durationMs, messages: message.messages.map((wire) => ({ ...wire })) })];
      default:
        return message satisfies never;
    }
  }

  /** The server went away mid-run: every test not finished is errored with `reason`, and the run ends. */
  interrupt(reason: string): StateChange[] {
    if (this.ended) return [];
    this.ended = true;
    this.interrupted = true;
    const changes: StateChange[] = [];
    for (const [test, state] of this.states) if (!FINAL.has(state)) changes.push(this.set({ test, state: "errored", messages: [{ message: reason }] }));
    return changes;
  }

  stateOf(test: string): TestState | undefined {
    return this.states.get(test);
  }

  /**
   * The run's results counted by test, as the Testing view and the status show them: a test with
   * three `testWorkflow` runs is one test (its runs get no result of their own, so VS Code does not
   * count them either); an errored test counts as failed.
   */
  counts(): TestCounts {
    const counts: TestCounts = { passed: 0, failed: 0, skipped: 0 };
    for (const [test, state] of this.states) {
      if (test !== testIdOf(test)) continue;
      if (state === "passed") counts.passed++;
      else if (state === "failed" || state === "errored") counts.failed++;
      else if (state === "skipped") counts.skipped++;
    }
    return counts;
  }

  private set(change: StateChange): StateChange {
    this.states.set(change.test, change.state);
    return change;
  }
}

/**
 * Adds expected/actual to failure messages that lack them, from the test's transcript: a schema
 * mismatch's message names both schemas on one line; its problem has them as pretty JSON. The
 * message and the problem name the same turn before their first `: ` (`agent "writer" turn 1:`).
 */
export function withDiffs(messages: MessageModel[], transcript: TestTranscript | undefined): MessageModel[] {
  const problems = (transcript?.runs ?? []).flatMap((run) => run.problems).filter((problem) => problem.expected !== undefined && problem.actual !== undefined);
  const turnOf = (text: string) => (text.includes(": ") ? text.slice(0, text.indexOf(": ") + 2) : text);
  return messages.map((message) => {
    if (message.expected !== undefined || message.actual !== undefined) return message;
    const problem = problems.find((candidate) => message.message.startsWith(turnOf(candidate.message)));
    return problem ? { ...message, expected: problem.expected!, actual: problem.actual! } : message;
  });
}

/** Text for the test output terminal, which needs `\r\n`. */
export function terminalText(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

// ---------------------------------------------------------------------------------------------
// Debug runs: the CLI under the debugger, its `--reporter json` document back to progress

/** A `-t` pattern matching exactly the tests at `paths` (the runner matches describe and test names joined by spaces). */
export function testNamePattern(paths: ReadonlyArray<readonly string[]>): string {
  return `^(?:${paths.map((path) => path.join(" ").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

interface CliSite {
  file: string;
  line: number;
  column: number;
}
interface CliTest {
  path: string[];
  status: string;
  durationMs: number;
  error?: { message: string; expected?: string; actual?: string; location?: CliSite };
}
interface CliFile {
  file: string;
  tests: CliTest[];
  error?: { message: string };
}

/** The progress a `turnlens test --reporter json` document stands for; undefined when it is not one. */
export function progressOfCliReport(stdout: string, uriOfFile: (file: string) => string): TestRunProgressMessage[] | undefined {
  let report: { files?: CliFile[] };
  try {
    report = JSON.parse(stdout.slice(Math.max(0, stdout.indexOf("{")))) as { files?: CliFile[] };
  } catch {
    return undefined;
  }
  if (!Array.isArray(report.files)) return undefined;
  const messages: TestRunProgressMessage[] = [];
  for (const file of report.files) {
    const uri = uriOfFile(file.file);
    if (file.error) messages.push({ type: "output", text: `${file.error.message}\n` });
    for (const test of file.tests) {
      const id = TestId.of(uri, test.path);
      if (test.status === "passed") messages.push({ type: "passed", test: id, durationMs: test.durationMs });
      else if (test.status !== "failed") messages.push({ type: "skipped", test: id });
      else {
        const error = test.error ?? { message: "the test failed" };
        const message: MessageModel = { message: error.message };
        if (error.expected !== undefined) message.expected = error.expected;
        if (error.actual !== undefined) message.actual = error.actual;
        if (error.location) {
          const position = { line: error.location.line - 1, character: 0 };
          message.location = { uri: uriOfFile(error.location.file), range: { start: position, end: position } };
        }
        messages.push({ type: "failed", test: id, durationMs: test.durationMs, messages: [message] });
      }
    }
  }
  messages.push({ type: "end" });
  return messages;
}
