// The language client: the workspace's own Turnlens server (node_modules/turnlens) or the bundled
// dist/server.js, over node IPC (serverChoice.ts picks, at each start); the capability that turns on
// the test explorer messages, trust in the initialization options, session-only settings (the run
// mode) layered over `turnlens.*`, and an error handler that restarts a crashed server and says so.
import { join } from "node:path";
import * as vscode from "vscode";
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  TransportKind,
  type CloseHandlerResult,
  type ErrorHandler,
  type ErrorHandlerResult,
  type LanguageClientOptions,
  type NodeModule,
  type StaticFeature,
} from "vscode-languageclient/node";
import {
  EXPERIMENTAL_CAPABILITY,
  PROTOCOL_VERSION,
  WorkspaceTrustNotification,
  type InitializationOptions,
  type TurnlensServerCapabilities,
} from "../server/protocol.ts";
import { chooseServer, describeChoice, readTurnlensPackage, type ServerChoice, type TurnlensPackage } from "./vscodeFree/serverChoice.ts";
import type { Status } from "./status.ts";
import { SOURCE_FILE_GLOB } from "./vscodeFree/testFiles.ts";

/** Crashes within this window count towards giving up, as vscode-languageclient's own handler does. */
const CRASH_WINDOW_MS = 3 * 60_000;
const MAX_RESTARTS = 4;

/** Declares `experimental.turnlens.testExplorer`, so the server sends the test tree and progress. */
const testExplorerCapability: StaticFeature = {
  fillClientCapabilities(capabilities) {
    capabilities.experimental = { ...(capabilities.experimental as object | undefined), [EXPERIMENTAL_CAPABILITY]: { testExplorer: true } };
  },
  initialize() {},
  getState: () => ({ kind: "static" }),
  clear() {},
};

/** Which Turnlens is in use, for the extension's API (the e2e suite). */
export interface EngineReport {
  source: ServerChoice["source"];
  version: string;
  /** The server entry started. */
  module: string;
  /** What the output channel was told. */
  line: string;
}

export class TurnlensClient implements vscode.Disposable {
  readonly client: LanguageClient;
  /** Settings chosen for this session only; they win over `turnlens.*` in what the server reads. */
  private readonly sessionSettings = new Map<string, unknown>();
  /** Crash times within the window, for the restart limit. */
  private crashes: number[] = [];
  /** How the last server process ended, when it ended on its own. */
  private lastExit: string | undefined;
  private stopping = false;
  private readonly disposables: vscode.Disposable[] = [];
  /** The extension's own Turnlens (its folder holds dist/server.js). */
  private readonly bundled: TurnlensPackage;
  /** The server the client starts: `module` is set at each start from `choose()`, and read by the client's every (re)start. */
  private readonly serverModule: NodeModule = { module: "", transport: TransportKind.ipc };
  /** The Turnlens in use (or to be used at the next start). */
  private choice: ServerChoice;
  /** Why the workspace's Turnlens was dropped after it started (it reported another protocol); kept until the window reloads. */
  private workspaceRefused: string | undefined;
  /** Refusals already shown as a notification, so each is shown once. */
  private readonly shownRefusals = new Set<string>();
  /** A document's code lenses arrived from the server (its uri): the test controller waits for them before it shows a new result. */
  readonly onDidProvideCodeLenses = new vscode.EventEmitter<string>();
  /** Called when the server went away on its own, before it is restarted (or not). */
  onCrash: (description: string, restarting: boolean) => void = () => {};

