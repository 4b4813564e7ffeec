// What the server knows: the open documents, their static analysis, the latest run results, the
// settings cached per document, trust and the client's capabilities. One instance per server,
// made by startServer; no module globals.
import { fileURLToPath } from "node:url";
import { Emitter, TextDocuments, type ClientCapabilities } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { isTestFile } from "../core/runner/discover.ts";
import type { FileReport, TestReport } from "../core/runner/report.ts";
import type { SchemaName } from "../core/runner/schemaNames.ts";
import { analyzeTestFile } from "./analysis/analyzeTestFile.ts";
import type { StaticTestFile } from "./analysis/model.ts";
import { defaultSettings, type Settings } from "./settings.ts";
import { toRunView, type RunView } from "./toProtocol.ts";

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

/** A run's results for the document version it ran. */
export interface RunResults {
  version: number;
  text: string;
  model: StaticTestFile;
  report: FileReport;
  schemas: SchemaName[];
  /** The report converted for the editor, with the document's settings at the time. */
  view: RunView;
}

/** One open test document. */
export interface DocumentState {
  uri: string;
  /** Absolute path: what the runner runs and what stack traces name. */
  file: string;
  /** The static pass of the latest version analyzed; redone lazily when the version moves on. */
  analysis?: Analysis;
  /** The latest run results whose version was current when they arrived. */
  results?: RunResults;
  /** Each test's latest report by runner id, kept across edits: the code lenses show the last result. */
  lastReports: Map<string, TestReport>;
  /** Settings resolved for this document's resource; dropped with the document on close. */
  settings: Settings;
}

export class ServerState {
  readonly documents = new TextDocuments(TextDocument);
  /** False when the client said the workspace is not trusted: no user code runs. */
  trusted = true;
  /** The client shows a test tree (the experimental capability). */
  testExplorer = false;
  clientCapabilities: ClientCapabilities = {};
  /** Settings from initializationOptions or didChangeConfiguration, for documents without their own. */
  globalSettings: Settings = defaultSettings;
  /** A test document was opened (its state exists; it has not run yet). */
  readonly onDidOpen = new Emitter<string>();
  /** A test document was closed (its state is gone). */
  readonly onDidClose = new Emitter<string>();
  /** A document's run results changed, so the views built on them refresh. */
  readonly onDidChangeResults = new Emitter<string>();
  private readonly byUri = new Map<string, DocumentState>();

  constructor(readonly log: Logger) {}

  /** The state of an open test document; undefined for anything else. */
  get(uri: string): DocumentState | undefined {
    return this.byUri.get(uri);
  }

  all(): DocumentState[] {
    return [...this.byUri.values()];
  }

  /** Starts tracking a document when it is a test file Turnlens can run. */
  open(uri: string): DocumentState | undefined {
    const file = fileOf(uri);
    if (!file || !isTestFile(file)) return undefined;
    const state: DocumentState = { uri, file, lastReports: new Map(), settings: this.globalSettings };
    this.byUri.set(uri, state);
    return state;
  }

  close(uri: string): void {
    this.byUri.delete(uri);
  }

  /** The static pass of the document's current text. */
  analysis(uri: string): Analysis | undefined {
    const state = this.byUri.get(uri);
    const document = this.documents.get(uri);
    if (!state || !document) return undefined;
    if (state.analysis?.version !== document.version) {
      const text = document.getText();
      state.analysis = { version: document.version, text, model: analyzeTestFile(state.file, text) };
    }
    return state.analysis;
  }

  /** Results only while their version is the document's. */
  currentResults(uri: string): RunResults | undefined {
    const results = this.byUri.get(uri)?.results;
    return results && results.version === this.documents.get(uri)?.version ? results : undefined;
  }

  /** Stores a run's results (merging a partial run into the same version's earlier results). */
  setResults(uri: string, analysis: Analysis, report: FileReport, schemas: SchemaName[], partial: boolean): void {
    const state = this.byUri.get(uri);
    if (!state) return;
    let merged = report;
    if (partial && state.results?.version === analysis.version) {
      const ran = new Set(report.tests.map((test) => test.id));
      merged = { ...report, tests: [...state.results.report.tests.filter((test) => !ran.has(test.id)), ...report.tests] };
      schemas = [...state.results.schemas, ...schemas];
    }
    for (const test of report.tests) state.lastReports.set(test.id, test);
    const view = toRunView({ file: state.file, text: analysis.text, model: analysis.model, report: merged, schemas, settings: state.settings });
    state.results = { version: analysis.version, text: analysis.text, model: analysis.model, report: merged, schemas, view };
    this.onDidChangeResults.fire(uri);
  }

  /** Reconverts every document's results, after a settings change. */
  refreshViews(): void {
    for (const state of this.byUri.values()) {
      const results = state.results;
      if (!results) continue;
      results.view = toRunView({ file: state.file, text: results.text, model: results.model, report: results.report, schemas: results.schemas, settings: state.settings });
      this.onDidChangeResults.fire(state.uri);
    }
  }
}

/** The path of a `file:` uri; other schemes (untitled buffers) are not run. */
export function fileOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
