// The editor follows the code under test: a change to a file a test file's run read (an open
// workflow's unsaved edit, a save, a change on disk notified through didChangeWatchedFiles) reruns
// that open test file, and nothing else reruns; a test file that is not open is announced to the
// client's continuous run; a result from before the change is never published after it. The
// project is a temporary folder on disk (its node_modules links to the repo's).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DidChangeWatchedFilesNotification, FileChangeType, type PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { TestRunProgressParams, TestsAffectedParams } from "../../server/protocol.ts";
import type { RunInfo } from "../../server/state.ts";
import { defaultSettings } from "../../server/settings.ts";
import { EDITOR_CAPABILITIES, SLOW, TestServer, type StartOptions } from "./harness.ts";
import { RENAMED, summarizeProject, testFile, WORKFLOW } from "./fixtures/summarizeProject.ts";

const PROGRESS = "turnlens/testRunProgress";
const DIAGNOSTICS = "textDocument/publishDiagnostics";

let server: TestServer;
let dir: string;
let workflowPath: string;
let testPath: string;

beforeEach(() => {
  ({ dir, workflowPath, testPath } = summarizeProject("turnlens-graph-"));
  writeFileSync(join(dir, "unrelated.ts"), "export const unrelated = 1;\n");
});
afterEach(() => {
  server.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: StartOptions = {}): Promise<TestServer> {
  return (server = await TestServer.started(options));
}

/** The codes of the run diagnostics (the static pass finds nothing in these files). */
function codes(params: PublishDiagnosticsParams | undefined): string[] {
  return (params?.diagnostics ?? []).map((diagnostic) => String(diagnostic.code));
}

/** The runs the scheduler starts from now on, by the uri of their document. */
function startedRuns(): RunInfo[] {
  const runs: RunInfo[] = [];
  server.server.scheduler.onDidStartRun.event((run) => runs.push(run));
  return runs;
}

async function watchedChange(changes: Array<{ path: string; type: FileChangeType }>): Promise<void> {
  await server.client.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: changes.map(({ path, type }) => ({ uri: pathToFileURL(path).href, type })),
  });
}

/** Opens the test file and lets its first run end: its tests pass against the saved workflow. */
async function openPassingTest(): Promise<string> {
  const { uri, diagnostics } = await server.openAndRun(testPath);
  expect(codes(diagnostics)).toEqual([]);
  return uri;
}

/** Notifies `changes` on disk, lets the debounce pass, and waits for the rerun of `testUri` that ends after `from`. */
async function rerunAfterWatchedChange(testUri: string, from: number, changes: Array<{ path: string; type: FileChangeType }>) {
  await watchedChange(changes);
  await server.advance(defaultSettings.debounceMs);
  return server.runEnded(testUri, from);
}

/** Starts the server and opens the test file, its first run ended and passing. */
async function startWithPassingTest(): Promise<string> {
  await start();
  return openPassingTest();
}

// The run stops at the first turn of "writer", which no script answers.
const UNSCRIPTED = ["agent-unscripted"];

