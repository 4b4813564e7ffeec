// The Debug profile's launcher: `turnlens test <file> -t <pattern> --reporter json --outputFile <temp>`
// (the CLI of the Turnlens in use: the workspace's package or the extension's own dist/) under the
// Node debugger (vscodeFree/debugLaunch.ts), which attaches to the worker process the runner forks,
// where the test runs. The report comes back as that file, never through the Debug Console.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { debugLaunchConfiguration } from "./vscodeFree/debugLaunch.ts";

export class DebugLauncher implements vscode.Disposable {
  private counter = 0;

  constructor(
    context: vscode.ExtensionContext,
    /** The folder of the Turnlens in use (its dist/cli.mjs is what runs). */
    private readonly packageRoot: () => string = () => context.extensionPath,
  ) {}

  /** Debugs the tests at `paths` of the file (all of them when absent); resolves to its JSON report once the session ends. */
  launch(uri: string, paths: string[][] | undefined, run: vscode.TestRun): Promise<string | undefined> {
    const file = vscode.Uri.parse(uri);
    const folder = vscode.workspace.getWorkspaceFolder(file);
    const launchId = `turnlens-debug-${++this.counter}`;
    // A folder of its own (made 0700 by mkdtemp), so no other user can put a report there for us to read.
    const reportFolder = mkdtempSync(join(tmpdir(), "turnlens-debug-"));
    const report = join(reportFolder, "report.json");
    const configuration: vscode.DebugConfiguration = debugLaunchConfiguration({
      name: `Turnlens: debug ${paths ? paths.map((path) => path.join(" › ")).join(", ") : vscode.workspace.asRelativePath(file)}`,
      file: file.fsPath,
      ...(paths ? { paths } : {}),
      packageRoot: this.packageRoot(),
      cwd: folder?.uri.fsPath ?? dirname(file.fsPath),
      report,
      launchId,
    });
    return new Promise((resolve) => {
      const done = () => {
        ended.dispose();
        let text: string | undefined;
        try {
          text = readFileSync(report, "utf8");
        } catch {
          text = undefined;
        }
        rmSync(reportFolder, { recursive: true, force: true });
        resolve(text);
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

  dispose(): void {}
}
