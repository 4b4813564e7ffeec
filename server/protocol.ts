// Turnlens's own messages on top of LSP: the test explorer, workspace trust, the commands and the
// initialization options. The only server file a client (the VS Code extension) imports, so it
// imports nothing but the LSP protocol package.
import { NotificationType, RequestType, type Range } from "vscode-languageserver-protocol";

/** The name under `experimental` in both the client's and the server's capabilities. */
export const EXPERIMENTAL_CAPABILITY = "turnlens";

/**
 * The version of the wire this file describes (the custom messages and the initialization options).
 * An editor only starts a workspace's own Turnlens when it speaks the same number: a package declares
 * it in its package.json (`turnlensServer.protocol`, read before the server starts) and its server
 * reports it at initialize (`capabilities.experimental.turnlens.protocol`). Bumped only when a change
 * breaks a client of the previous number; a change a client can ignore (a new message, a new optional
 * field) keeps it. docs/vscode-extension.md, "The workspace's own Turnlens".
 */
export const PROTOCOL_VERSION = 1;

/** The package.json field by which a `turnlens` package says where its language server is and what it speaks. */
export const PACKAGE_SERVER_FIELD = "turnlensServer";

/** The value of `turnlensServer` in a package.json. */
export interface PackageServerDeclaration {
  /** The `PROTOCOL_VERSION` its server speaks. */
  protocol: number;
  /** The server's entry, relative to the package's folder (`dist/server.js`). */
  main: string;
}

/** What a server puts under `capabilities.experimental.turnlens` in its initialize result. */
export interface TurnlensServerCapabilities {
  testExplorer?: boolean;
  /** The `PROTOCOL_VERSION` it speaks. */
  protocol?: number;
}

/** What a client puts under `capabilities.experimental.turnlens`. */
export interface TurnlensClientCapabilities {
  /** The client shows a test tree: the server sends `turnlens/testsDiscovered` and `turnlens/testRunProgress`. */
  testExplorer?: boolean;
}

/** `initializationOptions` the server reads. */
export interface InitializationOptions {
  /** False when the editor does not trust the workspace: no user code runs. Absent means trusted. */
  workspaceTrusted?: boolean;
  /** The client has the `turnlens.showTimeline` command (the VS Code extension): tests with runs get a "Timeline" lens. */
  showsTimelines?: boolean;
  /** Settings (the `turnlens` section) for a client that does not answer `workspace/configuration`. */
  settings?: Record<string, unknown>;
}

/**
 * Test ids describe themselves: the document uri, `#`, then the test's path (describe names, then
 * the test name), each part URI-encoded and joined by `/`. A run request never depends on what the
 * server remembers. A lone surrogate in a name, which `encodeURIComponent` refuses (URIError), is
 * written as its WTF-8 bytes (`\ud800` as `%ED%A0%80`), which no UTF-8 text encodes to: two names
 * that differ only by one get two ids, and the id reads back to the name as it is.
 */
export namespace TestId {
  export function of(uri: string, path: readonly string[]): string {
    return `${uri}#${path.map(encodePart).join("/")}`;
  }
  /** The uri and path of an id; a bare uri (no `#`) names the whole file and has an empty path. */
  export function parse(id: string): { uri: string; path: string[] } {
    const hash = id.indexOf("#");
    if (hash < 0) return { uri: id, path: [] };
    const rest = id.slice(hash + 1);
    return { uri: id.slice(0, hash), path: rest === "" ? [] : rest.split("/").map(decodePart) };
  }

  const LONE_SURROGATE = /^\p{Surrogate}$/u;
  /** A lone surrogate's WTF-8 bytes, percent-encoded: ED, then A0–BF, then 80–BF. */
  const ENCODED_SURROGATE = /(%ED%[AB][0-9A-F]%[89AB][0-9A-F])/i;

  function encodePart(part: string): string {
    return part.replace(/\p{Surrogate}|\P{Surrogate}+/gu, (run) => {
      if (!LONE_SURROGATE.test(run)) return encodeURIComponent(run);
      const code = run.charCodeAt(0);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join("");
    });
  }

