// The Debug profile's launcher: `turnlens test <file> -t <pattern> --reporter json --outputFile <temp>`
// (the CLI of the Turnlens in use: the workspace's package or the extension's own dist/) under the
// Node debugger, which attaches to the worker process the runner forks, where the test runs. The
// report comes back as that file, never through the Debug Console, which shows the test's own console output.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { testNamePattern } from "./vscodeFree/testTree.ts";

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
    const args = ["test", file.fsPath, "--reporter", "json", "--outputFile", report, "--timeout", "60m"];
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
      // The Debug Console shows what the code logs through `console` (the test's, from the worker, each
      // line linked to where it was logged), not the processes' stdout and stderr: the runner's count
      // lines, and Node's "Waiting for the debugger to disconnect..." as a debugged process exits.
      outputCapture: "console",
      console: "internalConsole",
      // The worker imports a bundle from the runner's cache folder, with inline source maps to the test
      // file. Turnlens's own dist/ is not looked at: the .vsix ships no maps, and each missing one would
      // be a "Could not read source map" line in the Debug Console.
      resolveSourceMapLocations: ["**", `!${join(this.packageRoot(), "dist")}/**`],
      // The bundle runs as soon as it loads: its breakpoints must be bound from its source map first.
      pauseForSourceMap: true,
      skipFiles: ["<node_internals>/**", `${join(this.packageRoot(), "dist")}/**`],
      __turnlensDebugId: launchId,
    };
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
