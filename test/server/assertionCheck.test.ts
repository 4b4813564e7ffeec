// "Check what this test asserts": the lens after a passed test's result, the command that reruns
// the test with each scripted answer changed, the `answer-unchecked` information diagnostic on
// each answer no assertion noticed, and its clearing on the next edit. Over the real protocol
// connection, on examples/mutation (docs/mutate.md).
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import type { CodeLens, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { AssertionsCheckedParams } from "../../server/protocol.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";

const PATH = join(ROOT, "examples", "mutation", "workflow.test.ts");
const TEXT = readFileSync(PATH, "utf8");
const COVERING = ["the run returns the reader's summary and the reviewer's verdict"];
const IGNORING = ["the reviewer is shown the reader's summary"];
const SENTENCE = 'no assertion of this test depends on reviewer\'s answer (changed to {approved: false, notes: ""}, the test still passed)';

let server: TestServer;
afterEach(() => server?.dispose());

const lensTitles = async (uri: string) =>
  (await server.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri } })).map((lens) => [
    lens.range.start.line,
    lens.command?.title.replace(/\d+ ms/, "N ms"),
  ]);

async function check(uri: string, path: string[]): Promise<{ checked: AssertionsCheckedParams; diagnostics: PublishDiagnosticsParams | undefined }> {
  const from = server.received.length;
  const started = await server.request("workspace/executeCommand", { command: "turnlens.checkAssertions", arguments: [uri, path] });
  expect(started).toEqual({ started: true });
  const checked = await server.waitFor<AssertionsCheckedParams>("turnlens/assertionsChecked", (params) => params.uri === uri, from);
  const diagnostics = server
    .all<PublishDiagnosticsParams>("textDocument/publishDiagnostics", from)
    .filter((params) => params.uri === uri)
    .at(-1);
  return { checked, diagnostics };
}

describe("Check what this test asserts", () => {
  test(
    "a passed test's lens checks it: the answer no assertion noticed gets an information diagnostic on its entry",
    async () => {
      server = await TestServer.started();
      const { uri } = await server.openAndRun(PATH, TEXT);
      expect(await lensTitles(uri)).toEqual([
        [0, "▶ Run file"],
        [7, "▶ Run"],
        [7, "✓ 2 turns · N ms"],
        [7, "Check what this test asserts"],
        [19, "▶ Run"],
        [19, "✓ 2 turns · N ms"],
        [19, "Check what this test asserts"],
      ]);
      const { checked, diagnostics } = await check(uri, IGNORING);
      expect(checked).toEqual({ uri, path: IGNORING, run: 4, noticed: 3, notRun: 0, unnoticed: [SENTENCE] });
      expect(diagnostics?.diagnostics).toEqual([
        {
          range: { start: { line: 24, character: 16 }, end: { line: 24, character: 22 } },
          severity: 3,
          code: "answer-unchecked",
          source: "turnlens",
          message: SENTENCE,
        },
      ]);
      expect((await lensTitles(uri)).filter(([line]) => line === 19)).toEqual([
        [19, "▶ Run"],
        [19, "✓ 2 turns · N ms"],
        [19, "1 of 4 changes unnoticed"],
      ]);
    },
    SLOW,
  );

  test(
    "a test whose assertions cover each answer gets no diagnostic, and its lens says every change was noticed",
    async () => {
      server = await TestServer.started();
      const { uri } = await server.openAndRun(PATH, TEXT);
      const { checked, diagnostics } = await check(uri, COVERING);
      expect(checked).toEqual({ uri, path: COVERING, run: 4, noticed: 4, notRun: 0, unnoticed: [] });
      expect(diagnostics?.diagnostics ?? []).toEqual([]);
      expect((await lensTitles(uri)).filter(([line]) => line === 7).at(-1)).toEqual([7, "✓ every change noticed (4)"]);
    },
    SLOW,
  );

  test(
    "the next edit clears the diagnostic and the score",
    async () => {
      server = await TestServer.started({ initializationOptions: { settings: { runMode: "manual" } } });
      const uri = await server.open(PATH, TEXT);
      await server.request("workspace/executeCommand", { command: "turnlens.runFile", arguments: [uri] });
      await server.runEnded(uri);
      const { diagnostics } = await check(uri, IGNORING);
      expect(diagnostics?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["answer-unchecked"]);
      const from = server.received.length;
      await server.change(uri, `${TEXT}\n`);
      await server.flush();
      const after = server.all<PublishDiagnosticsParams>("textDocument/publishDiagnostics", from).filter((params) => params.uri === uri);
      expect(after.at(-1)?.diagnostics).toEqual([]);
      expect((await lensTitles(uri)).filter(([line]) => line === 19).map(([, title]) => title)).toEqual(["▶ Run", "✓ 2 turns · N ms …", "Check what this test asserts"]);
    },
    SLOW,
  );

  test(
    "a test that fails has nothing to check: no mutant runs, and its lens says so",
    async () => {
      server = await TestServer.started();
      const failing = TEXT.replace('expect(run.value.summary).toBe("Two sentences.");', 'expect(run.value.summary).toBe("Another summary.");');
      const { uri } = await server.openAndRun(PATH, failing);
      const { checked, diagnostics } = await check(uri, IGNORING);
      expect(checked).toEqual({ uri, path: IGNORING, run: 0, noticed: 0, notRun: 0, unnoticed: [] });
      expect(diagnostics?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["expect-failed"]);
      expect((await lensTitles(uri)).filter(([line]) => line === 19)).toEqual([
        [19, "▶ Run"],
        [19, "✗ failed"],
        [19, "no scripted answer to check"],
      ]);
    },
    SLOW,
  );

  test(
    "an untrusted workspace starts no check, and a malformed command is refused",
    async () => {
      server = await TestServer.started({ initializationOptions: { workspaceTrusted: false } });
      const uri = await server.open(PATH, TEXT);
      expect(await server.request("workspace/executeCommand", { command: "turnlens.checkAssertions", arguments: [uri, IGNORING] })).toEqual({
        started: false,
        refused: "the workspace is not trusted, so Turnlens runs none of its code",
      });
      await expect(server.request("workspace/executeCommand", { command: "turnlens.checkAssertions", arguments: [uri] })).rejects.toThrow(
        "turnlens.checkAssertions takes [uri, path]",
      );
    },
    SLOW,
  );
});
