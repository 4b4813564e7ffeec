// e2e suite on a copy of examples/ (run by test/e2e/run.mjs in code-server's extension host): the
// Test Explorer's "Run with Coverage" profile, driven as a user does (Run with Coverage on the
// current file), gives the workflow file its line coverage, with each call's outcomes as branches; a test failed by a
// run problem gets its message placed in its transcript, with no turns (its squiggle is its one mark in the
// editor), and a failing expect gets its message at the expect with a call stack of its turns, each
// frame at the entry that met it (what the Test Results peek lists). VS Code gives an extension no way to read
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
          { label: "no answer", executed: 2 },
          { label: "blocked", executed: 0 },
          { label: "timed out", executed: 0 },
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
      "a test failed by a run problem, run through the Run profile: its message is placed in the test's transcript with no turns, so its squiggle is the one mark in the test file",
      async () => {
        const { document } = await open(failing);
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
        // Its place is the test's transcript: with none, VS Code would give it the test's range and draw it there.
        assert.ok(first.location?.uri.startsWith("turnlens-transcript:"), `its place is the transcript, not the test file: ${JSON.stringify(first.location)}`);
        assert.strictEqual(first.stackTrace.length, 0, "no frames: VS Code would draw it at the first one");
        const squiggle = await waitFor("the max-turns diagnostic", () =>
          vscode.languages.getDiagnostics(failing).find((diagnostic) => diagnostic.range.start.line === positionOf(document, "maxTurns: 3").line),
        );
        assert.strictEqual(squiggle.severity, vscode.DiagnosticSeverity.Error);
      },
    ],

    [
      "a failing expect run through the Run profile: its message is at the expect, and its call stack is its turns, each at the entry that met it",
      async () => {
        const plain = vscode.Uri.joinPath(root, "summarize/plain-failure.test.ts");
        await vscode.workspace.fs.writeFile(
          plain,
          Buffer.from(
            [
              'import { expect, test } from "bun:test";',
              'import { answer, testWorkflow } from "agentswf/testing";',
              'import summarize, { SUMMARY } from "./summarize";',
              "",
              'test("a summary other than the one expected", async () => {',
              '  const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: answer(SUMMARY, { summary: "Two sentences." }) } });',
              '  expect(run.value).toEqual({ summary: "Three." });',
              "});",
              "",
            ].join("\n"),
          ),
        );
        const { document } = await open(plain);
        const test = `${plain.toString()}#${encodeURIComponent("a summary other than the one expected")}`;
        await vscode.commands.executeCommand("testing.runCurrentFile");
        const messages = await waitFor("the failure of the expect", () => api.produced().failures[test], { ms: 300_000 });
        log(`messages: ${JSON.stringify(messages)}`);
        const [first] = messages;
        assert.ok(first, "the failed test has a message");
        assert.deepStrictEqual(first.location, { uri: plain.toString(), line: positionOf(document, "expect(run.value)").line });
        assert.ok(first.stackTrace.length >= 1, `a frame per turn: ${first.stackTrace.length}`);
        for (const frame of first.stackTrace) {
          assert.strictEqual(frame.uri, plain.toString(), `the frame links to the test file: ${JSON.stringify(frame)}`);
          assert.strictEqual(frame.line, positionOf(document, "answer(SUMMARY").line, `the frame is at the entry that met the turn: ${JSON.stringify(frame)}`);
          assert.match(frame.label, /^reader #\d/, `the frame names the agent and the turn: ${frame.label}`);
        }
      },
    ],
  ]);
};
