// Where a failed test's message goes in the Test Explorer: at its problem (the misspelled option),
// not on the `test(` line, even when the static pass already publishes that problem and the run's
// copy is not published again. Over the real protocol connection.
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { MISTAKES, SLOW, TestServer } from "./harness.ts";
import { rangeOf } from "./textRanges.ts";

let server: TestServer;
afterEach(() => server.dispose());

const TEXT = [
  'import { test } from "bun:test";',
  'import { answer, testWorkflow } from "agentswf/testing";',
  'import { note, NOTE } from "./workflows";',
  "",
  'test("a misspelled option", async () => {',
  "  await testWorkflow(note, {",
  '    agnets: { writer: answer(NOTE, { title: "Release 1.2" }) },',
  "  });",
  "});",
  "",
].join("\n");

test(
  "a misspelled option's failure message sits on the option, and its diagnostic is published once",
  async () => {
    server = new TestServer({ initializationOptions: { settings: { runMode: "manual" } } });
    await server.initialize();
    const uri = await server.open(join(MISTAKES, "virtual-failure-site.test.ts"), TEXT);
    const id = `${uri}#a%20misspelled%20option`;
    await server.request("turnlens/runTests", { runId: "r1", include: [uri], exclude: [] });
    await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.runId === "r1" && params.message.type === "end");
    const failed = server
      .all<TestRunProgressParams>("turnlens/testRunProgress")
      .map((params) => params.message)
      .find((message) => message.type === "failed");
    const option = rangeOf(TEXT, "agnets");
    const message = 'testWorkflow takes no option "agnets"; did you mean "agents"?';
    expect(failed).toEqual({
      type: "failed",
      test: id,
      durationMs: failed && "durationMs" in failed ? failed.durationMs : 0,
      messages: [{ message, location: { uri, range: option } }],
    });
    const published = server
      .all<PublishDiagnosticsParams>("textDocument/publishDiagnostics")
      .filter((params) => params.uri === uri)
      .at(-1);
    expect(published?.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range])).toEqual([["unknown-option", option]]);
  },
  SLOW,
);
