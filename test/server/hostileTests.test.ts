// Test files that turn on the runner: a test that signals the server, a timer left to fire in
// the next file's run. Each is charged to the test that did it, and the server keeps answering.
// The fixtures are unsaved buffers next to examples/mistakes/workflows.ts that do not exist on disk.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DiagnosticSeverity } from "vscode-languageserver-protocol";
import { MISTAKES, rangeOf, SLOW, TestServer, type StartOptions } from "./harness.ts";

let server: TestServer;
async function start(options: StartOptions = {}): Promise<TestServer> {
  return (server = await TestServer.started(options));
}
afterEach(() => server.dispose());

function lines(...text: string[]): string {
  return [...text, ""].join("\n");
}

describe("a test cannot take the runner down", () => {
  test("a test that kills its parent fails, and the server answers the next hover", async () => {
    await start();
    const text = lines('import { test } from "bun:test";', "", 'test("kills the server", () => {', "  process.kill(process.ppid);", "});");
    const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-parent.test.ts"), text);
    expect(diagnostics.diagnostics).toHaveLength(1);
    expect(diagnostics.diagnostics[0]).toMatchObject({ range: rangeOf(text, "process.kill(process.ppid);"), severity: DiagnosticSeverity.Error, code: "test-failed" });
    expect(diagnostics.diagnostics[0]!.message).toBe(`the test called process.kill(${process.pid}), which would signal the turnlens process that runs it; a test must not signal its runner`);
    const hover = await server.request<unknown>("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 2 } });
    expect(hover).not.toBeUndefined();
    expect(server.workers.every((child) => child.exitCode === null && child.signalCode === null)).toBe(true);
  }, SLOW);

  test("a timer file A's passed test left behind does not fail file B's test in the same worker", async () => {
    await start({ initializationOptions: { settings: { workers: 1 } } });
    const a = lines('import { test } from "bun:test";', "", 'test("passes and leaves a timer", () => {', '  setTimeout(() => { throw new Error("thrown by file A\'s timer"); }, 200);', "});");
    const b = lines('import { expect, test } from "bun:test";', "", 'test("waits past the timer", async () => {', "  await new Promise((resolve) => setTimeout(resolve, 600));", "  expect(1).toBe(1);", "});");
    const first = await server.openAndRun(join(MISTAKES, "virtual-timer-a.test.ts"), a);
    expect(first.diagnostics.diagnostics).toEqual([]);
    const second = await server.openAndRun(join(MISTAKES, "virtual-timer-b.test.ts"), b);
    expect(second.diagnostics.diagnostics).toEqual([]);
    expect(server.workers).toHaveLength(1);
  }, SLOW);
});
