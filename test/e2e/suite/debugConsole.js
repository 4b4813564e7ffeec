// e2e suite on a copy of examples/summarize (run by test/e2e/run.mjs in code-server's extension
// host): the Testing view's Debug on a test that logs a line and fails. The Debug Console (every
// output event the debug sessions send, read with a debug adapter tracker) shows the line the test
// logged, and neither the runner's JSON report, nor Node's "Waiting for the debugger to disconnect...",
// nor a warning about the source maps the .vsix leaves out;
// the failure still reaches the test's result. Waits, never sleeps.
const assert = require("node:assert");
const vscode = require("vscode");
const { installedExtension, readyApi, log, waitFor, open, steps } = require("./util");

const LOGGED = "hello from the debugged test";
const NAME = "logs a line then fails";
const SOURCE = [
  'import { expect, test } from "bun:test";',
  'import { answer, testWorkflow } from "agentswf/testing";',
  'import summarize, { SUMMARY } from "./summarize";',
  "",
  `test(${JSON.stringify(NAME)}, async () => {`,
  '  const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: answer(SUMMARY, { summary: "Two sentences." }) } });',
  `  console.log(${JSON.stringify(LOGGED)});`,
  '  expect(run.value).toEqual({ summary: "Three sentences." });',
  "});",
  "",
].join("\n");

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  const file = vscode.Uri.joinPath(root, "debugged.test.ts");
  const test = `${file.toString()}#${encodeURIComponent(NAME)}`;
  /** Every output event of every debug session, as the Debug Console gets it. */
  const outputs = [];
  const sessions = new Set();
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory("*", {
    createDebugAdapterTracker: (session) => ({
      onDidSendMessage: (message) => {
        if (message.type === "event" && message.event === "output" && message.body?.output)
          outputs.push({ session: session.name, category: message.body.category, output: message.body.output });
      },
    }),
  });
  const started = vscode.debug.onDidStartDebugSession((session) => sessions.add(session.id));
  const ended = vscode.debug.onDidTerminateDebugSession((session) => sessions.delete(session.id));
  let api;
  try {
    await steps([
      [
        "a test that logs a line and fails runs on opening",
        async () => {
          await vscode.workspace.fs.writeFile(file, Buffer.from(SOURCE));
          // Activated at once rather than awaited from its workspace scan, which a busy machine let
          // run past readyApi's minute once.
          await installedExtension().activate();
          api = await readyApi();
          await open(file);
          await waitFor("the automatic run's failure", () => api.produced().failures[test], { ms: 180_000 });
        },
      ],
      [
        "Debug: the Debug Console shows the test's own line, not the JSON report nor Node's wait for the debugger",
        async () => {
          const previous = api.produced().failures[test];
          // The editor title's and the command palette's "Debug Tests in Current File".
          await vscode.commands.executeCommand("testing.debugCurrentFile");
          const messages = await waitFor(
            "the debug run's failure",
            () => {
              const now = api.produced().failures[test];
              return now && now !== previous && now;
            },
            { ms: 180_000 },
          );
          await waitFor("every debug session to end", () => sessions.size === 0 && vscode.debug.activeDebugSession === undefined, {
            ms: 60_000,
            events: [vscode.debug.onDidTerminateDebugSession],
          });
          const text = outputs.map((event) => event.output).join("");
          log(`failure: ${JSON.stringify(messages[0]?.message)}`);
          log(`the Debug Console (${outputs.length} output events): ${JSON.stringify(outputs.map((event) => `${event.category}: ${event.output}`))}`);
          assert.match(messages[0]?.message ?? "", /toEqual|Three sentences/, "the failure is the test's own");
          assert.ok(text.includes(LOGGED), `the Debug Console shows what the test logged: ${JSON.stringify(text)}`);
          assert.ok(!/"numTotalTests"|"files":/.test(text), "the runner's JSON report is not in the Debug Console");
          assert.ok(!text.includes("Waiting for the debugger to disconnect"), "Node's wait for the debugger is not in the Debug Console");
          assert.ok(!text.includes("Could not read source map"), "no warning about the source maps Turnlens's own bundles do not ship");
        },
      ],
    ]);
  } finally {
    tracker.dispose();
    started.dispose();
    ended.dispose();
  }
};
