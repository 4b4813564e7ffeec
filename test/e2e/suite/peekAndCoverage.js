// e2e suite on a copy of examples/ (run by test/e2e/run.mjs in code-server's extension host): the
// Test Explorer's "Run with Coverage" profile, driven as a user does (Run with Coverage on the
// current file), gives the workflow file its line coverage, with each call's outcomes as branches; a failing test run
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
      "Run with Coverage on summarize.test.ts gives summarize.ts its line coverage, with the reader's outcomes as branches of its open call",
      async () => {
        await open(summarizeTests);
        const before = Object.keys(api.produced().coverage).length;
        // The editor title's and the command palette's "Run Tests with Coverage in Current File".
        await vscode.commands.executeCommand("testing.coverageCurrentFile");
        const coverage = await waitFor("the coverage of summarize.ts", () => api.produced().coverage[summarizeWorkflow.toString()], { ms: 300_000 });
        log(`coverage entries before: ${before}; summarize.ts: ${JSON.stringify(coverage)}`);
        const workflow = await vscode.workspace.openTextDocument(summarizeWorkflow);
        const opened = positionOf(workflow, "wf.agents.open(").line;
        const prepare = positionOf(workflow, "prepare:").line;
        // The percentage is the line coverage (the CLI's 5 of 6 lines): `prepare` runs only from the command line.
        assert.deepStrictEqual(coverage.statements, { covered: 5, total: 6 });
        assert.ok(
          coverage.details.some((statement) => statement.line === prepare && statement.executed === 0),
          `prepare (line ${prepare + 1}) never ran: ${JSON.stringify(coverage.details)}`,
        );
        // The reader's open call: its statement ran in both tests, and its outcomes are its branches.
        const atOpen = coverage.details.find((statement) => statement.line === opened && statement.branches.length > 0);
        assert.ok(atOpen && atOpen.executed === 2, `wf.agents.open (line ${opened + 1}) ran twice: ${JSON.stringify(coverage.details)}`);
        assert.deepStrictEqual(atOpen.branches, [
          { label: "answered", executed: 1 },
          { label: "unanswered", executed: 2 },
          { label: "blocked", executed: 0 },
          { label: "timed-out", executed: 0 },
          { label: "failed", executed: 0 },
          { label: "cancelled", executed: 0 },
        ]);
        assert.deepStrictEqual(
          coverage.functions.map((fn) => fn.executed),
          [0, 2],
          `prepare never ran, run twice: ${JSON.stringify(coverage.functions)}`,
        );
        assert.ok(!Object.keys(api.produced().coverage).some((uri) => uri.endsWith(".test.ts")), "no test file has coverage");
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
