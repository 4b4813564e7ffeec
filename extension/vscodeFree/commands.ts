// One table of the extension's commands: id, palette title, when it shows, and the handler.
// scripts/genManifest.mjs writes `contributes.commands` from it, so it has no `vscode` import; the
// handlers call the targets main.ts hands over.

/** The category every command shows under in the palette. */
export const CATEGORY = "Turnlens";

/** What the handlers act on; main.ts builds it from the client, the test controller and the status. */
export interface CommandTargets {
  runTestAtCursor(): Promise<void>;
  /** `target`: a uri (string or vscode.Uri) from a menu; else the active editor's file. */
  runFile(target?: unknown): Promise<void>;
  runAll(): Promise<void>;
  stop(): Promise<void>;
  /** `target`: a vscode.TestItem from the explorer's menu; else the test at the cursor, else the file. */
  showTranscript(target?: unknown): Promise<void>;
  /** `target`: a test id (a Timeline lens), a vscode.TestItem (the explorer's menu), `{ test }` (a test message's menu in Test Results); else the test at the cursor. */
  showTimeline(target?: unknown): Promise<void>;
  /** `target`: a vscode.TestItem from the explorer's menu; else the test at the cursor. Reruns it with -u. */
  updateSnapshots(target?: unknown): Promise<void>;
  restartServer(): Promise<void>;
  toggleInlineTurns(): Promise<void>;
  chooseRunMode(): Promise<void>;
  showOutput(): void;
  /** Scaffolds a first workflow and its test into the open folder. */
  gettingStarted(): Promise<void>;
  /** Asks for a run folder and its workflow, writes the test that replays the run, and opens it. */
  writeTestFromRun(): Promise<void>;
}

export interface CommandSpec {
  id: string;
  title: string;
  /** When the command shows in the palette (a `when` clause); always when absent. */
  when?: string;
  /** Its icon (`$(codicon)`), for a menu that shows it as a button. */
  icon?: string;
  handler: (targets: CommandTargets, ...args: unknown[]) => unknown;
}

const IN_TEST_FILE = "resourceFilename =~ /\\.(test|spec)\\.[cm]?[jt]sx?$/";

export const COMMANDS: readonly CommandSpec[] = [
  { id: "turnlens.runTestAtCursor", title: "Run the Test at the Cursor", when: `editorIsOpen && ${IN_TEST_FILE}`, handler: (targets) => targets.runTestAtCursor() },
  { id: "turnlens.runThisFile", title: "Run the Tests of This File", when: `editorIsOpen && ${IN_TEST_FILE}`, handler: (targets, target) => targets.runFile(target) },
  { id: "turnlens.runAllTests", title: "Run All Tests", handler: (targets) => targets.runAll() },
  { id: "turnlens.stopRuns", title: "Stop Running Tests", handler: (targets) => targets.stop() },
  { id: "turnlens.showTranscript", title: "Show the Run's Transcript", handler: (targets, target) => targets.showTranscript(target) },
  { id: "turnlens.showTimeline", title: "Show the Run's Timeline", icon: "$(timeline-open)", handler: (targets, target) => targets.showTimeline(target) },
  // Not turnlens.updateSnapshot: that is the server's command (the quick fix's), which this one calls.
  { id: "turnlens.updateTestSnapshots", title: "Update Snapshots", handler: (targets, target) => targets.updateSnapshots(target) },
  { id: "turnlens.restartServer", title: "Restart the Server", handler: (targets) => targets.restartServer() },
  { id: "turnlens.toggleInlineTurns", title: "Toggle Inline Turns", handler: (targets) => targets.toggleInlineTurns() },
  { id: "turnlens.chooseRunMode", title: "Choose When Tests Run (This Session)", handler: (targets) => targets.chooseRunMode() },
  { id: "turnlens.showOutput", title: "Show Output", handler: (targets) => targets.showOutput() },
  { id: "turnlens.gettingStarted", title: "Get Started: Add a First Workflow and Its Test", handler: (targets) => targets.gettingStarted() },
  // Not turnlens.recordRun: the language client registers the server's commands under their own ids.
  { id: "turnlens.writeTestFromRun", title: "Write a Test from a Run Folder…", handler: (targets) => targets.writeTestFromRun() },
];

/** Registers every command with `register` (vscode.commands.registerCommand); returns the registrations. */
export function registerCommands<D>(register: (id: string, handler: (...args: unknown[]) => unknown) => D, targets: CommandTargets): D[] {
  return COMMANDS.map((command) => register(command.id, (...args: unknown[]) => command.handler(targets, ...args)));
}
