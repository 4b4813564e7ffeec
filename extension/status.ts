// The language status item (server state, runs going on, every test's latest result, the last run's
// time and counts, problems, a warning past 4 s, what happened to the server), the status bar item
// (every test's latest result in the workspace, a spinner while a run goes) and the output channel, whose levels the user sets with the channel's own
// log-level menu (the server's lines with turnlens.logLevel).
import * as vscode from "vscode";
import { SLOW_RUN_MS, statusBarView, statusView, type EngineInUse, type LastRun, type ResultCounts, type StatusState } from "./vscodeFree/statusView.ts";
import { TEST_FILE_GLOB } from "./vscodeFree/testFiles.ts";

export class Status implements vscode.Disposable {
  /** The server's log (through the language client) and the extension's own, one channel. */
  readonly log: vscode.LogOutputChannel;
  /** Made once Turnlens starts, so a workspace that does not use it shows nothing on its test files. */
  private item: vscode.LanguageStatusItem | undefined;
  private bar: vscode.StatusBarItem | undefined;
  private readonly state: StatusState = {
    server: "stopped",
    trusted: vscode.workspace.isTrusted,
    runningSince: [],
    problems: 0,
    runMode: "onType",
    sessionRunMode: false,
  };
  /** Run id → when it started, for the runs going on. */
  private readonly running = new Map<string, number>();
  private slowTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.log = vscode.window.createOutputChannel("Turnlens", { log: true });
    this.disposables.push(
      this.log,
      vscode.languages.onDidChangeDiagnostics(() => this.countProblems()),
    );
  }

  /** Shows the item on test files and transcripts from now on. */
  enable(): void {
    if (this.item) return;
    this.item = vscode.languages.createLanguageStatusItem("turnlens.status", [{ pattern: TEST_FILE_GLOB }, { language: "turnlens-transcript" }]);
    this.item.name = "Turnlens";
    this.item.command = { title: "Show Output", command: "turnlens.showOutput" };
    this.bar = vscode.window.createStatusBarItem("turnlens.statusBar", vscode.StatusBarAlignment.Left, 0);
    this.bar.name = "Turnlens";
    this.bar.show();
    this.disposables.push(this.item, this.bar);
    this.countProblems();
    this.render();
  }

  /** The status bar item's text and tooltip, for the e2e suite. */
  get barText(): string {
    this.state.runningSince = [...this.running.values()];
    const view = statusBarView(this.state, Date.now());
    return `${view.text} — ${view.tooltip}`;
  }

  /** The status as text, for tests and the e2e suite. */
  get text(): string {
    this.state.runningSince = [...this.running.values()];
    const view = statusView(this.state, Date.now());
    return `${view.text} — ${view.detail}`;
  }

  setServer(server: StatusState["server"], incident?: string): void {
    this.state.server = server;
    if (incident !== undefined) this.state.incident = incident;
    if (server !== "ready") {
      this.running.clear();
    }
    this.render();
  }

  /** Forgets the last incident (after the user restarted the server). */
  clearIncident(): void {
    delete this.state.incident;
    this.render();
  }

  /** Which Turnlens the server comes from (the workspace's or the bundled one) and its version. */
  setEngine(engine: EngineInUse): void {
    this.state.engine = engine;
    this.render();
  }

  get engine(): EngineInUse | undefined {
    return this.state.engine;
  }

  setTrusted(trusted: boolean): void {
    this.state.trusted = trusted;
    this.render();
  }

  setRunMode(runMode: string, session: boolean): void {
    this.state.runMode = runMode;
    this.state.sessionRunMode = session;
    this.render();
  }

  runStarted(runId: string): void {
    if (this.running.has(runId)) return;
    this.running.set(runId, Date.now());
    clearTimeout(this.slowTimer);
    // Re-render once the run turns slow, so the warning shows while it is still going.
    this.slowTimer = setTimeout(() => this.render(), SLOW_RUN_MS + 50);
    this.render();
  }

  /** A run ended; an interrupted one (the server went away) is not the last run to report. */
  runEnded(runId: string, counts: Omit<LastRun, "durationMs">, interrupted = false): void {
    const started = this.running.get(runId);
    if (started === undefined) return;
    this.running.delete(runId);
    if (!interrupted) this.state.lastRun = { ...counts, durationMs: Date.now() - started };
    this.render();
  }

  /** Every test's latest known result in the workspace changed (latestResults.ts). */
  setLatest(counts: ResultCounts): void {
    this.state.latest = counts;
    this.render();
  }

  show(): void {
    this.log.show(true);
  }

  private countProblems(): void {
    let problems = 0;
    for (const [, diagnostics] of vscode.languages.getDiagnostics()) problems += diagnostics.filter((diagnostic) => diagnostic.source === "turnlens").length;
    if (problems === this.state.problems) return;
    this.state.problems = problems;
    this.render();
  }

  private render(): void {
    this.state.runningSince = [...this.running.values()];
    if (this.bar) {
      const bar = statusBarView(this.state, Date.now());
      this.bar.text = bar.text;
      this.bar.tooltip = bar.tooltip;
      this.bar.command = bar.command;
      this.bar.backgroundColor = bar.background === "error" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    }
    if (!this.item) return;
    const view = statusView(this.state, Date.now());
    this.item.text = view.text;
    this.item.detail = view.detail;
    this.item.busy = view.busy;
    this.item.severity =
      view.severity === "error"
        ? vscode.LanguageStatusSeverity.Error
        : view.severity === "warning"
          ? vscode.LanguageStatusSeverity.Warning
          : vscode.LanguageStatusSeverity.Information;
  }

  dispose(): void {
    clearTimeout(this.slowTimer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
