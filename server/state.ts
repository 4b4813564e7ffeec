// What the server knows: one record per test document (its static analysis, its latest run results,
// its settings, and its runs, which the scheduler keeps in the same record), what each test file's
// runs read (moduleGraph.ts), trust and the client's capabilities. One instance per server, made by
// startServer; no module globals. The scheduler asks the state; the state never calls the scheduler.
import { fileURLToPath } from "node:url";
import { Emitter, TextDocuments, type ClientCapabilities } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { isTestFile } from "../core/project/discover.ts";
import type { FileReport, TestReport } from "../core/execution/report.ts";
import type { SchemaName } from "../core/execution/schemaNames.ts";
import { analyzeTestFile } from "./analysis/analyzeTestFile.ts";
import type { StaticTestFile } from "./analysis/model.ts";
import { waitingWork, type MessageBacklog } from "./messageBacklog.ts";
import { ModuleGraph } from "./moduleGraph.ts";
import { defaultSettings, type Settings } from "./settings.ts";
import { toRunView, type RunView } from "./views/runView.ts";

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** The static pass over one version of a document. */
export interface Analysis {
  version: number;
  text: string;
  model: StaticTestFile;
}

/**
 * The version of one file a run read: an open document's version (the text sent to the worker),
 * or, for a file read from disk, its modification time when the run ended.
 */
export interface InputVersion {
  file: string;
  version?: number;
  modifiedMs?: number;
}

/** A run's results for the document version it ran. */
export interface RunResults {
  version: number;
  /** Every file the run read and the version of it the run read (the test file first). */
  inputs: InputVersion[];
  text: string;
  model: StaticTestFile;
  report: FileReport;
  schemas: SchemaName[];
  /** The report converted for the editor, with the document's settings at the time. */
  view: RunView;
}

export interface RunRequest {
  /** Test paths to run (describe names, then the test name); absent runs the whole file. */
  paths?: string[][];
  /** The client's explorer runs this run serves; empty for a run the server started itself. */
  runIds: string[];
  /** Run with Coverage: the run measures line coverage (server/lineCoverageRuns.ts keeps it). */
  coverage?: true;
}

/** One run of one document, as the features see it. */
export interface RunInfo {
  /** Unique per server: progress for a background run goes out under it. */
  id: string;
  uri: string;
  /** The test file's path. */
  file: string;
  /** The document version it runs; undefined for a file that is not open (run from disk). */
  version: number | undefined;
  request: RunRequest;
  analysis: Analysis;
  /** When it started, from the injected clock. */
  started: number;
  /** The versions of the open documents whose text it was sent, by path. */
  sentVersions: ReadonlyMap<string, number>;
  /** The count of input changes when it started: a file it read that changed later makes it stale. */
  changesBefore: number;
}

/** A document's runs: the part of its record the scheduler (scheduler.ts) writes. */
export interface DocumentRuns {
  timer?: unknown;
  /** The document's own open or change the pending debounce ends, if any. */
  ownReason?: "open" | "change";
  /** A file its runs read changed, and the pending debounce ends in a run. */
  inputWantsRun?: boolean;
  running?: { info: RunInfo; controller: AbortController };
  /** What was asked while a run was going; started when it ends. */
  queued?: RunRequest;
  /** What was asked while no run was going: started once the client's messages are read. */
  waitingStart?: RunRequest;
}

/**
 * One test document's record, which the state and the scheduler share: an open test document, or a
 * test file that is not open while the scheduler runs it from disk (the explorer asked for it).
 */
export interface DocumentState {
  uri: string;
  /** Absolute path: what the runner runs and what stack traces name. */
  file: string;
  /** Open in the editor; false for a test file run from disk, whose record goes when its run ends. */
  open: boolean;
  /** The static pass of the latest version analyzed; redone lazily when the version moves on. */
  analysis?: Analysis;
  /** The latest run results whose version was current when they arrived. */
  results?: RunResults;
  /** Each test's latest report by runner id, kept across edits: the code lenses show the last result. */
  lastReports: Map<string, TestReport>;
  /** Settings resolved for this document's resource; dropped with the document on close. */
  settings: Settings;
  /** Its debounce, its run, what is queued behind it: the scheduler's part. */
  runs: DocumentRuns;
}

