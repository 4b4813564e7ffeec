// The Debug profile's launch configuration (js-debug's `node` launch), built without `vscode` so its
// choices are tested in plain Node: the CLI's JSON report goes to a file, never to the Debug Console,
// which shows what the test logs through `console`. extension/debugRun.ts starts it.
import { join } from "node:path";
import { testNamePattern } from "./testTree.ts";

export interface DebugLaunchOptions {
  /** The session's name in the Debug view. */
  name: string;
  /** The test file's path. */
  file: string;
  /** The tests to run (describe and test names); all of the file's when absent. */
  paths?: string[][];
  /** The folder of the Turnlens in use (its dist/cli.mjs is what runs). */
  packageRoot: string;
  cwd: string;
  /** Where the CLI writes its JSON report. */
  report: string;
  /** Tells the launcher's own sessions from others (the configuration's `__turnlensDebugId`). */
  launchId: string;
}

/** What `vscode.debug.startDebugging` takes: js-debug's launch fields. */
export interface DebugLaunch {
  type: string;
  request: string;
  name: string;
  program: string;
  args: string[];
  [field: string]: unknown;
}

export function debugLaunchConfiguration(options: DebugLaunchOptions): DebugLaunch {
  const dist = join(options.packageRoot, "dist");
  const args = ["test", options.file, "--reporter", "json", "--outputFile", options.report, "--timeout", "60m"];
  if (options.paths) args.push("-t", testNamePattern(options.paths));
  return {
    type: "node",
    request: "launch",
    name: options.name,
    program: join(dist, "cli.mjs"),
    args,
    cwd: options.cwd,
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
    resolveSourceMapLocations: ["**", `!${dist}/**`],
    // The bundle runs as soon as it loads: its breakpoints must be bound from its source map first.
    pauseForSourceMap: true,
    skipFiles: ["<node_internals>/**", `${dist}/**`],
    __turnlensDebugId: options.launchId,
  };
}
