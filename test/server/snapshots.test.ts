// Snapshots in the editor: a failed snapshot's diagnostic offers "Update this snapshot", which reruns
// that one test from disk with -u (server/snapshotUpdates.ts): its .snap entry or its inline snapshot
// is rewritten, the file's other snapshots (an obsolete one too) stay as they were, and the file reruns.
// A passing inline snapshot's hover shows its value, unescaped, in a code block. Over the real
// protocol connection, with real workers, on files written to a temporary folder.
import { afterAll, expect } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CodeAction, Diagnostic, Range } from "vscode-languageserver-protocol";
import { parseFixture } from "./check/annotations.ts";
import { fixtureTests, serverForFile } from "./check/fixtureTests.ts";
import type { OpenedFixture } from "./check/openFixture.ts";
import { TestId, type UpdateSnapshotResult } from "../../server/protocol.ts";
import { EDITOR_CAPABILITIES } from "./harness.ts";

const server = serverForFile();
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** In the order @vitest/snapshot writes a .snap file (it sorts the keys), so a file it rewrites unchanged compares equal. */
const SNAP_FILE = `// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html

exports[\`a test that is gone 1\`] = \`"obsolete"\`;

exports[\`greeting > says bye 1\`] = \`"bye"\`;

exports[\`greeting > says hello 1\`] = \`
{
  "n": 1,
  "text": "hello",
}
\`;
`;

/** Two failed snapshots (a .snap entry, an inline one) beside two that match. */
const FIXTURE = `import { describe, expect, test } from "vitest";

describe("greeting", () => {
  test("says hello", () => {
    expect({ text: "hello", n: 2 }).toMatchSnapshot();
//                                  ^^^^^^^^^^^^^^^ action[preferred]: Update this snapshot
  });
  test("says bye", () => {
    expect("bye").toMatchSnapshot();
  });
  test("prints two lines", () => {
    expect("new\\nline").toMatchInlineSnapshot(\`"old line"\`);
//                      ^^^^^^^^^^^^^^^^^^^^^ action[preferred]: Update this snapshot
  });
  test("keeps its inline snapshot", () => {
    expect("kept").toMatchInlineSnapshot(\`"kept"\`);
  });
});
`;

/** A folder holding the fixture's file and its .snap file; the path of the test file. */
function project(name: string): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), "turnlens-snapshots-")));
  folders.push(folder);
  mkdirSync(join(folder, "__snapshots__"));
  writeFileSync(join(folder, "__snapshots__", `${name}.snap`), SNAP_FILE);
  const file = join(folder, name);
  writeFileSync(file, parseFixture(FIXTURE).text);
  return file;
}

/** What each run of the document said of its tests whose snapshot did not match, in order. */
const snapshotFailures = (opened: OpenedFixture): string[][] =>
  opened.server
    .all<{ message: { type: string; uri?: string; tests?: string[] } }>("turnlens/testRunProgress")
    .filter((params) => params.message.type === "snapshotFailures" && params.message.uri === opened.uri)
    .map((params) => params.message.tests ?? []);

const snapFileOf = (file: string) => join(file, "..", "__snapshots__", `${file.split("/").at(-1)}.snap`);

async function actionsAt(opened: OpenedFixture, range: Range, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
  return opened.server.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: opened.uri }, range, context: { diagnostics } });
}

/** Runs the "Update this snapshot" offered over the `index`-th action annotation, as a client runs a code action's command. */
async function update(opened: OpenedFixture, index: number): Promise<UpdateSnapshotResult> {
  const range = opened.fixture.annotations.filter((annotation) => annotation.tag.startsWith("action"))[index]!.range;
  const action = (await actionsAt(opened, range, opened.diagnostics)).find((found) => found.title === "Update this snapshot");
  expect(action?.command?.command).toBe("turnlens.updateSnapshot");
  expect(action?.edit).toBeUndefined();
  const from = opened.server.received.length;
  const result = await opened.server.request<UpdateSnapshotResult>("workspace/executeCommand", {
    command: action!.command!.command,
    arguments: action!.command!.arguments,
  });
  // The document reruns once the snapshots are written.
  await opened.server.flush();
  await opened.server.runEnded(opened.uri, from);
  return result;
}

/** A thrown error's inline snapshot and a file snapshot, both failed. */
const OTHER_MATCHERS = `import { expect, test } from "vitest";

test("throws", () => {
  expect(() => {
    throw new Error("new message");
  }).toThrowErrorMatchingInlineSnapshot(\`[Error: old message]\`);
//   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action[preferred]: Update this snapshot
});

test("writes a page", async () => {
  await expect("<p>new</p>").toMatchFileSnapshot("./page.html");
//                           ^^^^^^^^^^^^^^^^^^^ action[preferred]: Update this snapshot
});
`;