  function decodePart(part: string): string {
    return part
      .split(ENCODED_SURROGATE)
      .map((piece, index) => {
        if (index % 2 === 0) return decodeURIComponent(piece);
        const [first, second, third] = piece
          .slice(1)
          .split("%")
          .map((hex) => Number.parseInt(hex, 16));
        return String.fromCharCode(((first! & 0x0f) << 12) | ((second! & 0x3f) << 6) | (third! & 0x3f));
      })
      .join("");
  }
}

/** A test or a describe block, as the test tree shows it. */
export interface TestItem {
  /** See `TestId`. */
  id: string;
  /** The test's or describe's own name. */
  label: string;
  kind: "test" | "describe";
  /** The `test(...)` / `describe(...)` call, when the server knows where it is. */
  range?: Range;
  /** `static` when the text declares it; `run` when only a run reported it (a name built at run time). */
  source: "static" | "run";
  children: TestItem[];
}

export interface TestsDiscoveredParams {
  textDocument: { uri: string };
  /** Every test of the document, as a tree. Replaces whatever was sent for this uri before. */
  tests: TestItem[];
}

/** Server → client, after the document's tests were found (on open, after edits, after a run). */
export namespace TestsDiscoveredNotification {
  export const method = "turnlens/testsDiscovered" as const;
  export const type = new NotificationType<TestsDiscoveredParams>(method);
}

export interface RunTestsParams {
  /** Chosen by the client; progress and cancellation name it. */
  runId: string;
  /** Test ids (or bare document uris) to run. Absent or empty: every open test document. */
  include?: string[];
  /** Test ids to leave out. */
  exclude?: string[];
  /** Run with Coverage: the runs measure line coverage too, which `turnlens/lineCoverage` then answers. */
  coverage?: boolean;
}

export interface RunTestsResult {
  runId: string;
  /** The ids that will run; each gets `enqueued` progress before the response. */
  enqueued: string[];
  /** Why nothing runs, e.g. the workspace is not trusted. */
  refused?: string;
}

/** Client → server: run these tests. Answers at once; results come as `turnlens/testRunProgress`. */
export namespace RunTestsRequest {
  export const method = "turnlens/runTests" as const;
  export const type = new RequestType<RunTestsParams, RunTestsResult, void>(method);
}

/** Why a test failed, where. */
export interface TestMessage {
  message: string;
  expected?: string;
  actual?: string;
  location?: { uri: string; range: Range };
  /**
   * A diagnostic the server publishes marks this problem at `location` (its squiggle, quick fixes
   * and Problems row): a client that shows both need not draw the message there again. Absent for
   * a plain failure (a failing expect, a throw), whose message is the one that places it.
   */
  diagnostic?: true;
}

/** One step of a run, tagged by `type`. */
export type TestRunProgressMessage =
  | { type: "enqueued"; test: string }
  | { type: "started"; test: string }
  | { type: "passed"; test: string; durationMs: number }
  | { type: "failed"; test: string; durationMs: number; messages: TestMessage[] }
  | { type: "skipped"; test: string }
  /** What the tests wrote to stdout or stderr. */
  | { type: "output"; text: string }
  /**
   * A file's run ended: the tests of `uri` whose snapshot did not match in it (none when every
   * snapshot matched), the ones "Update Snapshots" is offered on. Sent before the run's `end`.
   */
  | { type: "snapshotFailures"; uri: string; tests: string[] }
  /**
   * The run is over: finished, cancelled, or refused. Always the last message of a run. A
   * background run whose results were published says which versions of its inputs they came from.
   */
  | { type: "end"; inputs?: RunInputVersion[] };

/** One file a run read, and which version of it: an open document's version, or a file's modification time. */
export interface RunInputVersion {
  uri: string;
  /** The open document's version the run was sent. */
  version?: number;
  /** A file read from disk: its modification time (ms since the epoch) when the run ended. */
  modifiedMs?: number;
}

export interface TestRunProgressParams {
  runId: string;
  /** True for a run the server started itself (after an edit), not one the client asked for. */
  background?: boolean;
  /** For a background run: the document it runs (one run, one document). */
  uri?: string;
  message: TestRunProgressMessage;
}

/** Server → client, for every run (the client's, and the background runs after edits). */
export namespace TestRunProgressNotification {
  export const method = "turnlens/testRunProgress" as const;
  export const type = new NotificationType<TestRunProgressParams>(method);
}

export interface TestsAffectedParams {
  /** Test files that are not open whose last run read a changed file (document uris). */
  tests: string[];
  /** The files whose change affects them (document uris). */
  changed: string[];
}