export class ServerState {
  readonly documents = new TextDocuments(TextDocument);
  /**
   * False when the client said the workspace is not trusted: no user code runs. False too until
   * `initialize` says (features/trust.ts): a document opened before it runs nothing.
   */
  trusted = false;
  /** The client shows a test tree (the experimental capability). */
  testExplorer = false;
  clientCapabilities: ClientCapabilities = {};
  /** Settings from initializationOptions or didChangeConfiguration, for documents without their own. */
  globalSettings: Settings = defaultSettings;
  /** A test document was opened (its state exists; it has not run yet). */
  readonly onDidOpen = new Emitter<string>();
  /** A test document was closed (its state is gone). */
  readonly onDidClose = new Emitter<string>();
  /** What each test file's last run read, and the reverse: which test files a change reruns. */
  readonly graph = new ModuleGraph();
  /** A document's run results changed, so the views built on them refresh. */
  readonly onDidChangeResults = new Emitter<string>();
  /** Every document's record: the open test documents, and the test files run from disk meanwhile. */
  private readonly byUri = new Map<string, DocumentState>();
  /**
   * The TextDocument each analysis and each run's results were made from. A version number alone
   * does not name a text: a second didOpen of an open document may reuse the version with other
   * text (a new TextDocument), and what was made from the old one must not be served for it.
   */
  private readonly madeFrom = new WeakMap<Analysis | RunResults, TextDocument>();

  constructor(
    readonly log: Logger,
    private readonly backlog: MessageBacklog,
  ) {}

  /** The state of an open test document; undefined for anything else. */
  get(uri: string): DocumentState | undefined {
    const state = this.byUri.get(uri);
    return state?.open ? state : undefined;
  }

  /** The open test documents. */
  all(): DocumentState[] {
    return [...this.byUri.values()].filter((state) => state.open);
  }

  /** The record of a document, open or run from disk; undefined when it has none. */
  recordOf(uri: string): DocumentState | undefined {
    return this.byUri.get(uri);
  }

  /** Every record: the open test documents, and the test files run from disk. */
  records(): DocumentState[] {
    return [...this.byUri.values()];
  }

  /** The record of a test file, open or not; one not open is made for a run from disk (`forgetClosed` drops it). */
  record(uri: string, file: string): DocumentState {
    let state = this.byUri.get(uri);
    if (!state) this.byUri.set(uri, (state = { uri, file, open: false, lastReports: new Map(), settings: this.globalSettings, runs: {} }));
    return state;
  }

  /** Drops the record of a test file that is not open (its run from disk ended). */
  forgetClosed(uri: string): void {
    if (this.byUri.get(uri)?.open === false) this.byUri.delete(uri);
  }

  /** Starts tracking a document when it is a test file Turnlens can run (a run from disk of it goes on in its record). */
  open(uri: string): DocumentState | undefined {
    const file = fileOf(uri);
    if (!file || !isTestFile(file)) return undefined;
    const runs = this.byUri.get(uri)?.runs ?? {};
    const state: DocumentState = { uri, file, open: true, lastReports: new Map(), settings: this.globalSettings, runs };
    this.byUri.set(uri, state);
    return state;
  }

  close(uri: string): void {
    this.byUri.delete(uri);
  }

  /**
   * Whether the document's latest change still waits behind the client's messages (the scheduler
   * deferred it, messageBacklog.ts): its analysis is then the last one made, not redone for each message.
   */
  changeWaits(uri: string): boolean {
    return this.backlog.isWaiting(waitingWork.change(uri));
  }

  /**
   * The static pass of the document's current text; never throws (a failure is logged, the model
   * empty). While the document's change waits behind a backlog: the last pass made, of older text
   * (`isCurrent` tells), so a flood of messages does not redo it for each one.
   */
  analysis(uri: string): Analysis | undefined {
    const state = this.get(uri);
    const document = this.documents.get(uri);
    if (!state || !document) return undefined;
    if (state.analysis && this.changeWaits(uri)) return state.analysis;
    if (state.analysis?.version !== document.version || this.madeFrom.get(state.analysis) !== document) {
      const text = document.getText();
      state.analysis = { version: document.version, text, model: this.analyze(state.file, text) };
      this.madeFrom.set(state.analysis, document);
    }
    return state.analysis;
  }

