// e2e suite on a workspace with its own installed Turnlens (test/e2e/run.mjs builds it in
// node_modules/turnlens from this repo's dist/ and a package.json of another version, see e2e.json):
// the status and the output channel name the workspace's version, the server process is the
// workspace's dist/server.js, and a test that checks which worker runs it passes only in the
// workspace's dist/worker.mjs. Runs in code-server's extension host against the installed .vsix.
const assert = require("node:assert");
const { readFileSync } = require("node:fs");
const vscode = require("vscode");
const { installedExtension, readyApi, log, waitFor, open, steps } = require("./util");

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  const expected = JSON.parse(readFileSync(vscode.Uri.joinPath(root, "e2e.json").fsPath, "utf8"));
  const ownTest = vscode.Uri.joinPath(root, "own.test.ts");
  let extension;
  let api;

  await steps([
    [
      "the extension starts the workspace's own Turnlens, of another version than its own",
      async () => {
        extension = installedExtension();
        assert.notStrictEqual(extension.packageJSON.version, expected.version, "the workspace's version differs from the extension's");
        api = await readyApi(extension);
        const engine = api.engine();
        log(`engine: ${JSON.stringify(engine)}`);
        assert.deepStrictEqual(
          { source: engine.source, version: engine.version, module: engine.module },
          { source: "workspace", version: expected.version, module: expected.server },
        );
        assert.strictEqual(engine.line, `using the workspace's Turnlens ${expected.version} (${expected.server})`);
      },
    ],

    [
      "the server process is the workspace's dist/server.js",
      async () => {
        const pid = api.serverPid();
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
        log(`server ${pid}: ${commandLine.join(" ")}`);
        assert.ok(commandLine.includes(expected.server), `the server runs ${expected.server}`);
      },
    ],

    [
      "the status item names the workspace's version",
      async () => {
        await open(ownTest);
        const status = await waitFor(
          "the status to name the workspace's Turnlens",
          () => api.status().includes(`the workspace's Turnlens ${expected.version}`) && api.status(),
        );
        log(`status: ${status}`);
        assert.doesNotMatch(status, /bundled/);
      },
    ],

    [
      "its runs come from the workspace's worker: the test that checks its own process passes",
      async () => {
        await vscode.commands.executeCommand("turnlens.runThisFile", ownTest);
        const status = await waitFor("the run's result", () => /last run: /.test(api.status()) && api.status());
        log(`status: ${status}`);
        assert.match(status, /last run: 2 passed in/, "both tests of own.test.ts pass (one asserts process.argv[1] is the workspace's dist/worker.mjs)");
        const workers = await waitFor("the server's worker processes", () => {
          const children = readFileSync(`/proc/${api.serverPid()}/task/${api.serverPid()}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
          const lines = children.map((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean));
          return lines.length > 0 && lines;
        });
        log(`workers: ${workers.map((line) => line.join(" ")).join(" | ")}`);
        assert.ok(
          workers.every((line) => line.includes(expected.worker)),
          `every worker runs ${expected.worker}`,
        );
      },
    ],
  ]);
  log("workspacePackage: all passed");
};
