// e2e suite on a copy of examples/summarize (run by test/e2e/run.mjs in code-server's extension host,
// against the Turnlens installed from the .vsix): with the test file and its workflow both open, an
// unsaved edit to the workflow (its agent "reader" renamed "writer") changes the test file's
// diagnostics, and undoing it (still unsaved) clears them. Waits on events/deadlines, never sleeps.
const assert = require("node:assert");
const vscode = require("vscode");
const { readyApi, log, waitFor, waitForDiagnostic, codeOf, open, positionOf, hoverText, steps } = require("./util");

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  const testUri = vscode.Uri.joinPath(root, "summarize.test.ts");
  const workflowUri = vscode.Uri.joinPath(root, "summarize.ts");
  let workflow;
  const unscripted = (diagnostic) => codeOf(diagnostic) === "agent-unscripted";

  await steps([
    [
      "the extension activates and the test file's first run ends: its tests pass, no diagnostics",
      async () => {
        await readyApi();
        // The edit must stay unsaved: no auto-save may write it to disk (a change on disk reruns too).
        await vscode.workspace.getConfiguration("files").update("autoSave", "off", vscode.ConfigurationTarget.Global);
        const { document } = await open(testUri);
        // A hover on the first answer( entry exists once its tests have run.
        const hover = await waitFor("the first run's hover", async () => (await hoverText(testUri, positionOf(document, "answer(SUMMARY"))) || false, { ms: 120_000 });
        log(`hover after the first run: ${hover.split("\n")[0]}`);
        assert.deepStrictEqual(vscode.languages.getDiagnostics(testUri), []);
      },
    ],

    [
      "an unsaved edit to the workflow renaming its agent changes the open test file's diagnostics",
      async () => {
        ({ document: workflow } = await open(workflowUri));
        const edit = new vscode.WorkspaceEdit();
        const at = positionOf(workflow, 'key: "reader"');
        edit.replace(workflowUri, new vscode.Range(at, at.translate(0, 'key: "reader"'.length)), 'key: "writer"');
        assert.ok(await vscode.workspace.applyEdit(edit), "the edit applied");
        assert.ok(workflow.isDirty, "the workflow is left unsaved");
        const diagnostic = await waitForDiagnostic("agent-unscripted on the test file", testUri, unscripted, 120_000);
        assert.ok(workflow.isDirty, "the workflow is still unsaved when the diagnostics change");
        log(`test file diagnostic: ${codeOf(diagnostic)} at line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
        assert.match(diagnostic.message, /agent "writer" turn 1: no script for it; scripted: "reader"/);
        const onDisk = Buffer.from(await vscode.workspace.fs.readFile(workflowUri)).toString("utf8");
        assert.ok(onDisk.includes('key: "reader"'), "the file on disk is unchanged");
      },
    ],

    [
      "undoing the edit (still unsaved) reruns the test file and its diagnostics clear",
      async () => {
        const edit = new vscode.WorkspaceEdit();
        const at = positionOf(workflow, 'key: "writer"');
        edit.replace(workflowUri, new vscode.Range(at, at.translate(0, 'key: "writer"'.length)), 'key: "reader"');
        assert.ok(await vscode.workspace.applyEdit(edit), "the undo applied");
        await waitFor("the test file's diagnostics to clear", () => vscode.languages.getDiagnostics(testUri).length === 0, {
          ms: 120_000,
          events: [vscode.languages.onDidChangeDiagnostics],
        });
        log("test file diagnostics cleared");
        await vscode.window.showTextDocument(workflow);
        await vscode.commands.executeCommand("workbench.action.files.revert");
      },
    ],
  ]);
  log("workflowEdits: all passed");
};