/**
 * Server → client: files that test files not open depend on changed (an edit, a save, a change on
 * disk), after the debounce. The server reruns open test files itself; a client with a continuous
 * run on reruns these. Only test files that ran in this server are known (its runs say what they read).
 */
export namespace TestsAffectedNotification {
  export const method = "turnlens/testsAffected" as const;
  export const type = new NotificationType<TestsAffectedParams>(method);
}

export interface CancelTestRunParams {
  runId: string;
}

/** Client → server: stop a run; its worker processes are killed and it ends with `end`. */
export namespace CancelTestRunNotification {
  export const method = "turnlens/cancelTestRun" as const;
  export const type = new NotificationType<CancelTestRunParams>(method);
}

export interface WorkspaceTrustParams {
  trusted: boolean;
}

/** Client → server, when the editor's trust in the workspace changes. */
export namespace WorkspaceTrustNotification {
  export const method = "turnlens/workspaceTrust" as const;
  export const type = new NotificationType<WorkspaceTrustParams>(method);
}

/** Commands the server executes through `workspace/executeCommand`. */
export const Commands = {
  /** Arguments: `[uri]`. Runs every test of the document. */
  runFile: "turnlens.runFile",
  /** Arguments: `[uri, path]` (path: describe names then the test name). Runs one test. */
  runTest: "turnlens.runTest",
  /** Arguments: `[uri?]`. Cancels the document's run, or every run. */
  cancelRuns: "turnlens.cancelRuns",
  /**
   * Arguments: `[uri, path]`. Reruns one test with each scripted answer changed (docs/mutate.md);
   * answers `{ started }` at once, then `turnlens/assertionsChecked` and `answer-unchecked` diagnostics.
   */
  checkAssertions: "turnlens.checkAssertions",
  /** Arguments: `[{ folder, workflow, out?, force?, check? }]`. `turnlens record` (docs/record.md); answers its `--json` result. */
  recordRun: "turnlens.recordRun",
  /**
   * Arguments: `[uri, path]`. Reruns one test from disk with its snapshots rewritten (`-u`), the
   * file's other snapshots kept; answers `UpdateSnapshotResult` once written, then reruns the document.
   */
  updateSnapshot: "turnlens.updateSnapshot",
} as const;

/** What `Commands.updateSnapshot` answers. */
export interface UpdateSnapshotResult {
  ok: boolean;
  /** Why nothing was run (unsaved changes, an untrusted workspace, no such test). */
  refused?: string;
  /** The test's status in the update's run; `failed` when something besides a snapshot still fails. */
  status?: "passed" | "failed" | "skipped" | "todo";
  /** Snapshots rewritten and written for the first time (@vitest/snapshot's counts). */
  updated?: number;
  added?: number;
  /** The .snap file, when the file has snapshots there. */
  snapshotFile?: string;
}

/** The argument of `Commands.recordRun`: paths or file URIs. */
export interface RecordRunArguments {
  folder: string;
  workflow: string;
  out?: string;
  force?: boolean;
  check?: boolean;
}

/** What `Commands.recordRun` answers: `turnlens record --json`'s result (docs/record.md). */
export interface RecordRunResult {
  ok: boolean;
  /** The test file written. */
  written?: string;
  turns: number;
  events: number;
  decisions: number;
  /** Where the replay parts from the run, each naming the turn. */
  partings: string[];
  /** Why nothing was done: an unreadable folder or workflow, a file in the way. */
  error?: string;
}

export interface AssertionsCheckedParams {
  uri: string;
  /** The test's path: describe names, then its name. */
  path: string[];
  /** Mutants run, and how many a failing assertion noticed; those not run ran out of the budget. */
  run: number;
  noticed: number;
  notRun: number;
  /** The sentence of each answer no assertion noticed, as its diagnostic says it. */
  unnoticed: string[];
}

/** Server → client: the check a `turnlens.checkAssertions` command started has ended (not sent when an edit cancelled it). */
export namespace AssertionsCheckedNotification {
  export const method = "turnlens/assertionsChecked" as const;
  export const type = new NotificationType<AssertionsCheckedParams>(method);
}

export interface TranscriptParams {
  /** A test id (see `TestId`), or a bare document uri for every test of the file. */
  test: string;
}

