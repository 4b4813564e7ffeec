// e2e suite for a new user's path (test/e2e/run.mjs runs it on an EMPTY folder): the getting-started
// command scaffolds a first workflow and its test, the test passes in the test tree, and the inline
// turns (inlay hints) show. Runs in code-server's extension host against the installed .vsix.
const assert = require("node:assert");
const vscode = require("vscode");
const { installedExtension, activated, log, waitFor, open, inlayHints, codeLenses, steps } = require("./util");

/** The getting-started command's id, from the installed manifest. */
function gettingStartedCommand(extension) {
  const commands = extension.packageJSON.contributes?.commands ?? [];
  return commands.find((command) => /gettingStarted|getStarted|\.init\b|\.init[A-Z]|scaffold|setUp|setup/i.test(command.command))?.command;
}

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  let extension;
  let api;
  let testFile;

  await steps([
    [
      "the folder is empty and the extension is installed",
      async () => {
        const entries = await vscode.workspace.fs.readDirectory(root);
        assert.deepStrictEqual(entries, [], "the workspace starts empty");
        extension = installedExtension();
      },
    ],

    [
      "the getting-started command scaffolds a first test",
      async () => {
        const id = gettingStartedCommand(extension);
        assert.ok(
          id,
          `the extension contributes a getting-started command (has: ${(extension.packageJSON.contributes?.commands ?? []).map((c) => c.command).join(", ")})`,
        );
        log(`running ${id}`);
        // not awaited alone: a command may end on a message that waits for a click
        let settled = false;
        const running = Promise.resolve(vscode.commands.executeCommand(id)).then(
          () => void (settled = true),
          (error) => {
            settled = true;
            throw error;
          },
        );
        running.catch(() => {});
        const files = await waitFor("a test file in the folder", async () => {
          const found = await vscode.workspace.findFiles("**/*.{test,spec}.{ts,mts,js,mjs}", "**/node_modules/**");
          return found.length > 0 && found;
        });
        testFile = files[0];
        log(`scaffolded: ${files.map((uri) => vscode.workspace.asRelativePath(uri)).join(", ")}${settled ? "" : " (the command has not returned yet)"}`);
        if (settled) await running; // a command that failed fails the step
        api = await activated(extension);
      },
    ],

    [
      "its tests show in the test tree and pass",
      async () => {
        const { document } = await open(testFile);
        await api.ready();
        const item = await waitFor("the scaffolded file's tests in the tree", () => {
          const found = api.testItems().find((candidate) => candidate.id === testFile.toString());
          return found && found.children.length > 0 && found;
        });
        log(`tree: ${item.label}: ${item.children.map((child) => child.label).join(" | ")}`);
        await vscode.commands.executeCommand("turnlens.runThisFile", testFile);
        const status = await waitFor("the run's result", () => /last run: \d+ passed/.test(api.status()) && !/failed/.test(api.status()) && api.status());
        log(`status: ${status}`);
        const lenses = await codeLenses(testFile);
        const results = lenses.filter((lens) => /^[✓✗○]/.test(lens.title));
        log(`lenses: ${results.map((lens) => lens.title).join(" | ")}`);
        assert.ok(results.length > 0 && results.every((lens) => lens.title.startsWith("✓")), "every test passed");

        const hints = await waitFor("the inline turns", async () => {
          const all = await inlayHints(document);
          return all.length > 0 && all;
        });
        log(`inlay hints: ${hints.map((hint) => `${hint.line + 1}: ${hint.label.trim()}`).join(" | ")}`);
        assert.ok(
          hints.every((hint) => /^[\w*, -]+ · turns? \d/.test(hint.label.trim())),
          "each hint names an agent's turns",
        );
        assert.ok(
          hints.some((hint) => /^[\w-]+ · turn \d+ answered$/.test(hint.label.trim())),
          "an entry shows the turn it answered",
        );
      },
    ],
  ]);
  log("gettingStarted: all passed");
};
