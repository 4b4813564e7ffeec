// The run timeline in a webview: the server's model and diagram (`turnlens/timeline`) shown under a
// strict content security policy (a nonce for its one style and one script, nothing loaded), in the
// editor's theme colours. A click on a box opens the `answer(...)` that met it and the call that asked it.
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import { TestId, TimelineRequest, type TimelineResult, type TimelineSite } from "../server/protocol.ts";
import type { TurnlensClient } from "./client.ts";

/** The diagram's `--tl-*` colours, from the editor's theme (VS Code sets these variables in every webview). */
const THEME_COLORS = `
:root {
  --tl-fg: var(--vscode-editor-foreground); --tl-muted: var(--vscode-descriptionForeground); --tl-bg: var(--vscode-editor-background);
  --tl-lane: var(--vscode-sideBar-background, var(--vscode-editor-background)); --tl-line: var(--vscode-panel-border, var(--vscode-editorWidget-border));
  --tl-box: var(--vscode-editor-inactiveSelectionBackground); --tl-box-line: var(--vscode-focusBorder);
  --tl-ok: var(--vscode-testing-iconPassed); --tl-bad: var(--vscode-testing-iconFailed); --tl-wait: var(--vscode-editorWarning-foreground);
  --tl-arrow: var(--vscode-charts-purple); --tl-mark: var(--vscode-charts-orange); --tl-band: var(--vscode-editorWidget-background);
}
body { color: var(--tl-fg); background: var(--tl-bg); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); padding: 8px 16px 24px; }
h1 { font-size: 1.2em; margin: 0 0 4px; } h2 { font-size: 1.05em; margin: 16px 0 6px; font-weight: 600; }
.muted { color: var(--tl-muted); } .passed { color: var(--tl-ok); } .failed { color: var(--tl-bad); }
.diagram { overflow-x: auto; }
/* A wide run scales to the panel rather than hide its last lanes; the HTML file scrolls instead. */
.diagram svg { max-width: 100%; height: auto; }
svg.timeline { font-family: var(--vscode-font-family); }`;

/** What the page's script posts: a box was clicked. */
interface OpenMessage {
  type: "open";
  run: number;
  box: number;
}

export class TimelinePanels implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The test the panel shows, and what it showed last. */
  private shown: { testId: string; result: TimelineResult } | undefined;

  constructor(
    private readonly client: TurnlensClient,
    private readonly start: () => Promise<void>,
  ) {}

  /** Opens (or reuses) the timeline panel beside the editor for a test id. */
  async show(testId: string): Promise<void> {
    await this.start();
    const result = await this.fetch(testId);
    if (!result) {
      const { path } = TestId.parse(testId);
      void vscode.window.showInformationMessage(`Turnlens: "${path.join(" › ")}" has no run yet; run it, then open its timeline.`);
      return;
    }
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        "turnlens.timeline",
        "Timeline",
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
        {
          enableScripts: true,
          localResourceRoots: [],
        },
      );
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.shown = undefined;
      });
      this.panel.webview.onDidReceiveMessage((message: OpenMessage) => this.open(message));
    } else this.panel.reveal(undefined, false);
    this.render(testId, result);
  }

  /** A run of `fileUri` ended: the panel, if it shows one of its tests, reads the test's timeline again. */
  async refresh(fileUri: string): Promise<void> {
    const shown = this.shown;
    if (!shown || TestId.parse(shown.testId).uri !== fileUri) return;
    const result = await this.fetch(shown.testId);
    if (result && this.panel && this.shown?.testId === shown.testId) this.render(shown.testId, result);
  }

  private async fetch(testId: string): Promise<TimelineResult | undefined> {
    try {
      return (await this.client.client.sendRequest(TimelineRequest.type, { test: testId })) ?? undefined;
    } catch {
      return undefined;
    }
  }

  private render(testId: string, result: TimelineResult): void {
    const panel = this.panel!;
    this.shown = { testId, result };
    panel.title = `Timeline: ${result.name}`;
    panel.webview.html = timelinePage(result, randomBytes(16).toString("base64"));
  }

  /** The clicked box's call that asked it beside, then its entry where the test file is, focused. */
  private async open(message: OpenMessage): Promise<void> {
    if (message?.type !== "open") return;
    const box = this.shown?.result.runs[message.run]?.timeline.boxes[message.box];
    if (!box) return;
    if (box.askedAt) await showSite(box.askedAt, vscode.ViewColumn.Three, true);
    const entry = box.entry?.site;
    if (entry) await showSite(entry, vscode.ViewColumn.One, false);
    else if (!box.askedAt) void vscode.window.showInformationMessage("Turnlens: this turn's entry and call are not known (a script function met it).");
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

async function showSite(site: TimelineSite, viewColumn: vscode.ViewColumn, preserveFocus: boolean): Promise<void> {
  const position = new vscode.Position(Math.max(0, site.line - 1), Math.max(0, site.column - 1));
  await vscode.window.showTextDocument(vscode.Uri.file(site.file), { viewColumn, preserveFocus, preview: true, selection: new vscode.Range(position, position) });
}

/** The webview's whole page: nothing but what it holds, its style and script allowed by one nonce. */
export function timelinePage(result: TimelineResult, nonce: string): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  const runs = result.runs.map(
    (run, index) =>
      `<h2>Run ${index + 1}: ${escape(run.timeline.workflow)} · ${escape(run.timeline.ending)}</h2><div class="diagram" data-run="${index}">${run.svg}</div>`,
  );
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">`,
    `<style nonce="${nonce}">${THEME_COLORS}${result.style}</style></head><body>`,
    `<h1>${escape(result.name)} <span class="${result.status === "passed" ? "passed" : "failed"}">${escape(result.status)}</span></h1>`,
    '<div class="muted">Click a turn to open the answer(…) that met it, and beside it the workflow call that asked it.</div>',
    runs.length > 0 ? runs.join("") : '<p class="muted">This test made no testWorkflow run.</p>',
    `<script nonce="${nonce}">${PAGE_SCRIPT}</script>`,
    "</body></html>",
  ].join("\n");
}

// Each box posts its run and index; the extension knows the rest from the model it was sent.
const PAGE_SCRIPT = `
(function () {
  const vscode = acquireVsCodeApi();
  for (const diagram of document.querySelectorAll("[data-run]")) {
    const run = Number(diagram.getAttribute("data-run"));
    for (const box of diagram.querySelectorAll(".box")) {
      const open = () => {
        for (const other of document.querySelectorAll(".box.selected")) other.classList.remove("selected");
        box.classList.add("selected");
        vscode.postMessage({ type: "open", run, box: Number(box.getAttribute("data-box")) });
      };
      box.addEventListener("click", open);
      box.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); open(); } });
    }
  }
})();`;

function escape(text: string): string {
  return text.replace(/[&<>]/g, (char) => (char === "&" ? "&amp;" : char === "<" ? "&lt;" : "&gt;"));
}