describe("a change to a file a test file's run read reruns that open test file", () => {
  test(
    "an unsaved edit to an open workflow reruns its open test file with the edited text, and the test's diagnostics follow the edit",
    async () => {
      const testUri = await startWithPassingTest();
      const workflowUri = await server.open(workflowPath);
      await server.flush();
      const after = await server.changeAndRun(workflowUri, RENAMED, defaultSettings.debounceMs, testUri);
      expect(codes(after)).toEqual(UNSCRIPTED);
      // What ran is the buffer: the disk still has "reader".
      expect(readFileSync(workflowPath, "utf8")).toBe(WORKFLOW);
      // Undoing the edit (still unsaved) reruns it again, and it passes again.
      expect(codes(await server.changeAndRun(workflowUri, WORKFLOW, defaultSettings.debounceMs, testUri))).toEqual([]);
    },
    SLOW,
  );

  test(
    "a workflow no buffer holds, saved to disk and notified through didChangeWatchedFiles, reruns its open test file",
    async () => {
      const testUri = await startWithPassingTest();
      const from = server.received.length;
      writeFileSync(workflowPath, RENAMED);
      expect(codes(await rerunAfterWatchedChange(testUri, from, [{ path: workflowPath, type: FileChangeType.Changed }]))).toEqual(UNSCRIPTED);
    },
    SLOW,
  );

  test(
    "a workflow replaced on disk by a rename (a git checkout, an editor's safe write), notified as deleted then created, reruns its open test file",
    async () => {
      const testUri = await startWithPassingTest();
      const from = server.received.length;
      const temporary = join(dir, "workflow.ts.tmp");
      writeFileSync(temporary, RENAMED);
      renameSync(temporary, workflowPath);
      const changes: Array<{ path: string; type: FileChangeType }> = [
        { path: workflowPath, type: FileChangeType.Deleted },
        { path: workflowPath, type: FileChangeType.Created },
      ];
      expect(codes(await rerunAfterWatchedChange(testUri, from, changes))).toEqual(UNSCRIPTED);
      // One rerun for the two notifications: they came within one debounce.
      await server.flush();
      expect(server.all<TestRunProgressParams>(PROGRESS, from).filter((params) => params.uri === testUri && params.message.type === "end")).toHaveLength(1);
    },
    SLOW,
  );

  test(
    "in onSave mode an open workflow's edits rerun nothing and its save reruns its open test file",
    async () => {
      await start({ initializationOptions: { settings: { runMode: "onSave" } } });
      const testUri = await openPassingTest();
      const workflowUri = await server.open(workflowPath);
      await server.flush();
      const runs = startedRuns();
      await server.change(workflowUri, RENAMED);
      await server.advance(defaultSettings.debounceMs);
      await server.flush();
      expect(runs).toEqual([]);
      const from = server.received.length;
      writeFileSync(workflowPath, RENAMED);
      await server.save(workflowUri);
      await server.advance(defaultSettings.debounceMs);
      expect(codes(await server.runEnded(testUri, from))).toEqual(UNSCRIPTED);
      expect(runs.map((run) => run.uri)).toEqual([testUri]);
    },
    SLOW,
  );

  test(
    "a change to a file no test imports reruns nothing: its buffer's edit, its save, and its change on disk",
    async () => {
      await startWithPassingTest();
      const runs = startedRuns();
      const unrelated = join(dir, "unrelated.ts");
      const uri = await server.open(unrelated);
      await server.change(uri, "export const unrelated = 2;\n");
      await server.advance(defaultSettings.debounceMs);
      writeFileSync(unrelated, "export const unrelated = 2;\n");
      await server.save(uri);
      await server.close(uri);
      await watchedChange([{ path: join(dir, "other.ts"), type: FileChangeType.Created }]);
      await server.advance(defaultSettings.debounceMs);
      await server.flush();
      expect(runs).toEqual([]);
      expect(server.timer.pending).toBe(0);
    },
    SLOW,
  );

  test(
    "a workflow the test file reaches through a helper counts too: the graph is what the run read, not only what the test file imports",
    async () => {
      writeFileSync(join(dir, "helper.ts"), 'export { default, SUMMARY } from "./workflow";\n');
      writeFileSync(testPath, testFile().replace('from "./workflow"', 'from "./helper"'));
      const testUri = await startWithPassingTest();
      const workflowUri = await server.open(workflowPath);
      expect(codes(await server.changeAndRun(workflowUri, RENAMED, defaultSettings.debounceMs, testUri))).toEqual(UNSCRIPTED);
    },
    SLOW,
  );
});

