// Read-only transcript documents (`turnlens-transcript:` scheme, language `turnlens-transcript`):
// the server renders a test's or a file's last runs (`turnlens/transcript`); open documents are
// refreshed when a run of their file ends.
import * as vscode from "vscode";
import { TestId, TranscriptRequest, type TranscriptResult } from "../server/protocol.ts";
import type { TurnlensClient } from "./client.ts";
import { fileLabel } from "./vscodeFree/testTree.ts";

export const TRANSCRIPT_SCHEME = "turnlens-transcript";
export const TRANSCRIPT_LANGUAGE = "turnlens-transcript";

/** The document uri of a test id's (or a file uri's) transcript; the path's extension sets the language. */
export function transcriptUri(testId: string): vscode.Uri {
  const { uri, path } = TestId.parse(testId);
  const name = path.length > 0 ? path.join(" › ") : fileLabel(uri);
  // The id travels base64url-encoded: its own `%`-escapes would not survive a uri's round trips.
  return vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/${name.replace(/[/\\]/g, "_")}.turnlens-transcript`, query: Buffer.from(testId).toString("base64url") });
}

/** The test id (or file uri) a transcript document shows. */
export function testIdOfTranscript(uri: vscode.Uri): string {
  return Buffer.from(uri.query, "base64url").toString();
}

export class Transcripts implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly fileRan = new vscode.EventEmitter<string>();
  /** A run of a file (its uri) ended: what shows its results reads them again (the timeline panel). */
  readonly onDidRunFile = this.fileRan.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly client: TurnlensClient,
    private readonly start: () => Promise<void>,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, this);
  }

  /** The server's transcript of a test id or a file uri; undefined when it has none (or is down). */
  async fetch(testId: string): Promise<TranscriptResult | undefined> {
    try {
      return (await this.client.client.sendRequest(TranscriptRequest.type, { test: testId })) ?? undefined;
    } catch {
      return undefined;
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    await this.start();
    const testId = testIdOfTranscript(uri);
    const result = await this.fetch(testId);
    if (result) return result.text;
    const { path } = TestId.parse(testId);
    return `${path.length > 0 ? `test ${path.join(" › ")}` : `file ${fileLabel(TestId.parse(testId).uri)}`}: no run yet. Run it; this document updates when the run ends.\n`;
  }

  /** Opens the transcript of a test id (or a file uri) beside the editor. */
  async show(testId: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument(transcriptUri(testId));
    if (document.languageId !== TRANSCRIPT_LANGUAGE) await vscode.languages.setTextDocumentLanguage(document, TRANSCRIPT_LANGUAGE);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  }

  /** A run of `fileUri` ended: the open transcripts of that file or its tests are read again. */
  refresh(fileUri: string): void {
    this.fileRan.fire(fileUri);
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === TRANSCRIPT_SCHEME && TestId.parse(testIdOfTranscript(document.uri)).uri === fileUri) this.changed.fire(document.uri);
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.fileRan.dispose();
  }
}
