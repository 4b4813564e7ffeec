// The extension's entry: activate wires the status, the client, the transcripts, the test explorer
// and the commands, and starts the server only where a test file imports Turnlens (or a Turnlens
// command runs); deactivate stops the server.
import * as vscode from "vscode";
import { State } from "vscode-languageclient/node";
import { TurnlensClient, type EngineReport } from "./client.ts";
import { registerCommands, type CommandTargets } from "./vscodeFree/commands.ts";
import { gettingStarted } from "./gettingStarted.ts";
import { writeTestFromRun } from "./recordRun.ts";
import { Status } from "./status.ts";
import { TestExplorer, type ItemSnapshot } from "./testController.ts";
import type { Produced } from "./producedResults.ts";
import { importsTurnlens, isTestFileName } from "./vscodeFree/testFiles.ts";
import { TimelinePanels } from "./timelinePanel.ts";
import { Transcripts } from "./transcript.ts";

/** What `activate` returns: for other extensions and the e2e suite. */
export interface TurnlensApi {
  /** Starts the server (if it was not) and resolves once it runs. */
  ready(): Promise<void>;
  /** The server's process id while it runs. */
  serverPid(): number | undefined;
  /** The language status item's text and detail. */
  status(): string;
  /** The status bar item's text and tooltip. */
  statusBar(): string;
  /** The test files' items, out of their folders (a file, its describes and tests, their runs). */
  testItems(): ItemSnapshot[];
  /** The Testing view's tree as shown: folders, then the files in them. */
  testView(): ItemSnapshot[];
  /** The Turnlens the server comes from, and the line the output channel got about it. */
  engine(): EngineReport;
  /** The last failure messages (with their call stacks) and coverage the runs gave VS Code. */
  produced(): Produced;
}

let active: TurnlensClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<TurnlensApi> {
  const status = new Status();
  const client = new TurnlensClient(context, status);
  active = client;
  const start = async (): Promise<void> => {
    explorer.enable();
    status.enable();
    if (client.client.state === State.Stopped || client.client.state === State.StartFailed) status.clearIncident();
    await client.start();
  };
  const transcripts = new Transcripts(client, start);
  const explorer = new TestExplorer(context, client, status, transcripts, start);
  const timelines = new TimelinePanels(client, start);
  transcripts.onDidRunFile((uri) => void timelines.refresh(uri));
  client.onCrash = (description) => explorer.interruptAll(`${description}; run the test again`);
  client.client.onDidChangeState(({ newState }) => newState === State.Running || explorer.interruptAll("the Turnlens server stopped"));

  const targets: CommandTargets = {
    runTestAtCursor: () => explorer.runTestAtCursor(),
    runFile: (target) => explorer.runFile(target),
    runAll: () => explorer.runAll(),
    stop: () => explorer.stop(),
    showTranscript: (target) => explorer.showTranscript(target),
    showTimeline: async (target) => {
      // A lens passes the test id; a test message's button passes `{ test, message }`; the explorer's menu, the item.
      const item = target && typeof target === "object" && "message" in target ? (target as { test?: unknown }).test : target;
      const id = typeof item === "string" ? item : explorer.testIdOf(item);
      if (!id?.includes("#")) return void vscode.window.showInformationMessage("Turnlens: pick a test (not a file or a folder) to see its run's timeline.");
      await timelines.show(id);
    },
    updateSnapshots: (target) => explorer.updateSnapshots(target),
    restartServer: async () => {
      explorer.enable();
      status.enable();
      await client.restart();
    },
    toggleInlineTurns: () => client.toggleInlineTurns(),
    chooseRunMode: () => client.chooseRunMode(),
    showOutput: () => status.show(),
    gettingStarted: () => gettingStarted(context, start),
    writeTestFromRun: () => writeTestFromRun(client, start),
  };
  context.subscriptions.push(
    status,
    client,
    transcripts,
    timelines,
    explorer,
    ...registerCommands((id, handler) => vscode.commands.registerCommand(id, handler), targets),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      status.setTrusted(true);
      client.trustGranted();
    }),
  );

  const startLogged = () => start().catch((error: unknown) => status.log.error(`the server did not start: ${error instanceof Error ? error.message : String(error)}`));
  const isTurnlensTest = (document: vscode.TextDocument) => document.uri.scheme === "file" && isTestFileName(document.uri.path) && importsTurnlens(document.getText());
  // A Turnlens test file is open already (opening it activated the extension, or the window restored
  // it): the server starts now, not after the workspace scan below, which on a busy machine's cold
  // window takes seconds (VS Code's own search for the activation gave up after ~11 s there).
  // One opened while the scan goes (the window's editors come a moment after the activation) starts it too.
  let openedFirst = vscode.workspace.textDocuments.some(isTurnlensTest);
  if (openedFirst) void startLogged();
  const openedDuringScan = vscode.workspace.onDidOpenTextDocument((document) => {
    if (openedFirst || !isTurnlensTest(document)) return;
    openedFirst = true;
    void startLogged();
  });
  const found = await explorer.scanWorkspace().finally(() => openedDuringScan.dispose());
  if (found > 0) {
    if (!openedFirst) void startLogged();
  } else if (openedFirst) {
    for (const document of vscode.workspace.textDocuments.filter(isTurnlensTest)) void explorer.addIfTurnlens(document.uri);
  } else {
    status.log.info("not started: no test file here imports agentswf/testing or turnlens/testing (opening one, or a Turnlens command, starts it)");
    // Start when such a file is opened (or created and opened); a Turnlens command starts it too.
    const startIfTurnlens = (document: vscode.TextDocument) => {
      if (!isTurnlensTest(document)) return;
      opened.dispose();
      void explorer.addIfTurnlens(document.uri);
      void startLogged();
    };
    const opened = vscode.workspace.onDidOpenTextDocument(startIfTurnlens);
    context.subscriptions.push(opened);
    vscode.workspace.textDocuments.forEach(startIfTurnlens);
  }

  return {
    ready: start,
    serverPid: () => client.serverPid,
    status: () => status.text,
    statusBar: () => status.barText,
    testItems: () => explorer.snapshot(),
    testView: () => explorer.snapshot(true),
    engine: () => client.engineReport(),
    produced: () => explorer.produced.snapshot(),
  };
}

export async function deactivate(): Promise<void> {
  await active?.dispose();
  active = undefined;
}
