// Strings are compared as they are: a buffer holding lone surrogates (which no file on disk can
// hold, UTF-8 has no encoding for them) runs with them, so two that differ only by a lone
// surrogate stay two names and two values (the reliability case's `surrogates` scenario).
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { DiagnosticSeverity } from "vscode-languageserver-protocol";
import { TestId, type TestRunProgressParams } from "../../server/protocol.ts";
import { MISTAKES, SLOW, TestServer } from "./harness.ts";

let server: TestServer | undefined;
afterEach(() => {
  server?.dispose();
  server = undefined;
});

test(
  "two test names and two values that differ only by a lone surrogate are kept apart: one test fails, the other passes",
  async () => {
    server = await TestServer.started();
    const text = [
      'import { expect, test } from "bun:test";',
      'test("kept \ud800 apart", () => { expect("\ud800").toBe("\udc00"); });',
      'test("kept \udc00 apart", () => { expect("\udc00").toBe("\udc00"); });',
      "",
    ].join("\n");
    const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-lone-surrogates.test.ts"), text);
    // The background run: the first test fails, where both strings used to read U+FFFD and pass.
    expect(diagnostics.diagnostics.map((diagnostic) => [diagnostic.range.start.line, diagnostic.severity, diagnostic.message])).toEqual([
      [1, DiagnosticSeverity.Error, "expected '\ud800' to be '\udc00' // Object.is equality\n\nExpected: \"\udc00\"\nReceived: \"\ud800\""],
    ]);
    // The explorer's run: two ids (encodeURIComponent refused the names), each with its own outcome.
    const high = `${uri}#kept%20%ED%A0%80%20apart`;
    const low = `${uri}#kept%20%ED%B0%80%20apart`;
    expect(await server.request("turnlens/runTests", { runId: "r1", include: [uri], exclude: [] })).toEqual({ runId: "r1", enqueued: [high, low] });
    await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.runId === "r1" && params.message.type === "end");
    const outcomes = server
      .all<TestRunProgressParams>("turnlens/testRunProgress")
      .filter((params) => params.runId === "r1")
      .flatMap(({ message }) => (message.type === "passed" || message.type === "failed" ? [[message.type, message.test]] : []));
    expect(outcomes).toEqual([
      ["failed", high],
      ["passed", low],
    ]);
    expect([high, low].map((id) => TestId.parse(id).path)).toEqual([["kept \ud800 apart"], ["kept \udc00 apart"]]);
  },
  SLOW,
);
