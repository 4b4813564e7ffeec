// Applies the tree model (testTree.ts) to a vscode.TestController: the workspace's Turnlens test
// files and the trees the server discovers; Run (continuous too), Run with Coverage and Debug profiles; each run's
// progress as states, failures at their line with diffs, transcripts as output, runs as children.
// Every test's latest result is kept (latestResults.ts): the server's background runs are no TestRun
// of their own; one that changed a result is reported as one run of every test's latest result, so
// the Testing view's summary, its badge and the status bar count the whole workspace.
import * as vscode from "vscode";
import { ConnectionError, ErrorCodes, ExecuteCommandRequest, ResponseError, State } from "vscode-languageclient/node";
import {
  CancelTestRunNotification,
  Commands,
  LineCoverageRequest,
  OutcomeCoverageRequest,
  RunTestsRequest,
  TestId,
  TestRunProgressNotification,
  TestsAffectedNotification,
  TestsDiscoveredNotification,
  TestFilesChangedNotification,
  TestFilesRequest,
  type TestRunProgressMessage,
  type TestRunProgressParams,
  type TestTranscript,
  type UpdateSnapshotResult,
} from "../server/protocol.ts";
import { updateSnapshotWords } from "./vscodeFree/snapshotWords.ts";
import { BackgroundPublication } from "./vscodeFree/backgroundPublication.ts";
import type { TurnlensClient } from "./client.ts";
import type { Status } from "./status.ts";
import { filesNoLongerListed, importsTurnlens, isTestFileName, SKIPPED_FOLDERS_GLOB, TEST_FILE_GLOB } from "./vscodeFree/testFiles.ts";
import { DebugLauncher } from "./debugRun.ts";
import {
  progressOfCliReport,
  RunStates,
  terminalText,
  affectedInScope,
  testIdOf,
  TestTree,
  walk,
  withDiffs,
  messageLocation,
  turnsOnFirstMessage,
  type MessageModel,
  type StateChange,
  type TreeNode,
} from "./vscodeFree/testTree.ts";
import { filesIn, findFolder, folderTree, isFolderId, type FolderEntry } from "./vscodeFree/folderTree.ts";
import { transcriptUri, type Transcripts } from "./transcript.ts";
import { transcriptMarkdown, turnFrames } from "./vscodeFree/transcriptMessage.ts";
import { coverageModel, type FileCoverageModel, type StatementModel } from "./vscodeFree/coverageModel.ts";
import { ProducedResults } from "./producedResults.ts";
import { LatestResults, type FinalState } from "./vscodeFree/latestResults.ts";

/** Where every test's latest result is kept across sessions (workspaceState). */
const LATEST_KEY = "turnlens.latestResults";
/** The name of the run that reports every test's latest result after a background run changed one. */
export const LATEST_RUN_NAME = "Turnlens: every test's latest result";

/** What the controller showed of a test's latest result, to show it again. */
interface LatestDetail {
  messages: vscode.TestMessage[];
  /** The transcript text appended to its output. */
  text?: string;
}

/**
 * How long a background run's new result waits, at most, for the code lenses of its file (shown in
 * an editor) to be asked for again: VS Code asks after a debounce of its own, and the gutter must
 * not say ✗ while the lens still says the ✓ it had before.
 */
const LENS_WAIT_MS = 10_000;
/** After the lenses came, before the result is shown: VS Code draws lenses it got a frame or more after a gutter it is given. */
const LENS_DRAWN_MS = 500;

/** Files read at most when looking for Turnlens tests in the workspace. */
const SCAN_LIMIT = 2000;

/** One run being shown: the client's (Run profile, a command), the server's after an edit, or a debug run. */
interface ActiveRun {
  runId: string;
  /**
   * Undefined for a background run (the server's, on open or after an edit): it is no TestRun, so it
   * adds no entry to Test Results; if it changed a test's latest result, one run reporting every
   * test's latest result is made at its end (publishLatest).
   */
  run: vscode.TestRun | undefined;
  /** A background run's output, for that run if one is made. */
  output: string[];
  /** Tests this run gave a result. */
  recorded: Set<string>;
  /** Files of tests whose latest result this run changed. */
  changedFiles: Set<string>;
  states: RunStates;
  /** Messages are handled one after another: a result waits for its transcript, `end` for every result. */
  queue: Promise<void>;
  /** Set once `run.end()` was called: nothing more goes to the run. */
  finished: boolean;
  /** Files this run reported on, whose transcript documents refresh when it ends. */
  files: Set<string>;
  ended: Promise<void>;
  resolveEnded: () => void;
  /** Run with Coverage: adds the coverage once the tests ended, before the run does. */
  beforeEnd?: () => Promise<void>;
}

/** The public view of one item, for the e2e suite. */
export interface ItemSnapshot {
  id: string;
  label: string;
  description?: string;
  children: ItemSnapshot[];
}

