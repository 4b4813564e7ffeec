// The Debug profile's launcher: `turnlens test <file> -t <pattern> --reporter json` (the CLI of the
// Turnlens in use: the workspace's package or the extension's own dist/) under the Node debugger, which attaches to the worker process the
// runner forks, where the test runs; the report comes back from the session's stdout.
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { progressOfCliReport, testNamePattern } from "./vscodeFree/testTree.ts";

export class DebugLauncher implements vscode.Disposable {
  /** Launch id → the stdout each of its debug sessions captured, by session id. */
  private readonly outputs = new Map<string, Map<string, string>>();
  private counter = 0;
  private readonly tracker: vscode.Disposable;

  constructor(
    context: vscode.ExtensionContext,
    /** The folder of the Turnlens in use (its dist/cli.mjs is what runs). */
    private readonly packageRoot: () => string = () => context.extensionPath,
  ) {
    this.tracker = vscode.debug.registerDebugAdapterTrackerFactory("*", { createDebugAdapterTracker: (session) => this.trackerFor(session) });
  }

  /** Debugs the tests at `paths` of the file (all of them when absent); resolves to its stdout once the session ends. */
  launch(uri: string, paths: string[][] | undefined, run: vscode.TestRun): Promise<string | undefined> {
    const file = vscode.Uri.parse(uri);
    const folder = vscode.workspace.getWorkspaceFolder(file);
    const launchId = `turnlens-debug-${++this.counter}`;
    const args = ["test", file.fsPath, "--reporter", "json", "--timeout", "60m"];
    if (paths) args.push("-t", testNamePattern(paths));
    const configuration: vscode.DebugConfiguration = {
      type: "node",
      request: "launch",
      name: `Turnlens: debug ${paths ? paths.map((path) => path.join(" › ")).join(", ") : vscode.workspace.asRelativePath(file)}`,
      program: join(this.packageRoot(), "dist/cli.mjs"),
      args,
      cwd: folder?.uri.fsPath ?? dirname(file.fsPath),
      // The runner forks a worker per file: that is the process the breakpoints are in.
      autoAttachChildProcesses: true,
      outputCapture: "std",
      console: "internalConsole",
      // The worker imports a bundle from the runner's cache folder, with inline source maps to the test file.
      resolveSourceMapLocations: null,
      // The bundle runs as soon as it loads: its breakpoints must be bound from its source map first.
      pauseForSourceMap: true,
      skipFiles: ["<node_internals>/**", `${join(this.packageRoot(), "dist")}/**`],
      __turnlensDebugId: launchId,
    };
    const outputs = new Map<string, string>();
    this.outputs.set(launchId, outputs);
    return new Promise((resolve) => {
      const done = () => {
        ended.dispose();
        this.outputs.delete(launchId);
        // Each session that captured stdout has its own copy; the first that is a report wins.
        const texts = [...outputs.values()];
        resolve(texts.find((text) => progressOfCliReport(text, (path) => path)) ?? texts[0]);
      };
      const ended = vscode.debug.onDidTerminateDebugSession((session) => {
        if (session.configuration.__turnlensDebugId === launchId && session.parentSession?.configuration.__turnlensDebugId !== launchId) done();
      });
      vscode.debug.startDebugging(folder, configuration, { testRun: run }).then(
        (started) => void (started || done()),
        () => done(),
      );
    });
  }

  /** Collects stdout of our sessions and their child sessions (js-debug starts one per process). */
  private trackerFor(session: vscode.DebugSession): vscode.DebugAdapterTracker | undefined {
    let owner: vscode.DebugSession | undefined = session;
    while (owner && owner.configuration.__turnlensDebugId === undefined) owner = owner.parentSession;
    const outputs = owner ? this.outputs.get(owner.configuration.__turnlensDebugId as string) : undefined;
    if (!outputs) return undefined;
    return {
      onDidSendMessage: (message: { type?: string; event?: string; body?: { category?: string; output?: string } }) => {
        if (message.type === "event" && message.event === "output" && message.body?.category === "stdout" && message.body.output) {
          outputs.set(session.id, (outputs.get(session.id) ?? "") + message.body.output);
        }
      },
    };
  }

  dispose(): void {
    this.tracker.dispose();
  }
}