  constructor(
    context: vscode.ExtensionContext,
    private readonly status: Status,
  ) {
    this.bundled = readTurnlensPackage(context.extensionPath) ?? { root: context.extensionPath, version: String(context.extension.packageJSON.version) };
    // Said on the status and the output at the first start (a workspace that never starts the server hears nothing).
    this.choice = chooseServer({ folders: this.workspaceFolders(), bundled: this.bundled, trusted: vscode.workspace.isTrusted });
    const options: LanguageClientOptions = {
      documentSelector: [{ scheme: "file", pattern: SOURCE_FILE_GLOB }],
      // The workflow hover's "run" links call the server's run-file command, and only it.
      markdown: { isTrusted: { enabledCommands: ["turnlens.runFile"] } },
      outputChannel: status.log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      // A function: read again at each (re)start, so a restarted server knows the current trust.
      initializationOptions: (): InitializationOptions => ({ workspaceTrusted: vscode.workspace.isTrusted, showsTimelines: true }),
      errorHandler: this.errorHandler(),
      middleware: {
        provideCodeLenses: async (document, token, next) => {
          const lenses = await next(document, token);
          // A cancelled request (a newer refresh superseded it) shows nothing: VS Code drops its answer.
          if (lenses && !token.isCancellationRequested) this.onDidProvideCodeLenses.fire(document.uri.toString());
          return lenses;
        },
        workspace: {
          configuration: async (params, token, next) => {
            const values = await next(params, token);
            if (!Array.isArray(values)) return values;
            return values.map((value, index) => (params.items[index]?.section === "turnlens" ? this.withSessionSettings(value) : value));
          },
          // Always let the server pull (through the middleware above) rather than push raw values.
          didChangeConfiguration: (_sections, next) => next(undefined),
        },
      },
    };
    this.client = new LanguageClient("turnlens", "Turnlens", { run: this.serverModule, debug: this.serverModule }, options);
    this.client.registerFeature(testExplorerCapability);
    this.status.setRunMode(this.runModeSetting(), false);
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration("turnlens.runMode") && !this.sessionSettings.has("runMode")) this.status.setRunMode(this.runModeSetting(), false);
      }),
    );
    this.client.onDidChangeState(({ newState }) => {
      if (newState === State.Running) this.watchProcess();
      const failed = newState === State.StartFailed || this.crashes.length > MAX_RESTARTS;
      this.status.setServer(newState === State.Running ? "ready" : newState === State.Starting ? "starting" : failed ? "failed" : "stopped");
    });
  }

  /** Starts the server unless it runs or is starting. */
  async start(): Promise<void> {
    if (this.client.state === State.Running) return;
    if (this.client.state === State.Starting) {
      await new Promise<void>((resolve) => {
        const listener = this.client.onDidChangeState(({ newState }) => {
          if (newState === State.Starting) return;
          listener.dispose();
          resolve();
        });
      });
      return;
    }
    this.choose();
    await this.client.start();
    await this.checkProtocol();
  }

  async restart(): Promise<void> {
    this.crashes = [];
    this.status.clearIncident();
    this.choose();
    if (this.client.isRunning()) await this.client.restart();
    else await this.client.start();
    await this.checkProtocol();
  }

  engineReport(): EngineReport {
    return { source: this.choice.source, version: this.choice.version, module: this.choice.module, line: describeChoice(this.choice) };
  }

  /** The folder of the Turnlens in use (the workspace's package or the extension), for the CLI the debugger runs. */
  get packageRoot(): string {
    return this.choice.root;
  }

  /** Picks the workspace's Turnlens or the bundled one for the next start, and says which on the status and the output. */
  private choose(): ServerChoice {
    let choice = chooseServer({ folders: this.workspaceFolders(), bundled: this.bundled, trusted: vscode.workspace.isTrusted });
    if (choice.source === "workspace" && this.workspaceRefused)
      choice = {
        source: "bundled",
        module: join(this.bundled.root, this.bundled.server?.main ?? "dist/server.js"),
        version: this.bundled.version,
        root: this.bundled.root,
        refusal: this.workspaceRefused,
      };
    const changed = this.choice.module !== choice.module || this.choice.refusal !== choice.refusal;
    this.choice = choice;
    this.serverModule.module = choice.module;
    if (changed || !this.status.engine) {
      this.status.setEngine({ source: choice.source, version: choice.version, ...(choice.refusal ? { refusal: choice.refusal } : {}) });
      this.status.log[choice.refusal && vscode.workspace.isTrusted ? "warn" : "info"](describeChoice(choice));
      // A package the extension cannot speak to is worth a notification (once); an untrusted workspace is not.
      if (choice.refusal && vscode.workspace.isTrusted && !this.shownRefusals.has(choice.refusal)) {
        this.shownRefusals.add(choice.refusal);
        void vscode.window.showWarningMessage(`Turnlens: ${choice.refusal}. Using the bundled Turnlens ${this.bundled.version} instead.`);
      }
    }
    return choice;
  }

  private workspaceFolders(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === "file").map((folder) => folder.uri.fsPath);
  }

  /** A workspace server that reports another protocol than its package.json declared is dropped for the bundled one. */
  private async checkProtocol(): Promise<void> {
    if (this.choice.source !== "workspace" || this.client.state !== State.Running) return;
    const experimental = this.client.initializeResult?.capabilities.experimental as Record<string, TurnlensServerCapabilities | undefined> | undefined;
    const reported = experimental?.[EXPERIMENTAL_CAPABILITY]?.protocol;
    const version = this.client.initializeResult?.serverInfo?.version;
    if (reported === PROTOCOL_VERSION) {
      this.status.log.info(`the server ${version ?? "(no version)"} speaks protocol ${reported}`);
      return;
    }
    this.workspaceRefused = `the workspace's Turnlens ${this.choice.version} (${this.choice.root}) reported protocol ${reported ?? "(none)"} at start, not this extension's (Turnlens ${this.bundled.version}, protocol ${PROTOCOL_VERSION})`;
    await this.client.stop();
    this.choose();
    await this.client.start();
  }

  /** The server process id, while it runs. */
  get serverPid(): number | undefined {
    return this.client.state === State.Running ? this.client.serverProcess?.pid : undefined;
  }

  /** A setting for this session (undefined: back to `turnlens.*`); the server re-reads its settings. */
  setSessionSetting(name: string, value: unknown): void {
    if (value === undefined) this.sessionSettings.delete(name);
    else this.sessionSettings.set(name, value);
    if (this.client.state === State.Running) void this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  }

  sessionSetting(name: string): unknown {
    return this.sessionSettings.get(name);
  }

  /** Tells the server the workspace became trusted (VS Code never takes trust back without a reload); a workspace Turnlens left aside while untrusted is started instead. */
  trustGranted(): void {
    if (this.client.state !== State.Running) return;
    if (
      chooseServer({ folders: this.workspaceFolders(), bundled: this.bundled, trusted: true }).source === "workspace" &&
      this.choice.source === "bundled" &&
      !this.workspaceRefused
    ) {
      void this.restart();
      return;
    }
    void this.client.sendNotification(WorkspaceTrustNotification.type, { trusted: true });
  }

  /** Flips `turnlens.inlayHints` where it is set: the folder's, the workspace's, else the user's settings. */
  async toggleInlineTurns(): Promise<void> {
    const configuration = vscode.workspace.getConfiguration("turnlens", vscode.window.activeTextEditor?.document.uri);
    const inspected = configuration.inspect<boolean>("inlayHints");
    const target =
      inspected?.workspaceFolderValue !== undefined
        ? vscode.ConfigurationTarget.WorkspaceFolder
        : inspected?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
    const next = !configuration.get<boolean>("inlayHints", true);
    await configuration.update("inlayHints", next, target);
    vscode.window.setStatusBarMessage(`Turnlens: inline turns ${next ? "on" : "off"}`, 3000);
  }

  /** Picks `onType`, `onSave` or `manual` for this session only, or goes back to the setting. */
  async chooseRunMode(): Promise<void> {
    const setting = this.runModeSetting();
    const session = this.sessionSetting("runMode") as string | undefined;
    const items: Array<vscode.QuickPickItem & { mode: string | undefined }> = [
      { label: "onType", description: "after each pause in typing", mode: "onType" },
      { label: "onSave", description: "when the file is saved", mode: "onSave" },
      { label: "manual", description: "only from a code lens, a command or the Testing view", mode: "manual" },
      { label: "Use the setting", description: `turnlens.runMode: ${setting}`, mode: undefined },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: "Turnlens: when tests run in this session",
      placeHolder: session ? `now ${session}, for this session` : `now ${setting}, from the setting`,
    });
    if (!picked) return;
    this.setSessionSetting("runMode", picked.mode);
    this.status.setRunMode(picked.mode ?? setting, picked.mode !== undefined);
  }

  private runModeSetting(): string {
    return vscode.workspace.getConfiguration("turnlens").get<string>("runMode", "onType");
  }

  private withSessionSettings(value: unknown): unknown {
    if (this.sessionSettings.size === 0) return value;
    return { ...(typeof value === "object" && value !== null ? value : {}), ...Object.fromEntries(this.sessionSettings) };
  }

  /** Remembers how the server process ends, for the crash message. */
  private watchProcess(): void {
    this.lastExit = undefined;
    const process = this.client.serverProcess;
    process?.once("exit", (code, signal) => {
      if (this.stopping || this.client.state === State.Stopped) return;
      this.lastExit = signal ? `was killed (${signal})` : `exited with code ${code}`;
    });
  }

  private errorHandler(): ErrorHandler {
    return {
      error: (_error, _message, count): ErrorHandlerResult => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true }),
      closed: async (): Promise<CloseHandlerResult> => {
        // The process's `exit` can come just after the connection closes.
        await new Promise((resolve) => setTimeout(resolve, 50));
        const now = Date.now();
        this.crashes = [...this.crashes.filter((time) => now - time < CRASH_WINDOW_MS), now];
        const how = this.lastExit ?? "stopped";
        const at = new Date(now).toLocaleTimeString();
        if (this.crashes.length > MAX_RESTARTS) {
          const description = `the server ${how} at ${at}, its ${this.crashes.length}th crash in 3 minutes: it was not restarted (Turnlens: Restart the Server)`;
          this.onCrash(description, false);
          this.status.setServer("failed", description);
          this.status.log.error(description);
          return { action: CloseAction.DoNotRestart, message: `Turnlens: ${description}`, handled: false };
        }
        const description = `the server ${how} at ${at} and was restarted`;
        this.onCrash(description, true);
        this.status.setServer("starting", description);
        this.status.log.warn(description);
        return { action: CloseAction.Restart, handled: true };
      },
    };
  }

  async dispose(): Promise<void> {
    this.stopping = true;
    for (const disposable of this.disposables) disposable.dispose();
    if (this.client.needsStop()) await this.client.stop();
  }
}
