// e2e suite on a copy of examples/ (run by test/e2e/run.mjs in code-server's extension host, against
// the Turnlens installed from the .vsix): activation, the test tree, a run's result, a diagnostic,
// a quick fix applied, a hover, an inlay hint, code lenses, and a server killed mid-run coming back.
// Waits on events/deadlines, never sleeps.
const assert = require("node:assert");
const vscode = require("vscode");
const { installedExtension, activated, log, waitFor, waitForDiagnostic, codeOf, open, positionOf, hoverText, inlayHints, codeLenses, steps } = require("./util");

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  const file = (path) => vscode.Uri.joinPath(root, path);
  const summarize = file("summarize/summarize.test.ts");
  let extension;
  let api;
  let document;

  await steps([
    [
      "the installed extension activates on a workspace with Turnlens tests",
      async () => {
        extension = installedExtension();
        // the .vsix's copy, not a development folder
        assert.match(extension.extensionPath, /[\\/]ext[\\/]turnlens\.turnlens-/, extension.extensionPath);
        api = await activated(extension);
        assert.ok(api && typeof api.testItems === "function", "activate() returns the Turnlens API");
        await api.ready();
        log(`server pid ${api.serverPid()}; status: ${api.status()}`);
      },
    ],

    [
      "a workspace without its own node_modules/turnlens runs the bundled copy, and the status and output say so",
      async () => {
        const engine = api.engine();
        const bundled = require("node:path").join(extension.extensionPath, "dist", "server.js");
        log(`engine: ${JSON.stringify(engine)}`);
        assert.deepStrictEqual(
          { source: engine.source, version: engine.version, module: engine.module },
          { source: "bundled", version: extension.packageJSON.version, module: bundled },
        );
        assert.strictEqual(engine.line, `using the bundled Turnlens ${extension.packageJSON.version} (${bundled}): the workspace has no node_modules/turnlens`);
        const commandLine = require("node:fs").readFileSync(`/proc/${api.serverPid()}/cmdline`, "utf8").split("\0");
        assert.ok(commandLine.includes(bundled), `the server runs ${bundled}: ${commandLine.join(" ")}`);
        assert.ok(api.status().includes(`bundled Turnlens ${extension.packageJSON.version}`), api.status());
      },
    ],

    [
      "the test tree lists the workspace's test files, and a file's tests once it is open",
      async () => {
        const files = await waitFor("the test files in the tree", () => {
          const labels = api.testItems().map((item) => item.label);
          return ["summarize.test.ts", "entry-never-reached.test.ts", "misspelled-option.test.ts"].every((name) => labels.includes(name)) && labels;
        });
        log(`tree files: ${files.join(", ")}`);
        ({ document } = await open(summarize));
        const tests = await waitFor("summarize.test.ts's tests in the tree", () => {
          const item = api.testItems().find((candidate) => candidate.id === summarize.toString());
          return item && item.children.length === 2 && item.children.map((child) => child.label);
        });
        assert.deepStrictEqual(tests, ["returns the reader's summary", "a reader that never answers is nudged once, then the summary says why"]);
        log(`tree tests: ${tests.join(" | ")}`);
      },
    ],

    [
      "running the file (turnlens.runThisFile) reports both tests passed",
      async () => {
        await vscode.commands.executeCommand("turnlens.runThisFile", summarize);
        const status = await waitFor("the status to show the run", () => /last run: 2 passed/.test(api.status()) && api.status());
        log(`status: ${status}`);
        // each test gets its testWorkflow run as a child item, described with its ending and turns
        const runs = await waitFor("the runs under the tests", () => {
          const item = api.testItems().find((candidate) => candidate.id === summarize.toString());
          const children = item ? item.children.flatMap((test) => test.children) : [];
          return children.length === 2 && children;
        });
        for (const run of runs) assert.match(`${run.label} ${run.description}`, /^run summarize .*\d+ turns? · \d+ ms$/);
        log(`tree runs: ${runs.map((run) => `${run.label} (${run.description})`).join(" | ")}`);
      },
    ],

    [
      "code lenses: Run file, Run, and each test's result",
      async () => {
        const lenses = await waitFor("the result lenses", async () => {
          const all = await codeLenses(summarize);
          return all.filter((lens) => lens.title.startsWith("✓")).length === 2 && all;
        });
        const titles = lenses.map((lens) => `${lens.line + 1}: ${lens.title}`);
        log(`lenses: ${titles.join(" | ")}`);
        assert.ok(
          lenses.some((lens) => lens.line === 0 && lens.title === "▶ Run file"),
          titles.join(", "),
        );
        assert.ok(
          lenses.some((lens) => lens.line === 5 && lens.title === "▶ Run"),
          titles.join(", "),
        );
        assert.ok(
          lenses.some((lens) => lens.line === 5 && /^✓ 1 turn · \d+ ms$/.test(lens.title)),
          titles.join(", "),
        );
      },
    ],

    [
      "an inlay hint shows the turn an entry met",
      async () => {
        const line = positionOf(document, "answer(SUMMARY").line;
        const hints = await waitFor("inlay hints", async () => {
          const all = await inlayHints(document);
          return all.some((hint) => hint.line === line) && all;
        });
        log(`inlay hints: ${hints.map((hint) => `${hint.line + 1}: ${hint.label.trim()}`).join(" | ")}`);
        assert.strictEqual(hints.find((hint) => hint.line === line).label.trim(), "reader · turn 1 answered");
      },
    ],

    [
      "hovering answer(...) shows the turn it met",
      async () => {
        const position = positionOf(document, "answer(SUMMARY").translate(0, 2);
        const text = await waitFor("a hover on answer(", async () => {
          const hover = await hoverText(summarize, position);
          // TypeScript's hover comes too; Turnlens's starts at its header
          return hover.includes("Turnlens · ") && hover.slice(hover.indexOf("Turnlens · "));
        });
        log(`hover: ${text.split("\n").filter(Boolean).slice(0, 3).join(" ⏎ ")}`);
        assert.match(text, /^Turnlens · \*\*reader · turn 1 answered\*\*/);
        assert.match(text, /\*\*reader\*\* turn 1 · ✓ answered/);
        assert.match(text, /Answer: `\{"summary":"Two sentences\."\}`/);
      },
    ],

    [
      "entry-never-reached: the diagnostic on the entry no turn reached",
      async () => {
        const uri = file("mistakes/entry-never-reached.test.ts");
        const { document: mistake } = await open(uri);
        const diagnostic = await waitForDiagnostic("the entry-never-reached diagnostic", uri, (d) => codeOf(d) === "entry-never-reached");
        log(`diagnostic: ${diagnostic.source} ${codeOf(diagnostic)} line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
        assert.strictEqual(diagnostic.source, "turnlens");
        assert.strictEqual(diagnostic.message, 'agent "writer" was asked 1 turn; its script has 2: this entry is never reached');
        assert.match(mistake.getText(diagnostic.range), /^answer\(NOTE, \{ title: "Release 1\.3" \}\)/);
        assert.ok((diagnostic.tags ?? []).includes(vscode.DiagnosticTag.Unnecessary), "tagged unnecessary");
      },
    ],

    [
      "misspelled option: the quick fix renames it and the test then passes",
      async () => {
        const uri = file("mistakes/misspelled-option.test.ts");
        const { document: mistake } = await open(uri);
        const diagnostic = await waitForDiagnostic("the unknown-option diagnostic", uri, (d) => codeOf(d) === "unknown-option");
        log(`diagnostic: ${codeOf(diagnostic)} line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
        assert.strictEqual(mistake.getText(diagnostic.range), "agnets");
        const actions = await vscode.commands.executeCommand("vscode.executeCodeActionProvider", uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
        log(`quick fixes: ${actions.map((action) => action.title).join(" | ")}`);
        const rename = actions.find((action) => action.title === 'Rename "agnets" to "agents"');
        assert.ok(rename?.edit, "the rename fix, with an edit");
        assert.ok(await vscode.workspace.applyEdit(rename.edit), "the edit applies");
        assert.match(mistake.getText(), /\n {4}agents: \{ writer: answer\(NOTE/);
        assert.doesNotMatch(mistake.getText(), /agnets:/);
        // the edit reruns the file: the problem goes, and its test passes
        await waitFor("the unknown-option diagnostic to go", () => !vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === "unknown-option"), {
          events: [vscode.languages.onDidChangeDiagnostics],
        });
        const lenses = await waitFor("the fixed test's result lens", async () => (await codeLenses(uri)).find((lens) => lens.title.startsWith("✓")));
        log(`after the fix: ${lenses.title}`);
      },
    ],

    [
      "killing the server during a run: the client restarts it, the status says what happened, and the next run passes",
      async () => {
        const before = api.serverPid();
        assert.ok(before, "the server runs");
        const running = Promise.resolve(vscode.commands.executeCommand("turnlens.runThisFile", summarize)).catch(() => {});
        process.kill(before, "SIGKILL");
        await running;
        const after = await waitFor("a new server process", () => {
          const pid = api.serverPid();
          return pid !== undefined && pid !== before && pid;
        });
        const said = await waitFor("the status to say the server was killed and restarted", () => /was killed \(SIGKILL\).*restarted/.test(api.status()) && api.status());
        log(`server pid ${before} killed, now ${after}; status: ${said}`);
        await vscode.commands.executeCommand("turnlens.runThisFile", summarize);
        // The restarted server reruns every open document too, so "last run" in the status may be
        // another file's: the new server's own result lenses on this file say whether it passed.
        const passed = await waitFor("the next run of this file to pass", async () => {
          const results = (await codeLenses(summarize)).filter((lens) => /^[✓✗]/.test(lens.title));
          return results.length >= 2 && results.every((lens) => lens.title.startsWith("✓")) && results.map((lens) => lens.title).join(" | ");
        });
        log(`after the restart: ${passed}; status: ${api.status()}`);
      },
    ],
  ]);
  log("examples: all passed");
};