  /** Whether the document's analysis is of its current text (false while its change waits behind a backlog). */
  isCurrent(uri: string): boolean {
    const analysis = this.get(uri)?.analysis;
    const document = this.documents.get(uri);
    return analysis !== undefined && document !== undefined && analysis.version === document.version && this.madeFrom.get(analysis) === document;
  }

  /** analyzeTestFile is stack-safe; anything else it throws is a bug, logged rather than fatal. */
  private analyze(file: string, text: string): StaticTestFile {
    try {
      return analyzeTestFile(file, text);
    } catch (error) {
      this.log.error(`the static pass of ${file} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return { tests: [], calls: [], problems: [], imports: {}, looseEntries: [] };
    }
  }

  /** Results only while they are of the document's current text (its version, and its open). */
  currentResults(uri: string): RunResults | undefined {
    const results = this.get(uri)?.results;
    const document = this.documents.get(uri);
    return results && results.version === document?.version && this.madeFrom.get(results) === document ? results : undefined;
  }

  /**
   * The text of every open document a bundle may load (saved or not, test files included), by
   * path, and the version of each: what a run reads in place of the disk.
   */
  openSources(): { sources: Record<string, string>; versions: Map<string, number> } {
    const sources: Record<string, string> = {};
    const versions = new Map<string, number>();
    for (const document of this.documents.all()) {
      const file = fileOf(document.uri);
      if (!file || !BUNDLED_FILE.test(file) || file.includes("/node_modules/")) continue;
      sources[file] = document.getText();
      versions.set(file, document.version);
    }
    return { sources, versions };
  }

  /** The open document of a path, if one is open (test file or not). */
  openDocumentOf(file: string): TextDocument | undefined {
    for (const document of this.documents.all()) if (fileOf(document.uri) === file) return document;
    return undefined;
  }

  /** Stores a run's results (merging a partial run into the same version's earlier results). */
  setResults(uri: string, analysis: Analysis, report: FileReport, schemas: SchemaName[], partial: boolean, inputs: InputVersion[]): void {
    const state = this.get(uri);
    if (!state) return;
    const document = this.madeFrom.get(analysis);
    if (!document || document !== this.documents.get(uri)) {
      // The document was opened again (same version, new text) while this run went: its results are stale.
      this.log.debug(`results of ${uri} dropped: the document was reopened during the run`);
      return;
    }
    let merged = report;
    const earlier = state.results;
    if (partial && earlier?.version === analysis.version && this.madeFrom.get(earlier) === document) {
      const ran = new Set(report.tests.map((test) => test.id));
      merged = { ...report, tests: [...earlier.report.tests.filter((test) => !ran.has(test.id)), ...report.tests] };
      schemas = [...earlier.schemas, ...schemas];
    }
    for (const test of report.tests) state.lastReports.set(test.id, test);
    const view = this.viewOf(state, analysis, merged, schemas);
    if (!view) return;
    state.results = { version: analysis.version, inputs, text: analysis.text, model: analysis.model, report: merged, schemas, view };
    this.madeFrom.set(state.results, document);
    this.onDidChangeResults.fire(uri);
  }

  /** The editor's view of a run; undefined (logged) if converting throws, which is a bug, never fatal. */
  private viewOf(state: DocumentState, source: { text: string; model: StaticTestFile }, report: FileReport, schemas: SchemaName[]): RunView | undefined {
    try {
      return toRunView({ file: state.file, text: source.text, model: source.model, report, schemas, settings: state.settings });
    } catch (error) {
      this.log.error(`the results of ${state.file} could not be shown: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return undefined;
    }
  }

  /** Reconverts every document's results, after a settings change. */
  refreshViews(): void {
    for (const state of this.all()) {
      const results = state.results;
      if (!results) continue;
      const view = this.viewOf(state, results, results.report, results.schemas);
      if (!view) continue;
      results.view = view;
      this.onDidChangeResults.fire(state.uri);
    }
  }
}

/** The files the runner's bundler loads itself (core/execution/transform.ts): only their open buffers are sent. */
const BUNDLED_FILE = /\.[cm]?[jt]sx?$/;

/** The path of a `file:` uri; other schemes (untitled buffers) are not run. */
export function fileOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
