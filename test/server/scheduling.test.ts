// When runs happen: the debounce, one run per document, one queued rerun, stale results dropped,
// close and cancel, run modes, settings, trust and progress. The fixtures are unsaved buffers of
// files that do not exist on disk, next to examples/mistakes/workflows.ts.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { MISTAKES, mistake, SLOW, TestServer, type StartOptions } from "./harness.ts";

const PROGRESS = "turnlens/testRunProgress";
const DIAGNOSTICS = "textDocument/publishDiagnostics";

let server: TestServer;
async function start(options: StartOptions = {}): Promise<TestServer> {
  return (server = await TestServer.started(options));
}
afterEach(() => server.dispose());

/** A test file that takes `ms` of real time, so edits can land while it runs. */
function slowFile(ms: number): string {
  return ['import { test } from "bun:test";', "", `test("takes a while", async () => {`, `  await new Promise((resolve) => setTimeout(resolve, ${ms}));`, "});", ""].join("\n");
}

const NEVER_ENDS = ['import { test } from "bun:test";', "", 'test("never ends", async () => {', "  await new Promise(() => {});", "});", ""].join("\n");

function publishes(uri: string, from = 0): PublishDiagnosticsParams[] {
  return server.all<PublishDiagnosticsParams>(DIAGNOSTICS, from).filter((params) => params.uri === uri);
}

function progressOf(uri: string, from = 0): TestRunProgressParams[] {
  return server.all<TestRunProgressParams>(PROGRESS, from).filter((params) => params.uri === uri);
}

function started(uri: string, from = 0): Promise<TestRunProgressParams> {
  return server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.uri === uri && params.message.type === "started", from);
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
}