/** One of a run's mistakes, with both sides when it compares two things (a schema mismatch). */
export interface TranscriptProblem {
  code: string;
  message: string;
  /** What the turn asked for, as pretty JSON (a schema) or `"text"`. */
  expected?: string;
  /** What the script gave, in the same form. */
  actual?: string;
}

/** One `testWorkflow` call a test made. */
export interface WorkflowRun {
  workflow: string;
  /** How the run ended: `completed`, `failed`, `timed-out`, `stopped` and so on. */
  ending: string;
  turns: number;
  durationMs: number;
  /** Where `testWorkflow(...)` was called. */
  location?: { uri: string; range: Range };
  problems: TranscriptProblem[];
  /** The run as people read it (the `turnlens-transcript` language), ending in a newline. */
  transcript: string;
}

/** A test's last result and the runs it made. */
export interface TestTranscript {
  /** See `TestId`. */
  test: string;
  status: "passed" | "failed" | "skipped" | "todo";
  durationMs: number;
  runs: WorkflowRun[];
}

export interface TranscriptResult {
  /** Each test asked for that has a result, in the order the results came in. */
  tests: TestTranscript[];
  /** One document: per test a `test <path> · <status> · <n> ms` line, then its runs' transcripts. */
  text: string;
}

/**
 * Client → server: the transcript of a test's last run (or of every test of a file), from any run
 * this server made, open document or not. `null` when the server has no result for it.
 */
export namespace TranscriptRequest {
  export const method = "turnlens/transcript" as const;
  export const type = new RequestType<TranscriptParams, TranscriptResult | null, void>(method);
}

export interface OutcomeCoverageParams {
  /** Test file uris whose last runs count (a Run with Coverage's files). Absent: every test file this server ran. */
  tests?: string[];
}

/** One call in a workflow file that asks the tests' fakes something, and what those runs did there. */
export interface CallSiteCoverage {
  /** The call as written: its receiver and name (`verifier.run`). */
  range: Range;
  kind: "turn" | "open" | "decision";
  callee?: string;
  /** How many tests reached it. */
  tests: number;
  /** Turns (or decisions) asked there, each ended with one outcome. */
  turns: number;
  /** Every outcome such a call can end with, in the engine's order, then any other a run named; `turns` 0 for one no test gave. */
  outcomes: Array<{
    outcome: string /** The outcome in core/testing/outcomeWords.ts's words (`no answer`, `timed out`), as every view says it. */;
    words: string;
    turns: number;
  }>;
}

export interface WorkflowFileCoverage {
  uri: string;
  /** Every call found in the file's text, reached or not, in the order written. */
  calls: CallSiteCoverage[];
}

export interface OutcomeCoverageResult {
  /** Each workflow file the runs reached, by file name. */
  workflows: WorkflowFileCoverage[];
}

/** Client → server: the outcome coverage of the workflow files the given test files' last runs reached (the Test Explorer's Run with Coverage). */
export namespace OutcomeCoverageRequest {
  export const method = "turnlens/outcomeCoverage" as const;
  export const type = new RequestType<OutcomeCoverageParams, OutcomeCoverageResult, void>(method);
}

export interface LineCoverageParams {
  /** Test file uris whose last coverage runs count (a Run with Coverage's files). Absent: every one this server ran with coverage. */
  tests?: string[];
}

/** One counted place in a source file: how many times it ran. */
export interface CoveredRange {
  range: Range;
  executed: number;
}

/** Line, branch and function coverage of one project file (not a test file, not node_modules), as V8 counted it. */
export interface LineFileCoverage {
  uri: string;
  /** Istanbul's statements, in the order written. */
  statements: CoveredRange[];
  /** Each branch point (`if`, `? :`, `&&`, `??`, `switch`, a default value) and its arms, each arm counted. */
  branches: Array<{ range: Range; kind: string; arms: CoveredRange[] }>;
  /** Each function, by Istanbul's name for it (`(anonymous_0)` for one without). */
  functions: Array<CoveredRange & { name: string }>;
  /** Lines with a statement, and those of them run: the file's percentage. */
  lines: { covered: number; total: number };
}

export interface LineCoverageResult {
  files: LineFileCoverage[];
}