export class TestExplorer implements vscode.Disposable {
  private readonly tree = new TestTree();
  /** Each file's item (wherever its folder puts it), folder items by id, and each item's parent id (`""`: the top). */
  private readonly fileItems = new Map<string, vscode.TestItem>();
  private readonly folderItems = new Map<string, vscode.TestItem>();
  private readonly parentOf = new Map<string, string>();
  private layout: FolderEntry[] = [];
  private controller: vscode.TestController | undefined;
  private runProfile: vscode.TestRunProfile | undefined;
  private readonly runs = new Map<string, ActiveRun>();
  /** A file's uri → its tests whose snapshot did not match in its last run. */
  private readonly snapshotFailures = new Map<string, string[]>();
  /** Token sources of the runs commands started, so Stop cancels them. */
  private readonly commandRuns = new Set<vscode.CancellationTokenSource>();
  private debugLauncher: DebugLauncher | undefined;
  private counter = 0;
  /** Each workflow file's call sites, for the Test Coverage view and the editor's gutter. */
  private readonly coverageDetails = new WeakMap<vscode.FileCoverage, FileCoverageModel>();
  /** Every test's latest known result, whichever run gave it. */
  private readonly latest = new LatestResults<LatestDetail>();
  /** When a background run's results get their entry: not while a requested run goes, and again after one when it may be newer. */
  private readonly publication = new BackgroundPublication<ActiveRun>();
  /** What the runs handed VS Code that its API gives no extension back, for the e2e suite. */
  readonly produced = new ProducedResults();
  private readonly disposables: vscode.Disposable[] = [];
  /** The continuous runs on: each reruns the test files not open that the server says a change affects. */
  private readonly continuous = new Set<{ request: vscode.TestRunRequest; token: vscode.CancellationToken }>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly client: TurnlensClient,
    private readonly status: Status,
    private readonly transcripts: Transcripts,
    private readonly start: () => Promise<void>,
  ) {
    this.latest.restore(context.workspaceState.get(LATEST_KEY));
    client.client.onNotification(TestsDiscoveredNotification.type, (params) => {
      if (!this.isTurnlensFile(params.textDocument.uri)) return;
      const file = this.tree.discovered(params);
      // A test renamed or deleted has no result any more (a run of every test's latest drops it).
      const present = new Set<string>();
      walk(file, (node) => void present.add(node.id));
      this.latest.keepOnly(params.textDocument.uri, present);
      this.syncFile(params.textDocument.uri);
    });
    client.client.onNotification(TestRunProgressNotification.type, (params) => this.onProgress(params));
    client.client.onNotification(TestsAffectedNotification.type, (params) => this.onTestsAffected(params.tests));
    // The project's config decides the test files: the server lists them once it runs, and again when a config file changes.
    client.client.onNotification(TestFilesChangedNotification.type, () => void this.listFromServer());
    client.client.onDidChangeState(({ newState }) => newState === State.Running && void this.listFromServer());
  }

  /** Test files not open that a change affects: each continuous run whose scope holds them reruns them. */
  private onTestsAffected(tests: string[]): void {
    // The server's uris and VS Code's may encode a path differently: both are read as VS Code does.
    const affected = tests.map((uri) => vscode.Uri.parse(uri).toString());
    for (const { request, token } of this.continuous) {
      if (token.isCancellationRequested) continue;
      const scope = request.include?.map((item) => item.uri?.toString() ?? TestId.parse(item.id).uri);
      const items = affectedInScope(affected, scope)
        .map((uri) => this.item(uri))
        .filter((item): item is vscode.TestItem => item !== undefined);
      if (items.length === 0) continue;
      void this.runOnce(new vscode.TestRunRequest(items, request.exclude, request.profile), token);
    }
  }

  /** Creates the controller and its profiles (once Turnlens is known to be used here). */
  enable(): void {
    if (this.controller) return;
    const controller = vscode.tests.createTestController("turnlens", "Turnlens");
    this.controller = controller;
    this.runProfile = controller.createRunProfile("Run", vscode.TestRunProfileKind.Run, (request, token) => this.runHandler(request, token), true, undefined, true);
    controller.createRunProfile("Debug", vscode.TestRunProfileKind.Debug, (request, token) => this.debugHandler(request, token), true);
    const coverage = controller.createRunProfile("Run with Coverage", vscode.TestRunProfileKind.Coverage, (request, token) => this.coverageHandler(request, token), true);
    coverage.loadDetailedCoverage = async (_run, file) => detailsOf(this.coverageDetails.get(file));
    controller.resolveHandler = async (item) => {
      // Opening a file's document makes the server send its tree (and, unless runMode is manual, run it).
      if (item && this.tree.file(item.id) && item.uri && item.children.size === 0) await vscode.workspace.openTextDocument(item.uri);
    };
    controller.refreshHandler = async () => void (await this.scanWorkspace());
    const watcher = vscode.workspace.createFileSystemWatcher(TEST_FILE_GLOB);
    watcher.onDidCreate((uri) => void this.addIfTestFile(uri));
    watcher.onDidChange((uri) => void (this.tree.file(uri.toString()) ? undefined : this.addIfTestFile(uri)));
    watcher.onDidDelete((uri) => this.removeFile(uri.toString()));
    this.disposables.push(
      controller,
      watcher,
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.syncFolders()),
      (this.debugLauncher = new DebugLauncher(this.context, () => this.client.packageRoot)),
    );
    for (const uri of this.tree.fileUris()) this.syncFile(uri, false);
    this.syncFolders();
  }

  /**
   * Finds the workspace's test files that import Turnlens; returns how many. The server lists them
   * as `turnlens test` finds them (the config's include/exclude); before it runs (the scan that
   * decides whether to start it), or when it predates `turnlens/testFiles`, every file with a test
   * file's name is a candidate.
   */
  async scanWorkspace(): Promise<number> {
    const listed = await this.serverTestFiles();
    if (listed) return this.applyListing(listed);
    const files = await vscode.workspace.findFiles(TEST_FILE_GLOB, SKIPPED_FOLDERS_GLOB, SCAN_LIMIT);
    let found = 0;
    await Promise.all(files.map(async (uri) => void ((await this.addIfTurnlens(uri)) && found++)));
    return found;
  }

  /** Set once the server said it does not know `turnlens/testFiles`: the extension's name check stays. */
  private serverListsNoFiles = false;
  /** The listing being asked for, and whether another was asked for meanwhile (a checkout creates many files). */
  private listing: Promise<void> | undefined;
  private listAgain = false;

  /** The workspace's test files as the server lists them, or undefined (not running, or a server without the request). */
  private async serverTestFiles(): Promise<vscode.Uri[] | undefined> {
    if (this.serverListsNoFiles || this.client.client.state !== State.Running) return undefined;
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === "file").map((folder) => folder.uri.toString());
    try {
      const { files } = await this.client.client.sendRequest(TestFilesRequest.type, { folders });
      return files.map((uri) => vscode.Uri.parse(uri));
    } catch (error) {
      if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) this.serverListsNoFiles = true;
      else
        this.status.log.warn(`the server did not list the test files (each file named like a test is shown): ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** Makes the tree the listed files that import Turnlens: adds new ones, drops those no longer listed (an open one stays). Returns how many are in it. */
  private async applyListing(listed: vscode.Uri[]): Promise<number> {
    const found = await Promise.all(listed.map((uri) => this.addIfTurnlens(uri)));
    const open = new Set(vscode.workspace.textDocuments.map((document) => document.uri.toString()));
    for (const uri of filesNoLongerListed(this.tree.fileUris(), listed.map(String), open)) this.removeFile(uri);
    return found.filter(Boolean).length;
  }

  /** Asks the server for the test files and applies them; a request made meanwhile asks once more after. */
  private async listFromServer(): Promise<void> {
    if (this.listing) {
      this.listAgain = true;
      return this.listing;
    }
    this.listing = (async () => {
      do {
        this.listAgain = false;
        const listed = await this.serverTestFiles();
        if (listed) await this.applyListing(listed);
      } while (this.listAgain);
    })().finally(() => (this.listing = undefined));
    return this.listing;
  }

  /** A test file created or changed on disk: the server's listing decides whether it belongs (else its name does). */
  private async addIfTestFile(uri: vscode.Uri): Promise<void> {
    if (!this.serverListsNoFiles && this.client.client.state === State.Running) return this.listFromServer();
    await this.addIfTurnlens(uri);
  }

  /** Adds a test file to the tree when it imports Turnlens; true when it does. */
  async addIfTurnlens(uri: vscode.Uri): Promise<boolean> {
    if (!isTestFileName(uri.path)) return false;
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return false;
    }
    if (!importsTurnlens(text)) return false;
    this.tree.addFile(uri.toString());
    this.syncFile(uri.toString());
    return true;
  }

  /**
   * Whether a file the server talks about belongs in the tree: one already there, or an open test
   * file that imports Turnlens (the server runs any open test file, a Jest one included).
   */
  private isTurnlensFile(uri: string): boolean {
    if (this.tree.file(uri)) return true;
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri);
    return document === undefined || importsTurnlens(document.getText());
  }

  // ------------------------------------------------------------------------------------------
  // The tree

  /** A test file is gone (deleted, or no longer listed): its items and its tests' results go. */
  private removeFile(uri: string): void {
    this.tree.removeFile(uri);
    this.latest.forgetFile(uri);
    this.syncFile(uri);
  }

  /** Brings a file's items up to date with the tree, then (unless told not to) the folders around the files. */
  private syncFile(uri: string, folders = true): void {
    if (!this.controller) return;
    const node = this.tree.file(uri);
    if (node) this.fileItems.set(uri, this.syncNode(node, this.fileItems.get(uri)));
    else this.fileItems.delete(uri);
    if (folders) this.syncFolders();
  }

  /** The Testing view's top: the files grouped by folder (folderTree.ts), each item under its folder. */
  private syncFolders(): void {
    const controller = this.controller;
    if (!controller) return;
    const roots = vscode.workspace.workspaceFolders ?? [];
    this.layout = folderTree(
      this.tree.fileUris(),
      roots.map((root) => root.uri.toString()),
      roots.map((root) => root.name),
    );
    const seen = new Set<string>();
    const place = (entries: FolderEntry[], parentId: string, collection: vscode.TestItemCollection) => {
      const items: vscode.TestItem[] = [];
      for (const entry of entries) {
        const id = entry.kind === "file" ? entry.uri : entry.id;
        seen.add(id);
        // An item moved to another folder is made afresh: an item belongs to one parent.
        const moved = this.parentOf.has(id) && this.parentOf.get(id) !== parentId;
        this.parentOf.set(id, parentId);
        if (entry.kind === "file") {
          const node = this.tree.file(entry.uri);
          if (!node) continue;
          let item = this.fileItems.get(entry.uri);
          if (!item || moved) this.fileItems.set(entry.uri, (item = this.syncNode(node, undefined)));
          items.push(item);
          continue;
        }
        let folder = moved ? undefined : this.folderItems.get(entry.id);
        if (!folder) this.folderItems.set(entry.id, (folder = controller.createTestItem(entry.id, entry.label, vscode.Uri.parse(entry.uri))));
        folder.label = entry.label;
        place(entry.children, entry.id, folder.children);
        items.push(folder);
      }
      collection.replace(items);
    };
    place(this.layout, "", controller.items);
    for (const id of [...this.parentOf.keys()]) if (!seen.has(id)) this.parentOf.delete(id);
    for (const id of [...this.folderItems.keys()]) if (!seen.has(id)) this.folderItems.delete(id);
    this.showLatest();
  }

  /** The status bar counts every test's latest result whose file is in the tree. */
  private showLatest(): void {
    this.status.setLatest(this.latest.counts((test) => this.tree.file(TestId.parse(test).uri) !== undefined));
  }

  /** Item ids with each folder replaced by the files in it (the server runs files and tests, not folders). */
  private withoutFolders(ids: readonly string[]): string[] {
    return ids.flatMap((id) => {
      if (!isFolderId(id)) return [id];
      const folder = findFolder(this.layout, id);
      return folder ? filesIn(folder) : [];
    });
  }

  private syncNode(node: TreeNode, existing: vscode.TestItem | undefined): vscode.TestItem {
    const uri = vscode.Uri.parse(node.uri);
    const item = existing && existing.uri?.toString() === uri.toString() ? existing : this.controller!.createTestItem(node.id, node.label, uri);
    item.label = node.label;
    item.description = node.description;
    item.range = node.range ? new vscode.Range(node.range.start.line, node.range.start.character, node.range.end.line, node.range.end.character) : undefined;
    item.canResolveChildren = node.kind === "file" && node.children.length === 0;
    item.children.replace(node.children.map((child) => this.syncNode(child, item.children.get(child.id))));
    return item;
  }

  /** The controller's item for an id (file uri, test id or run node id). */
  private item(id: string): vscode.TestItem | undefined {
    const testId = testIdOf(id);
    const { uri, path } = TestId.parse(testId);
    let item = this.fileItems.get(uri);
    for (let depth = 1; item && depth <= path.length; depth++) item = item.children.get(TestId.of(uri, path.slice(0, depth)));
    return item && id !== testId ? item.children.get(id) : item;
  }

  /** The test files' items and what is in them, out of their folders (`grouped`: as the Testing view shows them, in folders). */
  snapshot(grouped = false): ItemSnapshot[] {
    const snap = (item: vscode.TestItem): ItemSnapshot => {
      const children: ItemSnapshot[] = [];
      item.children.forEach((child) => void children.push(snap(child)));
      return { id: item.id, label: item.label, ...(item.description ? { description: item.description } : {}), children };
    };
    const items: ItemSnapshot[] = [];
    if (grouped) this.controller?.items.forEach((item) => void items.push(snap(item)));
    else
      for (const uri of this.tree.fileUris()) {
        const item = this.fileItems.get(uri);
        if (item) items.push(snap(item));
      }
    return items;
  }

  // ------------------------------------------------------------------------------------------
  // Progress

  private track(runId: string, run: vscode.TestRun | undefined, register: boolean): ActiveRun {
    let resolveEnded = () => {};
    const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
    const active: ActiveRun = {
      runId,
      run,
      output: [],
      recorded: new Set(),
      changedFiles: new Set(),
      states: new RunStates(),
      queue: Promise.resolve(),
      finished: false,
      files: new Set(),
      ended,
      resolveEnded,
    };
    if (register) this.runs.set(runId, active);
    if (run) this.publication.requestedStarted(active);
    return active;
  }

  private onProgress(params: TestRunProgressParams): void {
    let active = this.runs.get(params.runId);
    if (!active) {
      // The server's own run (on open, after an edit, from a code lens); a run id we do not know otherwise predates a restart.
      if (!params.background || !params.uri || !this.controller || params.message.type === "end" || !this.isTurnlensFile(params.uri)) return;
      active = this.track(params.runId, undefined, true);
    }
    this.status.runStarted(params.runId);
    const current = active;
    current.queue = current.queue
      .then(() => this.handle(current, params.message))
      .catch((error: unknown) => this.status.log.error(`test run ${params.runId}: ${String(error)}`));
  }

  private async handle(active: ActiveRun, message: TestRunProgressMessage): Promise<void> {
    if (active.finished) return;
    if (message.type === "output") return active.run ? active.run.appendOutput(terminalText(message.text)) : void active.output.push(message.text);
    if (message.type === "snapshotFailures") return this.setSnapshotFailures(message.uri, message.tests);
    if (message.type === "end") {
      if (!active.run) await this.lensesShown(active.changedFiles);
      await active
        .beforeEnd?.()
        .catch((error: unknown) => active.run?.appendOutput(terminalText(`Turnlens: no coverage: ${error instanceof Error ? error.message : String(error)}\n`)));
      return this.finish(active);
    }
    for (const change of active.states.apply(message)) await this.applyChange(active, change, true);
  }

  private async applyChange(active: ActiveRun, change: StateChange, withTranscript: boolean): Promise<void> {
    const uri = TestId.parse(change.test).uri;
    active.files.add(uri);
    let transcript: TestTranscript | undefined;
    let text: string | undefined;
    if (withTranscript && (change.state === "passed" || change.state === "failed")) {
      const result = await this.transcripts.fetch(change.test);
      transcript = result?.tests.find((test) => test.test === change.test);
      text = result?.text;
    }
    if (transcript) this.tree.setRuns(transcript);
    else if (!this.tree.find(change.test)) this.tree.ensureTest(change.test);
    this.syncFile(uri);
    const item = this.item(change.test);
    if (active.finished || !item) return;
    const models = transcript ? withDiffs(change.messages ?? [], transcript) : (change.messages ?? []);
    const messages =
      change.state === "failed" && transcript
        ? withTurns(toMessages(models, change.test), transcript, uri, turnsOnFirstMessage(models))
        : toMessages(models, change.test);
    if (change.state === "failed") this.produced.failed(change.test, messages);
    if (isFinal(change.state)) {
      active.recorded.add(change.test);
      if (this.latest.record(change.test, { state: change.state, durationMs: change.durationMs, messages: models, detail: { messages, text } }))
        active.changedFiles.add(uri);
    }
    const { run } = active;
    // A background run shows nothing as it goes: its results are reported at its end, if they changed one.
    if (!run) return;
    switch (change.state) {
      case "enqueued":
        return run.enqueued(item);
      case "started":
        return run.started(item);
      case "skipped":
        return run.skipped(item);
      case "errored":
        return run.errored(item, messages);
      case "passed":
        run.passed(item, change.durationMs);
        break;
      case "failed":
        run.failed(item, messages, change.durationMs);
        break;
      default:
        change.state satisfies never;
    }
    // The test's `testWorkflow` runs (its children) get no result of their own: VS Code counts every
    // item given one, and the Testing view's counts, badges and the status count tests.
    if (text) run.appendOutput(terminalText(text), undefined, item);
  }

  /**
   * Resolves once every one of `uris` shown in an editor got its code lenses again from the server
   * (after a background run's end, which makes the server ask the client to refresh them), or after
   * LENS_WAIT_MS: so a result reaches the gutter and the Testing view no sooner than its lens.
   */
  private lensesShown(uris: ReadonlySet<string>): Promise<void> {
    const shown = new Set(vscode.window.visibleTextEditors.map((editor) => editor.document.uri.toString()));
    const waiting = new Set([...uris].filter((uri) => shown.has(uri)));
    if (waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const timer = setTimeout(done, LENS_WAIT_MS);
      const subscription = this.client.onDidProvideCodeLenses.event((uri) => {
        waiting.delete(uri);
        if (waiting.size > 0) return;
        subscription.dispose();
        clearTimeout(timer);
        setTimeout(resolve, LENS_DRAWN_MS);
      });
    });
  }

  /**
   * Background runs ended (one, those that waited for the runs asked for, or none when the entry is
   * made again after a requested run: backgroundPublication.ts) that changed a test's latest result
   * (or a test went away): one run reports every test's latest result, so VS Code's summary and
   * badge (which count the newest run alone) count the whole workspace; a run that changed nothing
   * adds no entry to Test Results.
   */
  private publishLatest(sources: readonly ActiveRun[]): void {
    if (!this.controller) return;
    const request = new vscode.TestRunRequest(undefined, undefined, this.runProfile, false, true);
    const run = this.controller.createTestRun(request, LATEST_RUN_NAME, true);
    for (const source of sources) for (const text of source.output) run.appendOutput(terminalText(text));
    for (const [test, result] of this.latest.entries()) {
      const uri = TestId.parse(test).uri;
      if (!this.tree.file(uri)) continue;
      let item = this.item(test);
      if (!item) {
        // A result kept from an earlier session, of a file not opened since.
        this.tree.ensureTest(test);
        this.syncFile(uri);
        item = this.item(test);
      }
      if (!item) continue;
      const messages = result.detail?.messages ?? toMessages(result.messages, test);
      switch (result.state) {
        case "passed":
          run.passed(item, result.durationMs);
          break;
        case "failed":
          run.failed(item, messages, result.durationMs);
          break;
        case "errored":
          run.errored(item, messages, result.durationMs);
          break;
        case "skipped":
          run.skipped(item);
          break;
        default:
          result.state satisfies never;
      }
      if (sources.some((source) => source.recorded.has(test)) && result.detail?.text) run.appendOutput(terminalText(result.detail.text), undefined, item);
    }
    run.end();
  }

  private finish(active: ActiveRun): void {
    if (active.finished) return;
    active.finished = true;
    active.states.apply({ type: "end" });
    if (active.run) {
      active.run.end();
      // The run asked for is the newest entry: what it changed is shown.
      this.latest.takeChanged();
      // Background runs that ended meanwhile, or whose entry may be newer than its own: one entry after it counts them all.
      const after = this.publication.requestedEnded(active);
      if (after.publish) this.publishLatest(after.sources);
    } else if (this.latest.takeChanged()) {
      const now = this.publication.backgroundEnded(active);
      if (now.length > 0) this.publishLatest(now);
    }
    if (active.recorded.size > 0) void this.context.workspaceState.update(LATEST_KEY, this.latest.stored());
    this.runs.delete(active.runId);
    this.status.runEnded(active.runId, active.states.counts(), active.states.interrupted);
    this.showLatest();
    for (const uri of active.files) this.transcripts.refresh(uri);
    active.resolveEnded();
  }

  private interrupt(active: ActiveRun, reason: string): void {
    if (active.finished) return;
    for (const change of active.states.interrupt(reason)) {
      const item = this.item(change.test);
      if (!item) continue;
      active.run?.errored(item, new vscode.TestMessage(reason));
      if (change.test === testIdOf(change.test)) {
        active.recorded.add(change.test);
        this.latest.record(change.test, { state: "errored", messages: [{ message: reason }] });
      }
    }
    if (active.run) active.run.appendOutput(terminalText(`Turnlens: ${reason}\n`));
    else active.output.push(`Turnlens: ${reason}\n`);
    this.finish(active);
  }

  /** The server went away: every run going on ends, its unfinished tests errored with `reason`. */
  interruptAll(reason: string): void {
    for (const active of [...this.runs.values()]) this.interrupt(active, reason);
  }

  // ------------------------------------------------------------------------------------------
  // Profiles

  private async runHandler(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    await this.start();
    if (request.continuous) return this.watch(request, token);
    await this.runOnce(request, token);
  }

  /** Run with Coverage: the tests run as Run runs them, then each workflow file they reached gets its call sites' coverage. */
  private async coverageHandler(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    await this.start();
    await this.runOnce(request, token, true);
  }

  private async runOnce(request: vscode.TestRunRequest, token: vscode.CancellationToken, withCoverage = false): Promise<void> {
    if (!this.controller || token.isCancellationRequested) return;
    const include = request.include ? this.tree.runIds(this.withoutFolders(request.include.map((item) => item.id))) : this.tree.fileUris();
    const exclude = this.tree.runIds(this.withoutFolders((request.exclude ?? []).map((item) => item.id)));
    const runId = `client-${++this.counter}`;
    // Tracked before the request: the server sends `enqueued` (and may send `end`) before it answers.
    const run = this.controller.createTestRun(request);
    const active = this.track(runId, run, true);
    if (withCoverage)
      active.beforeEnd = async () => {
        if (active.files.size === 0) return;
        const tests = [...active.files];
        const [outcomes, lines] = await Promise.all([
          this.client.client.sendRequest(OutcomeCoverageRequest.type, { tests }),
          this.client.client.sendRequest(LineCoverageRequest.type, { tests }),
        ]);
        for (const model of coverageModel(outcomes, lines)) {
          // The percentage VS Code shows is the line coverage alone: the branch and function counts
          // would join it (testing.displayedCoveragePercent's default), the outcomes no test gives
          // among them; each branch still shows at its place, and the CLI's table has their figures.
          const { statementCounts: statements } = model;
          const file = new vscode.FileCoverage(vscode.Uri.parse(model.uri), new vscode.TestCoverageCount(statements.covered, statements.total));
          this.coverageDetails.set(file, model);
          this.produced.covered(file, model);
          run.addCoverage(file);
        }
      };
    const cancel = token.onCancellationRequested(() => void this.client.client.sendNotification(CancelTestRunNotification.type, { runId }).catch(() => {}));
    try {
      const result = await this.client.client.sendRequest(RunTestsRequest.type, { runId, include, exclude, ...(withCoverage ? { coverage: true } : {}) });
      if (result.refused) void vscode.window.showWarningMessage(`Turnlens: ${result.refused}.`);
    } catch (error) {
      // A connection that went away is the crash handler's to report (it ends every run, saying why).
      if (!lostConnection(error)) this.interrupt(active, `the run could not start: ${error instanceof Error ? error.message : String(error)}`);
    }
    await active.ended;
    cancel.dispose();
  }

  /**
   * Continuous run: the request runs once (so the server learns what each file reads), then the
   * server reruns open test files as they or the files they read change, and says which test files
   * that are not open a change affects (`turnlens/testsAffected`): those within the request rerun.
   */
  private async watch(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const watching = { request, token };
    this.continuous.add(watching);
    const ended = new Promise<void>((resolve) =>
      token.onCancellationRequested(() => {
        this.continuous.delete(watching);
        resolve();
      }),
    );
    await this.runOnce(request, token);
    await ended;
  }

  /** Debug: each file's chosen tests through the CLI under the Node debugger (debugRun.ts); its report gives the results. */
  private async debugHandler(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    await this.start();
    if (!this.controller) return;
    // Restricted Mode: debugging would run the workspace's code, which the Run profile never does either.
    if (!vscode.workspace.isTrusted) return void vscode.window.showWarningMessage("Turnlens: the workspace is not trusted, so Turnlens runs no tests.");
    const excluded = new Set(this.tree.runIds(this.withoutFolders((request.exclude ?? []).map((item) => item.id))));
    const ids = (request.include ? this.tree.runIds(this.withoutFolders(request.include.map((item) => item.id))) : this.tree.fileUris()).filter(
      (id) => !excluded.has(id),
    );
    const byFile = new Map<string, string[][] | undefined>();
    for (const id of ids) {
      const { uri, path } = TestId.parse(id);
      const paths = byFile.get(uri);
      if (path.length === 0 || (byFile.has(uri) && paths === undefined)) byFile.set(uri, undefined);
      else byFile.set(uri, [...(paths ?? []), path]);
    }
    const run = this.controller.createTestRun(request);
    const active = this.track(`debug-${++this.counter}`, run, false);
    // Ended whatever happens: a run asked for that never ended would hold back every background run's results (backgroundPublication.ts).
    try {
      await this.debugEach(byFile, active, run, token);
    } finally {
      const { passed, failed, skipped } = active.states.counts();
      this.status.log.info(`debug run: ${passed} passed, ${failed} failed, ${skipped} skipped`);
      this.finish(active);
    }
  }

  /** The Debug profile's files one after another, each under the debugger, its report applied to `run`. */
  private async debugEach(byFile: Map<string, string[][] | undefined>, active: ActiveRun, run: vscode.TestRun, token: vscode.CancellationToken): Promise<void> {
    for (const [uri, paths] of byFile) {
      if (token.isCancellationRequested) break;
      for (const id of paths ? paths.map((path) => TestId.of(uri, path)) : [uri]) {
        const item = this.item(id);
        if (item) run.started(item);
      }
      const report = await this.debugLauncher!.launch(uri, paths, run);
      const progress = report === undefined ? undefined : progressOfCliReport(report, (file) => vscode.Uri.file(file).toString());
      if (!progress) {
        run.appendOutput(terminalText(`Turnlens: the debug session of ${vscode.workspace.asRelativePath(vscode.Uri.parse(uri))} ended without a report.\n`));
        continue;
      }
      // `-t` skips the file's other tests; the runner reports them skipped, which they were not.
      const chosen = paths ? new Set(paths.map((path) => TestId.of(uri, path))) : undefined;
      for (const message of progress) {
        if (message.type === "output") run.appendOutput(terminalText(message.text));
        else if (message.type !== "end" && message.type !== "snapshotFailures" && (!chosen || chosen.has(message.test)))
          for (const change of active.states.apply(message)) await this.applyChange(active, change, false);
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // Command targets

  /** Runs items by id through the Run profile, as the Testing view would. */
  async runIds(ids: string[]): Promise<void> {
    await this.start();
    const items = ids.map((id) => this.item(id)).filter((item): item is vscode.TestItem => item !== undefined);
    if (items.length === 0) return;
    await this.runFromCommand(items);
  }

  async runTestAtCursor(): Promise<void> {
    await this.start();
    const editor = vscode.window.activeTextEditor;
    const node = editor ? this.tree.testAt(editor.document.uri.toString(), editor.selection.active.line) : undefined;
    if (!node) return void vscode.window.showInformationMessage("Turnlens: there is no test at the cursor.");
    await this.runIds([node.id]);
  }

  async runFile(target?: unknown): Promise<void> {
    await this.start();
    const uri = uriOf(target) ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri || !isTestFileName(uri.path)) return void vscode.window.showInformationMessage("Turnlens: open a test file to run its tests.");
    this.tree.addFile(uri.toString());
    this.syncFile(uri.toString());
    await this.runIds([uri.toString()]);
  }

  async runAll(): Promise<void> {
    await this.start();
    await this.runFromCommand(undefined);
  }

  /** A run a command started (all tests when `items` is undefined), cancelled by the Stop command. */
  private async runFromCommand(items: vscode.TestItem[] | undefined): Promise<void> {
    const source = new vscode.CancellationTokenSource();
    this.commandRuns.add(source);
    try {
      await this.runOnce(new vscode.TestRunRequest(items, undefined, this.runProfile), source.token);
    } finally {
      this.commandRuns.delete(source);
      source.dispose();
    }
  }

  /** Stops the runs commands started, the Testing view's and the server's own after edits. */
  async stop(): Promise<void> {
    for (const source of this.commandRuns) source.cancel();
    if (!this.client.client.isRunning()) return;
    for (const runId of this.runs.keys()) void this.client.client.sendNotification(CancelTestRunNotification.type, { runId }).catch(() => {});
    await this.client.client.sendRequest(ExecuteCommandRequest.type, { command: Commands.cancelRuns, arguments: [] }).catch(() => undefined);
  }

  /**
   * The tests whose snapshot did not match in their file's last run: package.json shows "Update
   * Snapshots" on these items only (`testId in turnlens.snapshotFailures`), as vscode-jest does.
   */
  private setSnapshotFailures(uri: string, tests: string[]): void {
    if (tests.length > 0) this.snapshotFailures.set(uri, tests);
    else if (!this.snapshotFailures.delete(uri)) return;
    void vscode.commands.executeCommand("setContext", "turnlens.snapshotFailures", [...this.snapshotFailures.values()].flat());
  }

  /**
   * "Update Snapshots" on a Testing-view test (else the test at the cursor): the server reruns it
   * from disk with -u (server/snapshotUpdates.ts) and reruns the file; what it did is said.
   */
  async updateSnapshots(target?: unknown): Promise<void> {
    await this.start();
    const id = this.testIdOf(target);
    const { uri, path } = id ? TestId.parse(id) : { uri: "", path: [] };
    if (path.length === 0) return void vscode.window.showInformationMessage("Turnlens: pick a test (not a file or a folder) to update its snapshots.");
    const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri);
    if (document?.isDirty) await document.save();
    const result = (await this.client.client.sendRequest(ExecuteCommandRequest.type, {
      command: Commands.updateSnapshot,
      arguments: [uri, path],
    })) as UpdateSnapshotResult;
    void vscode.window.showInformationMessage(`Turnlens: ${updateSnapshotWords(path, result)}`);
  }

  /** The transcript of a Testing-view item, else the test at the cursor, else the active file. */
  async showTranscript(target?: unknown): Promise<void> {
    await this.start();
    const id = this.testIdOf(target);
    if (!id) return void vscode.window.showInformationMessage("Turnlens: open a test file, or pick a test in the Testing view, to see its transcript.");
    await this.transcripts.show(id);
  }

  /** The test id (or a file's uri) of a Testing-view item, else of the test at the cursor, else the active file's uri. */
  testIdOf(target?: unknown): string | undefined {
    if (target && typeof target === "object" && "id" in target && typeof (target as { id: unknown }).id === "string" && !isFolderId((target as { id: string }).id)) {
      const node = this.tree.find((target as { id: string }).id);
      return node?.kind === "describe" ? node.uri : testIdOf((target as { id: string }).id);
    }
    const uri = uriOf(target) ?? vscode.window.activeTextEditor?.document.uri;
    const editor = vscode.window.activeTextEditor;
    const node = editor && uri && editor.document.uri.toString() === uri.toString() ? this.tree.testAt(uri.toString(), editor.selection.active.line) : undefined;
    return node?.kind === "test" ? node.id : uri && isTestFileName(uri.path) ? uri.toString() : undefined;
  }

  dispose(): void {
    this.interruptAll("the extension stopped");
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** Whether a test's state is a result (not enqueued or started). */
function isFinal(state: StateChange["state"]): state is FinalState {
  return state === "passed" || state === "failed" || state === "errored" || state === "skipped";
}

/**
 * The messages VS Code is given for a test. One its diagnostic marks goes to the test's transcript
 * document: VS Code gives a message with no location the test's own range and draws it there, in
 * red, a second mark beside the squiggle; in the transcript its peek shows the turns beside it.
 */
function toMessages(messages: MessageModel[], testId: string): vscode.TestMessage[] {
  return messages.map((model) => {
    const message =
      model.expected !== undefined && model.actual !== undefined
        ? vscode.TestMessage.diff(model.message, model.expected, model.actual)
        : new vscode.TestMessage(model.message);
    const location = messageLocation(model);
    if (location) {
      const { start, end } = location.range;
      message.location = new vscode.Location(vscode.Uri.parse(location.uri), new vscode.Range(start.line, start.character, end.line, end.character));
    } else if (model.diagnostic) message.location = new vscode.Location(transcriptUri(testId), new vscode.Position(0, 0));
    return message;
  });
}

/**
 * A failed test's messages with its turns: the first message's call stack is the turns, each at
 * the entry that met it (the peek lists them, each a link). Only a failure with no message of its
 * own gets the transcript as a message: VS Code shows a message without a location inline on the
 * test's line, which would be a second report of the same failure.
 */
function withTurns(messages: vscode.TestMessage[], transcript: TestTranscript, testUri: string, turnsOnFirst: boolean): vscode.TestMessage[] {
  const [first] = messages;
  const frames = turnFrames(transcript, testUri);
  if (!first) return [new vscode.TestMessage(new vscode.MarkdownString(transcriptMarkdown(transcript, testUri)))];
  // "Show the Run's Timeline" on its row and context menu in Test Results (package.json's testing/message/context).
  if (transcript.runs.length > 0) first.contextValue = "turnlens.hasTimeline";
  if (frames.length > 0 && turnsOnFirst) {
    first.stackTrace = frames.map((frame) => new vscode.TestMessageStackFrame(frame.label, vscode.Uri.parse(frame.uri), new vscode.Position(frame.line, frame.column)));
  }
  return messages;
}

function toRange({ start, end }: StatementModel["range"]): vscode.Range {
  return new vscode.Range(start.line, start.character, end.line, end.character);
}

/** A file's statements with their branches (the code's and the outcomes'), and its functions. */
function detailsOf(model: FileCoverageModel | undefined): vscode.FileCoverageDetail[] {
  if (!model) return [];
  const statements = model.statements.map((statement) => {
    const range = toRange(statement.range);
    return new vscode.StatementCoverage(
      statement.executed,
      range,
      statement.branches.map((branch) => new vscode.BranchCoverage(branch.executed, branch.range ? toRange(branch.range) : range, branch.label)),
    );
  });
  return [...statements, ...model.declarations.map((fn) => new vscode.DeclarationCoverage(fn.name, fn.executed, toRange(fn.range)))];
}

function uriOf(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  if (typeof target === "string") return vscode.Uri.parse(target);
  return undefined;
}

/** Whether a request failed because the server's connection closed (a crash, a stop). */
function lostConnection(error: unknown): boolean {
  return (
    error instanceof ConnectionError ||
    (error instanceof ResponseError && (error.code === ErrorCodes.PendingResponseRejected || error.code === ErrorCodes.ConnectionInactive))
  );
}
