// e2e suite on a copy of examples/feature-delivery (run by test/e2e/run.mjs in code-server's extension
// host): each way in opens the run timeline's webview for the test it names — the Timeline lens's
// arguments, the Testing view's context menu (it passes the test item) and a failed test message's
// menu in Test Results (it passes `{ test, message }`); a file is refused with a message. Waits, never sleeps.
const assert = require("node:assert");
const vscode = require("vscode");
const { readyApi, log, waitFor, open, steps } = require("./util");

const TEST = "a reviewer asks the planner to change the doc, and reviews once it replied";

/** The open webview tabs' labels. */
function webviewTabs() {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview)
    .map((tab) => tab.label);
}

async function closeWebviews() {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview);
  await vscode.window.tabGroups.close(tabs);
  await waitFor("the webviews to close", () => webviewTabs().length === 0, { events: [vscode.window.tabGroups.onDidChangeTabs] });
}

async function opensTimeline(what, argument) {
  await vscode.commands.executeCommand("turnlens.showTimeline", argument);
  const label = await waitFor(`the timeline webview from ${what}`, () => webviewTabs().find((tab) => tab === `Timeline: ${TEST}`), {
    events: [vscode.window.tabGroups.onDidChangeTabs],
  });
  log(`${what}: opened "${label}"`);
  await closeWebviews();
}

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  const testUri = vscode.Uri.joinPath(root, "workflow.test.ts");
  let api;
  let lensArguments;
  await steps([
    [
      "the test file runs and each of its tests gets a Timeline lens",
      async () => {
        api = await readyApi();
        await open(testUri);
        const lenses = await waitFor(
          "three Timeline lenses",
          async () => {
            const all = ((await vscode.commands.executeCommand("vscode.executeCodeLensProvider", testUri, 100)) ?? []).filter(
              (lens) => lens.command?.title === "Timeline",
            );
            return all.length === 3 && all;
          },
          { ms: 120_000 },
        );
        assert.deepStrictEqual(
          lenses.map((lens) => lens.command.command),
          ["turnlens.showTimeline", "turnlens.showTimeline", "turnlens.showTimeline"],
        );
        lensArguments = lenses[1].command.arguments;
        assert.strictEqual(lensArguments[0], `${testUri.toString()}#${encodeURIComponent(TEST)}`);
      },
    ],
    ["the lens's command opens the test's timeline", () => opensTimeline("the lens", ...lensArguments)],
    [
      "the Testing view's context menu (the test item) and a test message's menu in Test Results ({ test, message }) open it too",
      async () => {
        const flat = (items) => items.flatMap((item) => [item, ...flat(item.children)]);
        const item = await waitFor("the test's item", () => flat(api.testItems()).find((candidate) => candidate.label === TEST));
        await opensTimeline("the Testing view's menu", { id: item.id });
        await opensTimeline("a test message's menu", { test: { id: item.id }, message: {} });
      },
    ],
    [
      "a file is no test: no webview opens",
      async () => {
        await vscode.commands.executeCommand("turnlens.showTimeline", { id: testUri.toString() });
        assert.deepStrictEqual(webviewTabs(), []);
      },
    ],
  ]);
};