describe("results never mix versions", () => {
  test(
    "a background run going when a workflow it read is edited is cancelled, and only the run of the edited text publishes",
    async () => {
      const gate = join(dir, "gate");
      writeFileSync(testPath, testFile(gate));
      await start();
      const workflowUri = await server.open(workflowPath);
      const testUri = await server.open(testPath);
      const ended: Array<{ id: string; outcome: string }> = [];
      server.server.scheduler.onDidEndRun.event(({ run, outcome }) => ended.push({ id: run.id, outcome }));
      await server.advance(defaultSettings.debounceMs);
      await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.uri === testUri && params.message.type === "started");
      const from = server.received.length;
      await server.change(workflowUri, RENAMED);
      await server.flush();
      // Cancelled at once (before it could end: its test waits for the gate).
      expect(ended.map((run) => run.outcome)).toEqual(["cancelled"]);
      writeFileSync(gate, "");
      const afterCancel = server.received.length;
      await server.advance(defaultSettings.debounceMs);
      const after = await server.runEnded(testUri, afterCancel);
      expect(codes(after)).toEqual(UNSCRIPTED);
      await server.flush();
      // Nothing but the edited text's results were published after the edit.
      const published = server.all<PublishDiagnosticsParams>(DIAGNOSTICS, from).filter((params) => params.uri === testUri);
      expect(published.map(codes)).toEqual([UNSCRIPTED]);
    },
    SLOW,
  );

  test(
    "the results of a run the explorer asked for, whose workflow changed while it ran, are dropped; the rerun's are published, and say which versions they read",
    async () => {
      const gate = join(dir, "gate");
      writeFileSync(testPath, testFile(gate));
      writeFileSync(gate, "");
      await start();
      const workflowUri = await server.open(workflowPath);
      const { uri: testUri } = await server.openAndRun(testPath);
      rmSync(gate);
      const ended: string[] = [];
      server.server.scheduler.onDidEndRun.event(({ outcome }) => ended.push(outcome));
      await server.request("turnlens/runTests", { runId: "explorer-1", include: [testUri] });
      await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.runId === "explorer-1" && params.message.type === "started");
      const from = server.received.length;
      const edited = await server.change(workflowUri, RENAMED);
      // The rerun's debounce ends while the explorer's run goes: it queues behind it.
      await server.advance(defaultSettings.debounceMs);
      writeFileSync(gate, "");
      await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.runId === "explorer-1" && params.message.type === "end");
      const end = await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.uri === testUri && params.message.type === "end", from);
      expect(ended).toEqual(["stale", "fresh"]);
      const published = server.all<PublishDiagnosticsParams>(DIAGNOSTICS, from).filter((params) => params.uri === testUri);
      expect(published.map(codes)).toEqual([UNSCRIPTED]);
      const inputs = end.message.type === "end" ? end.message.inputs : undefined;
      expect(inputs?.map((input) => [input.uri, input.version])).toEqual([
        [testUri, 1],
        [workflowUri, edited],
      ]);
    },
    SLOW,
  );
});

describe("test files that are not open", () => {
  test(
    "a change to a workflow a closed test file's last run read is sent to the client once, after the debounce, for its continuous run; the server itself reruns nothing",
    async () => {
      const testUri = await startWithPassingTest();
      await server.close(testUri);
      await server.flush();
      const runs = startedRuns();
      const from = server.received.length;
      writeFileSync(workflowPath, RENAMED);
      await watchedChange([{ path: workflowPath, type: FileChangeType.Changed }]);
      await watchedChange([{ path: workflowPath, type: FileChangeType.Changed }]);
      await server.flush();
      expect(server.all("turnlens/testsAffected", from)).toEqual([]);
      await server.advance(defaultSettings.debounceMs);
      await server.flush();
      expect(server.all<TestsAffectedParams>("turnlens/testsAffected", from)).toEqual([{ tests: [testUri], changed: [pathToFileURL(workflowPath).href] }]);
      expect(runs).toEqual([]);
    },
    SLOW,
  );
});

describe("watching the project's files", () => {
  test(
    "a client that registers capabilities dynamically is asked to watch the project's source files",
    async () => {
      await start({ capabilities: { ...EDITOR_CAPABILITIES, workspace: { ...EDITOR_CAPABILITIES.workspace, didChangeWatchedFiles: { dynamicRegistration: true } } } });
      await server.flush();
      const registrations = server.requests
        .filter((request) => request.method === "client/registerCapability")
        .flatMap((request) => (request.params as { registrations: Array<{ method: string; registerOptions: unknown }> }).registrations);
      expect(registrations.map((registration) => [registration.method, registration.registerOptions])).toEqual([
        ["workspace/didChangeWatchedFiles", { watchers: [{ globPattern: "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,json}" }] }],
      ]);
    },
    SLOW,
  );

  test(
    "a client that does not is asked nothing",
    async () => {
      await start();
      await server.flush();
      expect(server.requests.filter((request) => request.method === "client/registerCapability")).toEqual([]);
    },
    SLOW,
  );
});