describe("the scheduler", () => {
  test("publishes only the last version after rapid edits, from a single run", async () => {
    await start();
    const { text } = mistake("turn-past-list");
    const path = join(MISTAKES, "virtual-rapid.test.ts");
    const uri = await server.open(path, text);
    let version = 1;
    for (let edit = 1; edit <= 5; edit++) version = await server.change(uri, `${text}// edit ${edit}\n`);
    const from = server.received.length;
    await server.advance(300);
    const last = await server.runEnded(uri, from);
    expect(last?.version).toBe(version);
    expect(last?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
    // The open published its static diagnostics (none) for version 1; every later publish is for the last version.
    expect(publishes(uri).map((params) => params.version)).toEqual([1, version]);
    expect(progressOf(uri).filter((params) => params.message.type === "end")).toHaveLength(1);
  }, SLOW);

  test("an edit during a run queues one rerun and the run's results for the old version are dropped", async () => {
    await start();
    const path = join(MISTAKES, "virtual-slow.test.ts");
    const uri = await server.open(path, slowFile(300));
    await server.advance(300);
    await started(uri);
    const v2 = await server.change(uri, `${slowFile(300)}// v2\n`);
    const v3 = await server.change(uri, `${slowFile(300)}// v3\n`);
    await server.advance(300);
    // The first run ends (stale), then exactly one rerun runs version 3.
    const ends = () => progressOf(uri).filter((params) => params.message.type === "end").length;
    await server.waitFor<TestRunProgressParams>(PROGRESS, () => ends() >= 2);
    const last = publishes(uri).at(-1);
    expect(last?.version).toBe(v3);
    expect(v2).toBe(2);
    expect(publishes(uri).map((params) => params.version)).toEqual([1, v3]);
    expect(progressOf(uri).filter((params) => params.message.type === "started")).toHaveLength(2);
  }, SLOW);

  test("closing a document cancels its run: its worker is killed, its diagnostics are cleared, nothing is published after", async () => {
    await start();
    const path = join(MISTAKES, "virtual-never.test.ts");
    const uri = await server.open(path, NEVER_ENDS);
    await server.advance(300);
    await started(uri);
    const busy = [...server.workers];
    const from = server.received.length;
    await server.close(uri);
    const cleared = await server.waitFor<PublishDiagnosticsParams>(DIAGNOSTICS, (params) => params.uri === uri, from);
    expect(cleared.diagnostics).toEqual([]);
    const signals = await Promise.race(busy.map(async (child) => [await exited(child)]));
    expect(signals).toEqual(["SIGKILL"]);
    await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.uri === uri && params.message.type === "end", from);
    await server.flush();
    expect(publishes(uri, from)).toEqual([cleared]);
  }, SLOW);

  test("a run the explorer cancels ends, and its worker is killed", async () => {
    await start({ initializationOptions: { settings: { runMode: "manual" } } });
    const path = join(MISTAKES, "virtual-cancel.test.ts");
    const uri = await server.open(path, NEVER_ENDS);
    const result = await server.request<{ enqueued: string[] }>("turnlens/runTests", { runId: "r1", include: [uri] });
    expect(result.enqueued).toEqual([`${uri}#never%20ends`]);
    await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.runId === "r1" && params.message.type === "started");
    const busy = [...server.workers];
    await server.client.sendNotification("turnlens/cancelTestRun", { runId: "r1" });
    const end = await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.runId === "r1" && params.message.type === "end");
    expect(end).toEqual({ runId: "r1", message: { type: "end" } });
    expect(await Promise.race(busy.map(exited))).toBe("SIGKILL");
  }, SLOW);

  test("static diagnostics come before any run, and in manual mode only a command runs the tests", async () => {
    await start({ configuration: (section) => (section === "turnlens" ? { runMode: "manual" } : null) });
    const { path, text } = mistake("misspelled-option");
    const from = server.received.length;
    const uri = await server.open(path, text);
    const first = await server.waitFor<PublishDiagnosticsParams>(DIAGNOSTICS, (params) => params.uri === uri, from);
    expect(first.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["unknown-option"]);
    await server.advance(300);
    await server.flush();
    expect(progressOf(uri)).toEqual([]);
    expect(server.requests.some((request) => request.method === "workspace/configuration")).toBe(true);
    const answer = await server.request<{ started: boolean }>("workspace/executeCommand", { command: "turnlens.runFile", arguments: [uri] });
    expect(answer).toEqual({ started: true });
    await server.runEnded(uri, from);
    const lenses = await server.request<Array<{ command: { title: string } }>>("textDocument/codeLens", { textDocument: { uri } });
    expect(lenses.map((lens) => lens.command.title)).toEqual(["▶ Run file", "▶ Run", "✗ 1 problem"]);
  }, SLOW);

  test("in onSave mode an edit refreshes only the static diagnostics and a save runs the tests", async () => {
    await start({ initializationOptions: { settings: { runMode: "onSave" } } });
    const { text } = mistake("turn-past-list");
    const path = join(MISTAKES, "virtual-save.test.ts");
    const uri = await server.open(path, text);
    await server.advance(300);
    await server.runEnded(uri);
    const from = server.received.length;
    const v2 = await server.change(uri, text.replace("agents: {", "agnets: {"));
    await server.advance(300);
    const edited = await server.waitFor<PublishDiagnosticsParams>(DIAGNOSTICS, (params) => params.uri === uri, from);
    expect(edited.version).toBe(v2);
    expect(edited.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["unknown-option"]);
    expect(progressOf(uri, from)).toEqual([]);
    await server.save(uri);
    const saved = await server.runEnded(uri, from);
    expect(saved?.version).toBe(v2);
    expect(saved?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["unknown-option"]);
  }, SLOW);

  test("in an untrusted workspace no user code runs and static diagnostics still work, until trust is granted", async () => {
    await start({ initializationOptions: { workspaceTrusted: false } });
    const { path, text } = mistake("misspelled-option");
    const uri = await server.open(path, text);
    await server.advance(300);
    await server.flush();
    expect(publishes(uri).map((params) => params.diagnostics.map((diagnostic) => diagnostic.code))).toEqual([["unknown-option"], ["unknown-option"]]);
    const refused = await server.request<{ refused?: string }>("turnlens/runTests", { runId: "r1", include: [uri] });
    expect(refused.refused).toBe("the workspace is not trusted, so Turnlens runs no tests");
    expect(server.workers).toHaveLength(0);
    const from = server.received.length;
    await server.client.sendNotification("turnlens/workspaceTrust", { trusted: true });
    await server.advance(300);
    await server.runEnded(uri, from);
    expect(server.workers.length).toBeGreaterThan(0);
  }, SLOW);

  test("a run longer than 300 ms shows work-done progress until it ends", async () => {
    await start();
    const path = join(MISTAKES, "virtual-progress.test.ts");
    const uri = await server.open(path, slowFile(300));
    await server.advance(300);
    await started(uri);
    server.timer.advance(300);
    const begin = await server.waitFor<{ value: { kind: string; title?: string; message?: string } }>("$/progress", (params) => params.value.kind === "begin");
    expect(begin.value).toMatchObject({ kind: "begin", title: "Turnlens", message: "running virtual-progress.test.ts" });
    expect(server.requests.filter((request) => request.method === "window/workDoneProgress/create")).toHaveLength(1);
    await server.waitFor<{ value: { kind: string } }>("$/progress", (params) => params.value.kind === "end");
  }, SLOW);

  test("a run shorter than 300 ms shows no progress", async () => {
    await start();
    const { path } = mistake("turn-past-list");
    await server.openAndRun(path);
    server.timer.advance(1000);
    await server.flush();
    expect(server.requests.filter((request) => request.method === "window/workDoneProgress/create")).toHaveLength(0);
  }, SLOW);

  test("settings from workspace/configuration turn inlay hints off and set the severity of entries never reached", async () => {
    await start({ configuration: () => ({ inlayHints: false, entryNeverReachedSeverity: "error", debounceMs: 50 }) });
    const { path } = mistake("entry-never-reached");
    const from = server.received.length;
    const uri = await server.open(path);
    // The document's own settings arrive after the open; the next edit uses its 50 ms debounce.
    await server.waitFor(DIAGNOSTICS, (params: PublishDiagnosticsParams) => params.uri === uri, from);
    await server.flush();
    await server.advance(300);
    const published = await server.runEnded(uri, from);
    expect(published?.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity])).toEqual([["entry-never-reached", 1]]);
    const hints = await server.request<unknown[]>("textDocument/inlayHint", { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } } });
    expect(hints).toEqual([]);
    const after = server.received.length;
    await server.change(uri, `${mistake("entry-never-reached").text}\n`);
    await server.advance(50);
    expect((await server.runEnded(uri, after))?.version).toBe(2);
  }, SLOW);

  test("a shutdown kills every worker process the server started", async () => {
    await start();
    const { path } = mistake("turn-past-list");
    await server.openAndRun(path);
    expect(server.workers.length).toBeGreaterThan(0);
    await server.request("shutdown", null);
    const signals = await Promise.all(server.workers.map(exited));
    expect(signals.every((signal) => signal === "SIGKILL")).toBe(true);
  }, SLOW);

  test("a handler that fails answers with an error and the server keeps answering", async () => {
    await start();
    await expect(server.request("workspace/executeCommand", { command: "turnlens.nope", arguments: [] })).rejects.toThrow("turnlens: executeCommand failed: unknown command turnlens.nope");
    await expect(server.request("workspace/executeCommand", { command: "turnlens.runTest", arguments: [] })).rejects.toThrow("turnlens.runTest takes [uri, path]");
    await server.flush();
  }, SLOW);
});

