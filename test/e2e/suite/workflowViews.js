// e2e suite on a copy of examples/ (run by test/e2e/run.mjs in code-server's extension host): the
// workflow file of examples/review, once its tests ran, shows the per-call hints, the hover with
// the tests that reached a call, and the outcome-coverage diagnostics at the agents' open calls.
// Waits on events/deadlines, never sleeps.
const assert = require("node:assert");
const vscode = require("vscode");
const { installedExtension, readyApi, log, waitFor, waitForDiagnostic, codeOf, open, positionOf, hoverText, inlayHints, steps } = require("./util");

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  const tests = vscode.Uri.joinPath(root, "review/workflow.test.ts");
  const workflowUri = vscode.Uri.joinPath(root, "review/workflow.ts");
  let workflow;

  await steps([
    [
      "the extension activates and runs review/workflow.test.ts",
      async () => {
        const extension = installedExtension();
        await readyApi(extension);
        await open(tests);
        await vscode.commands.executeCommand("turnlens.runThisFile", tests);
        const status = await waitFor("the run to end", () => /last run: 4 passed/.test(extension.exports.status()) && extension.exports.status());
        log(`status: ${status}`);
      },
    ],

    [
      "the workflow file has a hint at each call the tests reached",
      async () => {
        ({ document: workflow } = await open(workflowUri));
        const line = positionOf(workflow, "await verifier.run(").line;
        const hints = await waitFor("the hint at verifier.run", async () => {
          const all = await inlayHints(workflow);
          return all.some((hint) => hint.line === line) && all;
        });
        log(`hints: ${hints.map((hint) => `${hint.line + 1}: ${hint.label.trim()}`).join(" | ")}`);
        assert.strictEqual(hints.find((hint) => hint.line === line).label.trim(), "in 4 tests: answered 8, 3 more");
        const decide = positionOf(workflow, "const decided = await lead.run(").line;
        assert.strictEqual(hints.find((hint) => hint.line === decide)?.label.trim(), "in 3 tests: answered 3");
        const leadOpen = positionOf(workflow, 'wf.agents.open({ key: "lead"').line;
        assert.strictEqual(hints.find((hint) => hint.line === leadOpen)?.label.trim(), "in 3 tests: answered 6; 5 outcomes untested");
      },
    ],

    [
      "the hover at a call lists the tests that reached it",
      async () => {
        const position = positionOf(workflow, "lead.run(").translate(0, 6);
        const text = await waitFor("the workflow hover", async () => {
          const hover = await hoverText(workflowUri, position);
          return hover.includes("**Turnlens**") && hover.slice(hover.indexOf("**Turnlens**"));
        });
        log(`hover: ${text.split("\n").filter(Boolean).slice(0, 3).join(" ⏎ ")}`);
        assert.match(text, /^\*\*Turnlens\*\* · `lead\.run` · in 3 tests: answered 3/);
        assert.match(text, /\[every verifier passes, so the lead approves\]\(file:\/\/\/.*review\/workflow\.test\.ts#L\d+,\d+\)/);
      },
    ],

    [
      "each agent's open call has the outcomes no test gives it",
      async () => {
        const diagnostic = await waitForDiagnostic(
          "the lead's coverage diagnostic",
          workflowUri,
          (d) => codeOf(d) === "outcome-not-tested" && d.message.includes('"lead"'),
        );
        log(`diagnostic: ${diagnostic.source} ${codeOf(diagnostic)} line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
        // A Hint: no squiggle on the call, no row in Problems; its hover and quick fixes stay.
        assert.strictEqual(diagnostic.severity, vscode.DiagnosticSeverity.Hint);
        assert.strictEqual(diagnostic.message, 'no test gives "lead": no answer, blocked, timed out, failed, cancelled');
        assert.strictEqual(workflow.getText(diagnostic.range), "wf.agents.open");
        const actions = await vscode.commands.executeCommand("vscode.executeCodeActionProvider", workflowUri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
        log(`quick fixes: ${actions.map((action) => action.title).join(" | ")}`);
        assert.ok(
          actions.some((action) => action.title === "Add a test where lead times out"),
          actions.map((action) => action.title).join(", "),
        );
      },
    ],
  ]);
  log("workflowViews: all passed");
};
