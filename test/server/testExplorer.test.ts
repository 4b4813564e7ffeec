// The test explorer messages: the tree a document declares, a run the client asks for by test id
// with its progress sequence and failure messages, a single test run from its code lens, and where
// a failed test's message goes: at its problem (the misspelled option), not on the `test(` line,
// even when the static pass already publishes that problem and the run's copy is not published again.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { TestItem, TestRunProgressParams, TestsDiscoveredParams } from "../../server/protocol.ts";
import { PROTOCOL_VERSION } from "../../server/protocol.ts";
import { EDITOR_CAPABILITIES, MANUAL_RUNS, MISTAKES, SLOW, TestServer } from "./harness.ts";
import { rangeOf } from "./textRanges.ts";

let server: TestServer;
afterEach(() => server.dispose());

const TEXT = `import { describe, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

describe("loop", () => {
  test("stops when done", async () => {
    await testWorkflow(loop, { agents: { worker: answer(STEP, { done: true }) } });
  });

  test("needs a second step", async () => {
    await testWorkflow(loop, { agents: { worker: [answer(STEP, { done: false })] } });
  });
});
`;
const PATH = join(MISTAKES, "virtual-explorer.test.ts");

/** A test whose problem the static pass finds too. */
const FAILURE_SITE_TEXT = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a misspelled option", async () => {
  await testWorkflow(note, {
    agnets: { writer: answer(NOTE, { title: "Release 1.2" }) },
  });
});
`;

function strip(items: TestItem[]): unknown[] {
  return items.map((item) => ({ id: item.id, label: item.label, kind: item.kind, line: item.range?.start.line, source: item.source, children: strip(item.children) }));
}

/** A server in manual run mode, its module's `server`, that ran the tests of `text` opened at `path`; the uri. */
async function ranManually(path: string, text: string): Promise<string> {
  server = await TestServer.started(MANUAL_RUNS);
  return server.openAndRunTests(path, text);
}

/** Opens the file in a server that runs it only when asked. */
async function openManually(): Promise<string> {
  server = await TestServer.started(MANUAL_RUNS);
  return server.open(PATH, TEXT);
}

describe("the test explorer", () => {
  test(
    "gets the tree of each opened document, with self-describing ids",
    async () => {
      server = new TestServer(MANUAL_RUNS);
      const initialized = await server.initialize();
      expect(initialized.capabilities.experimental).toEqual({ turnlens: { testExplorer: true, protocol: PROTOCOL_VERSION } });
      const uri = await server.open(PATH, TEXT);
      const discovered = await server.waitFor<TestsDiscoveredParams>("turnlens/testsDiscovered", (params) => params.textDocument.uri === uri);
      expect(strip(discovered.tests)).toEqual([
        {
          id: `${uri}#loop`,
          label: "loop",
          kind: "describe",
          line: 4,
          source: "static",
          children: [
            { id: `${uri}#loop/stops%20when%20done`, label: "stops when done", kind: "test", line: 5, source: "static", children: [] },
            { id: `${uri}#loop/needs%20a%20second%20step`, label: "needs a second step", kind: "test", line: 9, source: "static", children: [] },
          ],
        },
      ]);
    },
    SLOW,
  );

  test(
    "sends no explorer messages to a client without the capability",
    async () => {
      const { experimental: _experimental, ...capabilities } = EDITOR_CAPABILITIES;
      server = new TestServer({ capabilities });
      await server.initialize();
      const uri = await server.open(PATH, TEXT);
      await server.advance(300);
      await server.waitFor<PublishDiagnosticsParams>("textDocument/publishDiagnostics", (params) => params.uri === uri && params.diagnostics.length > 0);
      expect(server.received.filter((message) => message.method.startsWith("turnlens/"))).toEqual([]);
    },
    SLOW,
  );

  test(
    "runs the tests a client asks for and reports enqueued, started, passed or failed with a located message its diagnostic marks, then end",
    async () => {
      const uri = await openManually();
      const failing = `${uri}#loop/needs%20a%20second%20step`;
      const passing = `${uri}#loop/stops%20when%20done`;
      expect(await server.runTests("r1", { include: [uri], exclude: [] })).toEqual({ runId: "r1", enqueued: [passing, failing] });
      const messages = server
        .all<TestRunProgressParams>("turnlens/testRunProgress")
        .filter((params) => params.runId === "r1")
        .map((params) => params.message);
      const list = rangeOf(TEXT, "[answer(STEP, { done: false })]");
      expect(messages.map((message) => ("durationMs" in message ? { ...message, durationMs: 0 } : message))).toEqual([
        { type: "enqueued", test: passing },
        { type: "enqueued", test: failing },
        { type: "started", test: passing },
        { type: "passed", test: passing, durationMs: 0 },
        { type: "started", test: failing },
        {
          type: "failed",
          test: failing,
          durationMs: 0,
          messages: [{ message: 'agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.', location: { uri, range: list }, diagnostic: true }],
        },
        { type: "end" },
      ]);
    },
    SLOW,
  );

  test(
    "running one test from its code lens keeps the others' results and reruns only that test",
    async () => {
      const uri = await openManually();
      await server.request("workspace/executeCommand", { command: "turnlens.runTest", arguments: [uri, ["loop", "needs a second step"]] });
      const first = await server.runEnded(uri);
      expect(first?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      const lenses = async () =>
        (await server.request<Array<{ command: { title: string } }>>("textDocument/codeLens", { textDocument: { uri } })).map((lens) =>
          lens.command.title.replace(/\d+ ms/, "N ms"),
        );
      expect(await lenses()).toEqual(["▶ Run file", "▶ Run", "▶ Run", "✗ 1 problem"]);
      const from = server.received.length;
      await server.request("workspace/executeCommand", { command: "turnlens.runTest", arguments: [uri, ["loop", "stops when done"]] });
      const second = await server.runEnded(uri, from);
      expect(second?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      expect(await lenses()).toEqual(["▶ Run file", "▶ Run", "✓ 1 turn · N ms", "Check what this test asserts", "▶ Run", "✗ 1 problem"]);
      const started = server.all<TestRunProgressParams>("turnlens/testRunProgress", from).filter((params) => params.message.type === "started");
      expect(started.map((params) => (params.message as { test: string }).test)).toEqual([`${uri}#loop/stops%20when%20done`]);
    },
    SLOW,
  );
});

test(
  "a misspelled option's failure message sits on the option, marked as one its diagnostic shows there, and its diagnostic is published once",
  async () => {
    const uri = await ranManually(join(MISTAKES, "virtual-failure-site.test.ts"), FAILURE_SITE_TEXT);
    const id = `${uri}#a%20misspelled%20option`;
    const failed = server
      .all<TestRunProgressParams>("turnlens/testRunProgress")
      .map((params) => params.message)
      .find((message) => message.type === "failed");
    const option = rangeOf(FAILURE_SITE_TEXT, "agnets");
    const message = 'testWorkflow takes no option "agnets"; did you mean "agents"?';
    expect(failed).toEqual({
      type: "failed",
      test: id,
      durationMs: failed && "durationMs" in failed ? failed.durationMs : 0,
      messages: [{ message, location: { uri, range: option }, diagnostic: true }],
    });
    const published = server
      .all<PublishDiagnosticsParams>("textDocument/publishDiagnostics")
      .filter((params) => params.uri === uri)
      .at(-1);
    expect(published?.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range])).toEqual([["unknown-option", option]]);
  },
  SLOW,
);
