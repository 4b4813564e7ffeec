// e2e suite on a copy of examples/ (test/e2e/run.mjs runs it in code-server's extension host, against
// the installed .vsix): Run All shows the true counts — the numbers the CLI prints for the same folder
// — counted by test (a test's testWorkflow runs are shown under it, never counted), in the status and
// the status bar; the tree groups the files by folder; the output channel's run lines. Never sleeps.
const assert = require("node:assert");
const { spawnSync } = require("node:child_process");
const { join } = require("node:path");
const vscode = require("vscode");
const { installedExtension, readyApi, log, waitFor, steps } = require("./util");

/** `72 tests: 57 passed, 15 failed` → the numbers; the CLI's last summary line. */
function cliCounts(output) {
  const lines = output.split("\n").filter((line) => /^\d+ passed, \d+ failed/.test(line.trim()));
  const last = lines.at(-1);
  if (!last) throw new Error(`the CLI printed no summary:\n${output.slice(-2000)}`);
  const [, passed, failed] = /^(\d+) passed, (\d+) failed/.exec(last.trim());
  const skipped = /(\d+) skipped/.exec(last)?.[1] ?? "0";
  return { passed: Number(passed), failed: Number(failed), skipped: Number(skipped), line: last.trim() };
}

/** Each test item under `items`: an id with a test path whose children are all `testWorkflow` run items (or none). */
function testsIn(items) {
  return items.flatMap((item) => {
    const isRun = (node) => node.id.includes(" run #");
    const isTest = item.id.includes("#") && !isRun(item) && item.children.every(isRun);
    return [...(isTest ? [item] : []), ...testsIn(item.children.filter((child) => !isRun(child)))];
  });
}

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  let extension;
  let api;
  let expected;

  await steps([
    [
      "the CLI run on the same folder prints its counts",
      async () => {
        extension = installedExtension();
        // The CLI the .vsix ships (dist/cli.mjs, what `node bin/turnlens.mjs test` loads), on this workspace.
        const cli = spawnSync(process.execPath, [join(extension.extensionPath, "dist", "cli.mjs"), "test", "."], {
          cwd: root.fsPath,
          encoding: "utf8",
          env: { ...process.env, NO_COLOR: "1", ELECTRON_RUN_AS_NODE: "1" },
          timeout: 600_000,
        });
        expected = cliCounts(`${cli.stdout}\n${cli.stderr}`);
        log(`CLI: ${expected.line} (exit code ${cli.status})`);
        assert.ok(expected.passed > 0 && expected.failed > 0, `examples/ has passing and failing tests: ${expected.line}`);
      },
    ],

    [
      "the tree groups the test files by folder: the nine workflow.test.ts sit under the folders that tell them apart",
      async () => {
        api = await readyApi(extension);
        const top = await waitFor("the folders in the tree", () => {
          const labels = api.testView().map((item) => item.label);
          return labels.includes("review") && labels.includes("mistakes") && labels.includes("site/reference") && labels;
        });
        log(`tree top: ${top.join(", ")}`);
        assert.deepStrictEqual(top, [...top].sort(), "folders sorted by name");
        const review = api.testView().find((item) => item.label === "review");
        assert.deepStrictEqual(
          review.children.map((child) => child.label),
          ["workflow.test.ts"],
        );
        assert.ok(
          api.testView().every((item) => item.id.startsWith("folder ")),
          "every test file of examples/ is in a folder",
        );
      },
    ],

    [
      "Run All shows the CLI's counts, by test: in the status, the status bar, and as many test items as tests",
      async () => {
        // the Testing view's own Run All (its Run profile), as a user clicks it
        await vscode.commands.executeCommand("testing.runAll");
        const { passed, failed, skipped } = expected;
        const words = [`${passed} passed`, ...(failed > 0 ? [`${failed} failed`] : []), ...(skipped > 0 ? [`${skipped} skipped`] : [])].join(", ");
        const status = await waitFor(`the status to say last run: ${words}`, () => api.status().includes(`last run: ${words} in`) && api.status(), { ms: 600_000 });
        log(`status: ${status}`);
        const bar = api.statusBar();
        log(`status bar: ${bar}`);
        assert.ok(bar.startsWith(`$(beaker) $(error) ${failed} failed  $(pass) ${passed} passed`), bar);
        const tests = testsIn(api.testItems());
        const withRuns = tests.filter((test) => test.children.length > 0).length;
        const runs = tests.reduce((sum, test) => sum + test.children.length, 0);
        log(`tree: ${tests.length} tests, ${withRuns} of them with ${runs} testWorkflow runs under them`);
        assert.strictEqual(tests.length, passed + failed + skipped, "one test item per test the CLI counted");
        assert.ok(runs > tests.length / 2, "the runs are shown under their tests");
      },
    ],
  ]);
};
