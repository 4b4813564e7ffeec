// e2e suite on a copy of examples/ (run by test/e2e/run.mjs in code-server's extension host): the
// Test Explorer's "Run with Coverage" profile, driven as a user does (Run with Coverage on the
// current file), gives the workflow file a FileCoverage whose call sites ran; a failing test run
// through the Run profile gets a failure message whose call stack is its turns, each frame at the
// entry that met it (what the Test Results peek lists). VS Code gives an extension no way to read
// either back (the testObserver proposal's snapshots drop a message's stackTrace and carry no
// coverage), so the suite reads what the controller handed VS Code (the extension's `produced()`).
const assert = require("node:assert");
const vscode = require("vscode");
const { readyApi, log, waitFor, open, positionOf, steps } = require("./util");

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  const summarizeTests = vscode.Uri.joinPath(root, "summarize/summarize.test.ts");
  const summarizeWorkflow = vscode.Uri.joinPath(root, "summarize/summarize.ts");
  const failing = vscode.Uri.joinPath(root, "mistakes/too-many-turns.test.ts");
  let api;

  await steps([
    [
      "the extension activates",
      async () => {
        api = await readyApi();
      },
    ],

    [
      "Run with Coverage on summarize.test.ts gives summarize.ts a FileCoverage whose call sites ran",
      async () => {
        await open(summarizeTests);
        const before = Object.keys(api.produced().coverage).length;
        // The editor title's and the command palette's "Run Tests with Coverage in Current File".
        await vscode.commands.executeCommand("testing.coverageCurrentFile");
        const coverage = await waitFor("the coverage of summarize.ts", () => api.produced().coverage[summarizeWorkflow.toString()], { ms: 300_000 });
        log(`coverage entries before: ${before}; summarize.ts: ${JSON.stringify(coverage)}`);
        const workflow = await vscode.workspace.openTextDocument(summarizeWorkflow);
        const run = positionOf(workflow, "reader.run(").line;
        const opened = positionOf(workflow, "wf.agents.open(").line;
        assert.ok(coverage.statements.total >= 2, `at least the open and the run call: ${JSON.stringify(coverage.statements)}`);
        assert.strictEqual(coverage.statements.covered, coverage.statements.total, "both tests reach every call of summarize.ts");
        const atRun = coverage.details.find((statement) => statement.line === run);
        assert.ok(atRun && atRun.executed > 0, `reader.run (line ${run + 1}) ran: ${JSON.stringify(coverage.details)}`);
        assert.ok(
          coverage.details.some((statement) => statement.line === opened && statement.executed > 0),
          `wf.agents.open (line ${opened + 1}) ran: ${JSON.stringify(coverage.details)}`,
        );
        assert.ok(coverage.branches && coverage.branches.total > coverage.branches.covered, "some outcomes no test gives are uncovered branches");
      },
    ],

    [
      "a failing test run through the Run profile: its failure message's call stack is its turns, each at the entry that met it",
      async () => {
        const { document } = await open(failing);
        const entry = positionOf(document, "answer(STEP").line;
        const test = `${failing.toString()}#${encodeURIComponent("a loop that never ends")}`;
        // Opening it starts its automatic run; the Run profile's run comes after, and replaces that record.
        const previous = await waitFor("the automatic run's failure", () => api.produced().failures[test], { ms: 300_000 });
        await vscode.commands.executeCommand("testing.runCurrentFile");
        const messages = await waitFor(
          "the failure of a loop that never ends",
          () => {
            const now = api.produced().failures[test];
            return now && now !== previous && now;
          },
          { ms: 300_000 },
        );
        log(`messages: ${JSON.stringify(messages)}`);
        const [first] = messages;
        assert.ok(first, "the failed test has a message");
        assert.match(first.message, /agent "worker" turn 4: the run started more than 3 turns \(maxTurns\)/);
        // The message sits where its problem is: the maxTurns option.
        assert.deepStrictEqual(first.location, { uri: failing.toString(), line: positionOf(document, "maxTurns: 3").line });
        assert.ok(first.stackTrace.length >= 3, `a frame per turn: ${first.stackTrace.length}`);
        for (const frame of first.stackTrace) {
          assert.strictEqual(frame.uri, failing.toString(), `the frame links to the test file: ${JSON.stringify(frame)}`);
          assert.strictEqual(frame.line, entry, `the frame is at the entry that met the turn: ${JSON.stringify(frame)}`);
          assert.match(frame.label, /^worker #\d/, `the frame names the agent and the turn: ${frame.label}`);
        }
      },
    ],
  ]);
};
