// The Debug profile's launch (extension/vscodeFree/debugLaunch.ts): its CLI, run here as the debugger
// would start it, writes the JSON report to the file the launcher reads and nothing of it to its
// streams; the session shows what the code logs through `console`, not the streams, and reads no
// source map of Turnlens's own bundles (the .vsix ships none). In code-server: test/e2e/suite/debugConsole.js.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { debugLaunchConfiguration } from "../../extension/vscodeFree/debugLaunch.ts";
import { progressOfCliReport } from "../../extension/vscodeFree/testTree.ts";
import { ROOT, SLOW, runNode, tempProject } from "../runner/harness.ts";

const TEST_FILE = [
  'import { expect, test } from "bun:test";',
  'test("logs a line then fails", () => {',
  '  console.log("hello from the debugged test");',
  "  expect(1 + 1).toBe(3);",
  "});",
  'test("another test", () => {});',
  "",
].join("\n");

function launchIn(dir: string) {
  return debugLaunchConfiguration({
    name: "Turnlens: debug logs a line then fails",
    file: join(dir, "debugged.test.ts"),
    paths: [["logs a line then fails"]],
    packageRoot: ROOT,
    cwd: dir,
    report: join(dir, "out", "report.json"),
    launchId: "turnlens-debug-1",
  });
}

describe("the Debug profile's launch", () => {
  test(
    "its CLI writes the JSON report to the launcher's file, none of it to stdout or stderr, and runs only the chosen test",
    async () => {
      const project = tempProject({ "debugged.test.ts": TEST_FILE });
      try {
        const launch = launchIn(project.dir);
        const result = await runNode([launch.program, ...launch.args], project.dir, { NO_COLOR: "1" });
        expect(result.code).toBe(1);
        expect(`${result.stdout}${result.stderr}`).not.toContain("numTotalTests");
        expect(result.stdout).toContain("hello from the debugged test");
        const report = readFileSync(join(project.dir, "out", "report.json"), "utf8");
        const progress = progressOfCliReport(report, (file) => pathToFileURL(file).href) ?? [];
        const uri = pathToFileURL(join(project.dir, "debugged.test.ts")).href;
        expect(progress.map((message) => `${message.type}${"test" in message ? ` ${decodeURIComponent(message.test.slice(uri.length + 1))}` : ""}`)).toEqual([
          "failed logs a line then fails",
          "skipped another test",
          "end",
        ]);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test("the Debug Console gets what the code logs through console, not the processes' streams, and no word on Turnlens's own source maps", () => {
    const launch = launchIn("/work/project");
    // js-debug drops the processes' stdout and stderr (the runner's count line, Node's "Waiting for
    // the debugger to disconnect...") and shows each console call with where it was made.
    expect(launch.outputCapture).toBe("console");
    expect(launch.console).toBe("internalConsole");
    expect(launch.resolveSourceMapLocations).toEqual(["**", `!${join(ROOT, "dist")}/**`]);
    expect(launch.autoAttachChildProcesses).toBe(true);
    expect(launch.program).toBe(join(ROOT, "dist", "cli.mjs"));
  });
});