/** A passing inline snapshot whose value has a tab and a backtick, and one in a failing test. */
const HOVER_FIXTURE = `import { expect, test } from "vitest";

test("a tab and a backtick", () => {
  expect({ tab: "a\\tb", tick: "\`" }).toMatchInlineSnapshot(\`
//                                   ^^^^^^^^^^^^^^^^^^^^^…+5:4 hover: **Inline snapshot** · matched in the last run
//                                   |
//                                   | \`\`\`
//                                   | {
//                                   |   "tab": "a	b",
//                                   |   "tick": "\`",
//                                   | }
//                                   | \`\`\`
//                                   |
//                                   | *in test \`a tab and a backtick\`*
    {
      "tab": "a	b",
      "tick": "\\\`",
    }
  \`);
});

test("fails elsewhere", () => {
  expect("same").toMatchInlineSnapshot(\`"same"\`);
//               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ nohover
  expect(1).toBe(2);
});
`;

const helloFile = project("hello.test.ts");
const otherFile = project("other.test.ts");
writeFileSync(otherFile, parseFixture(OTHER_MATCHERS).text);
writeFileSync(join(otherFile, "..", "page.html"), "<p>old</p>");
const inlineFile = project("inline.test.ts");

fixtureTests(server, [
  {
    name: "a failed toMatchSnapshot's diagnostic is at its matcher, with the stored snapshot as expected and the received value as actual",
    path: project("peek.test.ts"),
    onDisk: true,
    checks: ["actions"],
    fixture: FIXTURE,
    also: async (opened) => {
      const failures = opened.diagnostics.map((diagnostic) => ({
        code: diagnostic.code,
        line: diagnostic.range.start.line,
        character: diagnostic.range.start.character,
      }));
      expect(failures).toEqual([
        { code: "expect-failed", line: 4, character: 36 },
        { code: "expect-failed", line: 10, character: 24 },
      ]);
      const progress = opened.server.all<{ uri: string; message: { type: string; test?: string; messages?: Array<{ expected?: string; actual?: string }> } }>(
        "turnlens/testRunProgress",
      );
      const failed = progress.filter((params) => params.uri === opened.uri && params.message.type === "failed").map((params) => params.message.messages?.[0]);
      expect(failed.map((message) => [message?.expected, message?.actual])).toEqual([
        ['{\n  "n": 1,\n  "text": "hello",\n}', '{\n  "n": 2,\n  "text": "hello",\n}'],
        ['"old line"', '"new\nline"'],
      ]);
      // The Testing view offers "Update Snapshots" on these two tests only.
      expect(snapshotFailures(opened).at(-1)).toEqual([TestId.of(opened.uri, ["greeting", "says hello"]), TestId.of(opened.uri, ["greeting", "prints two lines"])]);
    },
  },
  {
    name: "Update this snapshot on a failed toMatchSnapshot rewrites its .snap entry and keeps the file's other snapshots, the obsolete one too",
    path: helloFile,
    onDisk: true,
    checks: ["actions"],
    fixture: FIXTURE,
    also: async (opened) => {
      const result = await update(opened, 0);
      expect(result).toEqual({ ok: true, status: "passed", updated: 1, added: 0, snapshotFile: snapFileOf(helloFile) });
      expect(readFileSync(snapFileOf(helloFile), "utf8")).toBe(SNAP_FILE.replace('"n": 1', '"n": 2'));
      expect(readFileSync(helloFile, "utf8")).toBe(parseFixture(FIXTURE).text);
      // The rerun's diagnostics: only the inline snapshot still fails.
      const after = opened.server
        .all<{ uri: string; diagnostics: Diagnostic[] }>("textDocument/publishDiagnostics")
        .filter((params) => params.uri === opened.uri)
        .at(-1);
      expect(after?.diagnostics.map((diagnostic) => diagnostic.range.start.line)).toEqual([10]);
      expect(snapshotFailures(opened).at(-1)).toEqual([TestId.of(opened.uri, ["greeting", "prints two lines"])]);
    },
  },
  {
    name: "Update this snapshot on a failed inline snapshot rewrites it in the source and leaves the other inline snapshot and the .snap file as they were",
    path: inlineFile,
    onDisk: true,
    checks: ["actions"],
    fixture: FIXTURE,
    also: async (opened) => {
      const result = await update(opened, 1);
      expect(result).toMatchObject({ ok: true, status: "passed", updated: 1, added: 0 });
      expect(readFileSync(inlineFile, "utf8")).toBe(
        parseFixture(FIXTURE).text.replace('toMatchInlineSnapshot(`"old line"`)', 'toMatchInlineSnapshot(`\n      "new\n      line"\n    `)'),
      );
      expect(readFileSync(snapFileOf(inlineFile), "utf8")).toBe(SNAP_FILE);
      // The editor reloads the rewritten file; then only the .snap entry fails, and once it is updated too the
      // Testing view is told no snapshot fails, which hides "Update Snapshots" on the file.
      await opened.server.changeAndRun(opened.uri, readFileSync(inlineFile, "utf8"));
      expect(snapshotFailures(opened).at(-1)).toEqual([TestId.of(opened.uri, ["greeting", "says hello"])]);
      await update(opened, 0);
      expect(snapshotFailures(opened).at(-1)).toEqual([]);
    },
  },
  {
    name: "a failed toThrowErrorMatchingInlineSnapshot and toMatchFileSnapshot are at their matchers with both sides, and Update this snapshot rewrites the source and the file",
    path: otherFile,
    onDisk: true,
    checks: ["actions"],
    fixture: OTHER_MATCHERS,
    also: async (opened) => {
      expect(opened.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line, diagnostic.range.start.character])).toEqual([
        ["expect-failed", 5, 5],
        ["expect-failed", 9, 29],
      ]);
      const progress = opened.server.all<{ uri: string; message: { type: string; messages?: Array<{ expected?: string; actual?: string }> } }>(
        "turnlens/testRunProgress",
      );
      const failed = progress.filter((params) => params.uri === opened.uri && params.message.type === "failed").map((params) => params.message.messages?.[0]);
      expect(failed.map((message) => [message?.expected, message?.actual])).toEqual([
        ["[Error: old message]", "[Error: new message]"],
        ["<p>old</p>", "<p>new</p>"],
      ]);
      expect(await update(opened, 0)).toMatchObject({ ok: true, status: "passed", updated: 1 });
      expect(readFileSync(otherFile, "utf8")).toBe(parseFixture(OTHER_MATCHERS).text.replace("old message", "new message"));
      // The editor reloads the file the update rewrote, and its run follows.
      await opened.server.changeAndRun(opened.uri, readFileSync(otherFile, "utf8"));
      expect(await update(opened, 1)).toMatchObject({ ok: true, status: "passed", updated: 1 });
      expect(readFileSync(join(otherFile, "..", "page.html"), "utf8")).toBe("<p>new</p>");
    },
  },
  {
    name: "Update this snapshot refuses a file with unsaved changes: the inline snapshot would be written at the saved text's lines",
    path: project("unsaved.test.ts"),
    checks: ["actions"],
    fixture: FIXTURE.replace('describe("greeting"', '// unsaved\ndescribe("greeting"'),
    also: async (opened) => {
      const result = await opened.server.request<UpdateSnapshotResult>("workspace/executeCommand", {
        command: "turnlens.updateSnapshot",
        arguments: [opened.uri, ["greeting", "says hello"]],
      });
      expect(result).toEqual({ ok: false, refused: "the file has unsaved changes: save it, then update the snapshot" });
      expect(readFileSync(snapFileOf(opened.uri.slice("file://".length)), "utf8")).toBe(SNAP_FILE);
    },
  },
  {
    name: "hovering a passing inline snapshot shows its value unescaped in a code block, and its test",
    path: project("hover.test.ts"),
    checks: ["hovers"],
    fixture: HOVER_FIXTURE,
  },
]);

fixtureTests(null, [
  {
    name: "a client without markdown gets the inline snapshot's hover as plain text, its value's lines as written",
    path: join(tmpdir(), "turnlens-plain-hover.test.ts"),
    start: { capabilities: { ...EDITOR_CAPABILITIES, textDocument: { ...EDITOR_CAPABILITIES.textDocument, hover: { contentFormat: ["plaintext"] } } } },
    checks: [],
    fixture: HOVER_FIXTURE,
    also: async (opened) => {
      const { start } = opened.fixture.annotations.find((annotation) => annotation.tag === "hover")!.range;
      const hover = await opened.server.request<{ contents: { kind: string; value: string } } | null>("textDocument/hover", {
        textDocument: { uri: opened.uri },
        position: start,
      });
      expect(hover?.contents).toEqual({
        kind: "plaintext",
        value: 'Inline snapshot · matched in the last run\n\n{\n  "tab": "a\tb",\n  "tick": "`",\n}\n\nin test a tab and a backtick',
      });
    },
  },
]);