/** Client → server: the line coverage the given test files' last Run with Coverage measured (docs/language-server.md). */
export namespace LineCoverageRequest {
  export const method = "turnlens/lineCoverage" as const;
  export const type = new RequestType<LineCoverageParams, LineCoverageResult, void>(method);
}

// The run timeline (docs/timeline.md) --------------------------------------------------------------

/** A place in a file as the trace keeps it: an absolute path, 1-based line and column. */
export interface TimelineSite {
  file: string;
  line: number;
  column: number;
}

/** When, on the run's virtual clock: milliseconds since its start, and the step that orders moments. */
export interface TimelineMoment {
  at: number;
  step: number;
}

/** The wire form of core's `Timeline` (core/testing/timeline.ts), field for field. */
export interface TimelineModel {
  workflow: string;
  site?: TimelineSite;
  start?: string;
  ending: string;
  durationMs: number;
  lanes: Array<{ id: string; kind: "workflow" | "agent" | "participant" }>;
  boxes: Array<{
    index: number;
    lane: string;
    kind: "turn" | "nudge" | "wake" | "compaction";
    n: number;
    label?: string;
    stage?: string;
    prompt: string;
    outcome: string;
    /** What it ended as, in the words every view uses (core/testing/outcomeWords.ts), its mark (✓ ✗ ○) and tone (its colour). */
    told: { words: string; tone: "ok" | "scripted" | "expected" | "open" | "failure"; mark: string };
    reason?: string;
    answer?: string;
    started: TimelineMoment;
    ended?: TimelineMoment;
    durationMs?: number;
    /** The script entry that met it and where its `answer(...)` is. */
    entry?: { key: string; index: number | null; site?: TimelineSite };
    /** The workflow's call that asked it. */
    askedAt?: TimelineSite;
    cause?: string;
  }>;
  arrows: Array<{
    kind: "message" | "question" | "reply";
    message: string;
    from: string;
    to: string;
    text: string;
    end: string;
    reason?: string;
    answers?: string;
    sent: TimelineMoment;
    reached?: TimelineMoment;
  }>;
  marks: Array<{ lane: string; kind: string; at: TimelineMoment; text: string; detail?: string; askedAt?: TimelineSite }>;
}

export interface TimelineParams {
  /** A test id (see `TestId`). */
  test: string;
}

export interface TimelineRun {
  timeline: TimelineModel;
  /** The diagram, drawn by the server as one `<svg>` whose boxes are `g.box[data-box]`, styled by class (no colours of its own). */
  svg: string;
  /** The same diagram as Mermaid `sequenceDiagram` text, for a client that cannot draw the SVG, or to paste where Mermaid renders. */
  mermaid: string;
}

export interface TimelineResult {
  test: string;
  /** The test's path joined with " › ". */
  name: string;
  status: string;
  /** Each `testWorkflow` run of the test's last report, in the order they settled. */
  runs: TimelineRun[];
  /** The diagram's stylesheet, by class, over `--tl-*` colour variables the client sets (the webview: from the editor's theme). */
  style: string;
}

/** The client command a "Timeline" lens calls, with `[testId]`; only a client that says `showsTimelines` gets the lens. */
export const SHOW_TIMELINE_COMMAND = "turnlens.showTimeline";

/** Client → server: the timeline of a test's last run; null when the test has not run. */
export namespace TimelineRequest {
  export const method = "turnlens/timeline" as const;
  export const type = new RequestType<TimelineParams, TimelineResult | null, void>(method);
}

// The Test Explorer's test files (docs/vscode-extension.md) ---------------------------------------

export interface TestFilesParams {
  /** The workspace folders whose test files are wanted. */
  folders: string[];
}

export interface TestFilesResult {
  /** The files `turnlens test` run in each folder would run (its config's include/exclude applied), sorted, deduplicated. */
  files: string[];
}

/** Client → server: the workspace's test files as `turnlens test` finds them, for the Test Explorer's tree. */
export namespace TestFilesRequest {
  export const method = "turnlens/testFiles" as const;
  export const type = new RequestType<TestFilesParams, TestFilesResult, void>(method);
}

/** Server → client: a project config file changed on disk, so the test files may have: ask `turnlens/testFiles` again. */
export namespace TestFilesChangedNotification {
  export const method = "turnlens/testFilesChanged" as const;
  export const type = new NotificationType<{ config: string }>(method);
}
