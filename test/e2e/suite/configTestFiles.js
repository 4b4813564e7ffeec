// e2e suite on a small workspace with a turnlens.config.json (test/e2e/run.mjs makes it): the Test
// Explorer lists the files the server finds with the config's include/exclude, and follows the
// config when it changes on disk and a test file when one is created. Never sleeps.
const assert = require("node:assert");
const vscode = require("vscode");
const { readyApi, log, waitFor, steps } = require("./util");

const TEST = 'import { test } from "turnlens/testing";\n\ntest("x", () => {});\n';

exports.run = async () => {
  const root = vscode.workspace.workspaceFolders[0].uri;
  const uri = (path) => vscode.Uri.joinPath(root, path).toString();
  let api;
  const files = () =>
    api
      .testItems()
      .map((item) => item.id)
      .sort();
  const write = (path, text) => vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, path), new TextEncoder().encode(text));
  const until = (what, expected) =>
    waitFor(what, () => JSON.stringify(files()) === JSON.stringify(expected), { ms: 60_000 }).catch((error) => {
      throw new Error(`${error.message}; the tree has ${JSON.stringify(files())}`);
    });

  await steps([
    [
      "the tree holds the included files, not the excluded folder's, though named like tests",
      async () => {
        api = await readyApi();
        await until("the config's files", [uri("tests/a.test.ts")]);
        log(`tree: ${files().join(", ")}`);
      },
    ],
    [
      "after the config's exclude changes on disk, the tree follows it",
      async () => {
        await write("turnlens.config.json", `${JSON.stringify({ include: ["tests/", "fixtures/"], exclude: ["tests/**"] })}\n`);
        await until("the new config's files", [uri("fixtures/b.test.ts")]);
      },
    ],
    [
      "a test file created in an included folder joins the tree; one in an excluded folder does not",
      async () => {
        await write("tests/c.test.ts", TEST);
        await write("fixtures/d.test.ts", TEST);
        await until("the created included file", [uri("fixtures/b.test.ts"), uri("fixtures/d.test.ts")]);
        assert.deepStrictEqual(files(), [uri("fixtures/b.test.ts"), uri("fixtures/d.test.ts")]);
      },
    ],
  ]);
};
