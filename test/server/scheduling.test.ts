// When runs happen: the short debounce, static diagnostics at once, a newer edit cancelling the
// run of an older version, the worker warmed at initialize, one run per document, one queued
// rerun behind a run someone asked for, stale results dropped, close and cancel, run modes,
// settings, trust and progress. The fixtures are unsaved buffers of
// files that do not exist on disk, next to examples/mistakes/workflows.ts.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { defaultSettings } from "../../server/settings.ts";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { MANUAL_RUNS, MISTAKES, mistake, SLOW, TestServer, type StartOptions } from "./harness.ts";
import { rangeOf } from "./textRanges.ts";

const PROGRESS = "turnlens/testRunProgress";
const DIAGNOSTICS = "textDocument/publishDiagnostics";

let server: TestServer;
async function start(options: StartOptions = {}): Promise<TestServer> {
  return (server = await TestServer.started(options));
}
afterEach(() => server.dispose());

/** A test file that takes `ms` of real time, so edits can land while it runs. */
function slowFile(ms: number): string {
  return ['import { test } from "bun:test";', "", `test("takes a while", async () => {`, `  await new Promise((resolve) => setTimeout(resolve, ${ms}));`, "});", ""].join(
    "\n",
  );
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

/** A server, started, that has run examples/mistakes' turn-past-list once. */
async function startAndRunPastList(): Promise<void> {
  await start();
  await server.openAndRun(mistake("turn-past-list").path);
}

/**
 * A server in manual run mode with `text` open as examples/mistakes/`name`, once the run "r1" the
 * explorer asked for has started; the uri and what the request enqueued.
 */
async function startExplorerRun(name: string, text: string): Promise<{ uri: string; enqueued: string[] }> {
  await start(MANUAL_RUNS);
  const uri = await server.open(join(MISTAKES, name), text);
  const { enqueued } = await server.request<{ enqueued: string[] }>("turnlens/runTests", { runId: "r1", include: [uri] });
  await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.runId === "r1" && params.message.type === "started");
  return { uri, enqueued };
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
}

/** Opens `text` as the unsaved test file virtual-<name>.test.ts among the mistakes; its URI. */
function openVirtual(name: string, text: string): Promise<string> {
  return server.open(join(MISTAKES, `virtual-${name}.test.ts`), text);
}

describe("the scheduler", () => {
  test(
    "rapid edits publish their static diagnostics as soon as they are read, the last version's included, and only the last version runs",
    async () => {
      await start();
      const { text } = mistake("turn-past-list");
      const uri = await openVirtual("rapid", text);
      let version = 1;
      for (let edit = 1; edit <= 5; edit++) version = await server.change(uri, `${text}// edit ${edit}\n`);
      await server.flush();
      // Before any debounce ended: static only (nothing has run), in order, ending with the last
      // version; an edit read while later ones waited to be read has its pass done with theirs.
      const published = publishes(uri).map((params) => params.version);
      expect(published[0]).toBe(1);
      expect(published.at(-1)).toBe(6);
      expect(published).toEqual([...new Set(published)].sort((left, right) => (left ?? 0) - (right ?? 0)));
      expect(publishes(uri).filter((params) => params.diagnostics.length > 0)).toEqual([]);
      const from = server.received.length;
      await server.advance(defaultSettings.debounceMs);
      const last = await server.runEnded(uri, from);
      expect(last?.version).toBe(version);
      expect(last?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      expect(publishes(uri, from).map((params) => params.version)).toEqual([version]);
      expect(progressOf(uri).filter((params) => params.message.type === "end")).toHaveLength(1);
    },
    SLOW,
  );

  test(
    "the default debounce is 10 ms: an edit's run starts once typing paused that long, not before",
    async () => {
      expect(defaultSettings.debounceMs).toBe(10);
      await start();
      const { text } = mistake("turn-past-list");
      const uri = await server.open(join(MISTAKES, "virtual-debounce.test.ts"), text);
      await server.advance(9);
      await server.flush();
      expect(progressOf(uri)).toEqual([]);
      await server.advance(1);
      await server.runEnded(uri);
      const from = server.received.length;
      await server.change(uri, `${text}// edited\n`);
      await server.advance(9);
      await server.flush();
      expect(progressOf(uri, from)).toEqual([]);
      await server.advance(1);
      expect((await server.runEnded(uri, from))?.version).toBe(2);
    },
    SLOW,
  );

  test(
    "a burst of typing starts no more runs at the default debounce than at the 25 ms it was: one run a key when keys come 30 ms or more apart (a person typing, a key repeating), one for the burst when an editor sends its changes 5 ms apart",
    async () => {
      /** Runs started by bursts of 5 changes `gapMs` apart (each burst after the last one's runs ended), by gap. */
      const runsPerBurst = async (settings: { debounceMs?: number }, gaps: number[]): Promise<number[]> => {
        await start({ initializationOptions: { settings } });
        const { text } = mistake("turn-past-list");
        const uri = await openVirtual("burst", text);
        const debounceMs = settings.debounceMs ?? defaultSettings.debounceMs;
        await server.advance(debounceMs);
        await server.runEnded(uri);
        let runs = 0;
        server.server.scheduler.onDidStartRun.event((run) => void (run.uri === uri && runs++));
        const counts: number[] = [];
        let edit = 0;
        for (const gap of gaps) {
          runs = 0;
          for (let key = 1; key <= 5; key++) {
            await server.change(uri, `${text}// edit ${++edit}\n`);
            await server.advance(key < 5 ? gap : debounceMs);
          }
          await server.flush();
          // Every run the burst started has ended (the cancelled ones first) before the next burst.
          for (let from = 0; server.server.scheduler.runPending(uri); from = server.received.length) await server.runEnded(uri, from);
          counts.push(runs);
        }
        return counts;
      };
      const gaps = [5, 30, 40, 100];
      const before = await runsPerBurst({ debounceMs: 25 }, gaps);
      expect(before).toEqual([1, 5, 5, 5]);
      server.dispose();
      expect(await runsPerBurst({}, gaps)).toEqual(before);
    },
    SLOW,
  );

  test(
    "a newer edit cancels the running run of an older version: its results never appear, its looping worker is killed, and the new version's run publishes",
    async () => {
      // A long test timeout: only the cancel can end the loop (the watchdog would take ten minutes).
      await start({ initializationOptions: { settings: { testTimeout: 600_000 } } });
      const looping = [
        'import { test } from "bun:test";',
        "",
        'test("passes", () => {});',
        "",
        'test("loops until cancelled", async () => {',
        "  for (;;) await new Promise((resolve) => setImmediate(resolve));",
        "});",
        "",
      ].join("\n");
      const uri = await server.open(join(MISTAKES, "virtual-superseded.test.ts"), looping);
      await server.advance(defaultSettings.debounceMs);
      await server.waitFor<TestRunProgressParams>(
        PROGRESS,
        (params) => params.uri === uri && params.message.type === "started" && params.message.test.endsWith("loops%20until%20cancelled"),
      );
      const busy = [...server.workers];
      const from = server.received.length;
      const v2 = await server.change(uri, mistake("turn-past-list").text);
      // The old run ends at once, before the new one's debounce: no worker is held for old text.
      await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.uri === uri && params.message.type === "end", from);
      // The abandoned worker does not end its loop within the grace, so it is killed.
      expect(await Promise.race(busy.map(exited))).toBe("SIGKILL");
      const afterOld = server.received.length;
      await server.advance(defaultSettings.debounceMs);
      const published = await server.runEnded(uri, afterOld);
      expect(published?.version).toBe(v2);
      expect(published?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      await server.flush();
      // Every publish after the edit is of version 2; the old run reported nothing after the edit but its end.
      expect(publishes(uri, from).map((params) => params.version)).toEqual([v2, v2]);
      expect(progressOf(uri, from).map((params) => params.message.type)).toEqual(["end", "started", "failed", "end"]);
      expect(
        progressOf(uri, from)
          .filter((params) => params.message.type === "started")
          .map((params) => (params.message as { test: string }).test),
      ).toEqual([`${uri}#${encodeURIComponent("a turn past the list's end")}`]);
      expect(await server.request("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 0 } })).toBeNull();
    },
    SLOW,
  );

  test(
    "while the run of a new version goes, the last run's diagnostics are carried to where their text moved",
    async () => {
      await start();
      const { text } = mistake("turn-past-list");
      const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, "virtual-carried.test.ts"), text);
      expect(diagnostics.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      const edited = `// a new first line\n${text}`;
      const from = server.received.length;
      const v2 = await server.change(uri, edited);
      const atOnce = await server.waitFor<PublishDiagnosticsParams>(DIAGNOSTICS, (params) => params.uri === uri, from);
      const old = diagnostics.diagnostics[0]!.range;
      expect(atOnce.version).toBe(v2);
      expect(atOnce.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range])).toEqual([
        ["list-exhausted", { start: { line: old.start.line + 1, character: old.start.character }, end: { line: old.end.line + 1, character: old.end.character } }],
      ]);
      await server.advance(defaultSettings.debounceMs);
      const ran = await server.runEnded(uri, from);
      expect(ran?.version).toBe(v2);
      expect(ran?.diagnostics.map((diagnostic) => diagnostic.range)).toEqual(atOnce.diagnostics.map((diagnostic) => diagnostic.range));
      expect(rangeOf(edited, "[answer(STEP, { done: false })]").start.line).toBe(old.start.line + 1);
    },
    SLOW,
  );

  test(
    "the worker forked and warmed at initialize runs the first document's first run",
    async () => {
      await start();
      // Forked while initialize was answered, before any document is open.
      expect(server.workers).toHaveLength(1);
      const { path } = mistake("turn-past-list");
      const { diagnostics } = await server.openAndRun(path);
      expect(diagnostics.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      expect(server.workers).toHaveLength(1);
      expect(server.workers[0]!.exitCode).toBeNull();
      // Its warm-up file is the server's own: nothing of it reaches the client.
      expect(server.all<PublishDiagnosticsParams>(DIAGNOSTICS).map((params) => params.uri)).toEqual([diagnostics.uri, diagnostics.uri]);
      expect(server.all<TestRunProgressParams>(PROGRESS).every((params) => params.uri === diagnostics.uri)).toBe(true);
    },
    SLOW,
  );

  test(
    "an edit during a run the explorer asked for queues one rerun, and that run's results for the old version are dropped",
    async () => {
      const { uri } = await startExplorerRun("virtual-slow.test.ts", slowFile(300));
      const v2 = await server.change(uri, `${slowFile(300)}// v2\n`);
      await server.request("turnlens/runTests", { runId: "r2", include: [uri] });
      const v3 = await server.change(uri, `${slowFile(300)}// v3\n`);
      await server.advance(300);
      // The first run ends (stale, reported to r1), then exactly one rerun runs version 3 for r2.
      const r1 = await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.runId === "r1" && params.message.type === "end");
      expect(r1).toEqual({ runId: "r1", message: { type: "end" } });
      await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.runId === "r2" && params.message.type === "end");
      expect(v2).toBe(2);
      expect(publishes(uri).map((params) => params.version)).toEqual([1, 2, v3, v3]);
      expect(
        server
          .all<TestRunProgressParams>(PROGRESS)
          .filter((params) => params.message.type === "passed")
          .map((params) => params.runId),
      ).toEqual(["r1", "r2"]);
    },
    SLOW,
  );

  test(
    "closing a document cancels its run: its worker is killed, its diagnostics are cleared, nothing is published after",
    async () => {
      await start();
      const uri = await openVirtual("never", NEVER_ENDS);
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
    },
    SLOW,
  );

  test(
    "a run the explorer cancels ends, and its worker is killed",
    async () => {
      const { uri, enqueued } = await startExplorerRun("virtual-cancel.test.ts", NEVER_ENDS);
      expect(enqueued).toEqual([`${uri}#never%20ends`]);
      const busy = [...server.workers];
      await server.client.sendNotification("turnlens/cancelTestRun", { runId: "r1" });
      const end = await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.runId === "r1" && params.message.type === "end");
      expect(end).toEqual({ runId: "r1", message: { type: "end" } });
      expect(await Promise.race(busy.map(exited))).toBe("SIGKILL");
    },
    SLOW,
  );

  test(
    "static diagnostics come before any run, and in manual mode only a command runs the tests",
    async () => {
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
    },
    SLOW,
  );

  test(
    "in onSave mode an edit refreshes only the static diagnostics and a save runs the tests",
    async () => {
      await start({ initializationOptions: { settings: { runMode: "onSave" } } });
      const { text } = mistake("turn-past-list");
      const uri = await openVirtual("save", text);
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
    },
    SLOW,
  );

  test(
    "in an untrusted workspace no user code runs and static diagnostics still work, until trust is granted",
    async () => {
      await start({ initializationOptions: { workspaceTrusted: false } });
      const { path, text } = mistake("misspelled-option");
      const uri = await server.open(path, text);
      await server.advance(300);
      await server.flush();
      // Published on open; the debounce that starts no run publishes nothing new.
      expect(publishes(uri).map((params) => params.diagnostics.map((diagnostic) => diagnostic.code))).toEqual([["unknown-option"]]);
      const refused = await server.request<{ refused?: string }>("turnlens/runTests", { runId: "r1", include: [uri] });
      expect(refused.refused).toBe("the workspace is not trusted, so Turnlens runs no tests");
      expect(server.workers).toHaveLength(0);
      const from = server.received.length;
      await server.client.sendNotification("turnlens/workspaceTrust", { trusted: true });
      await server.advance(300);
      await server.runEnded(uri, from);
      expect(server.workers.length).toBeGreaterThan(0);
    },
    SLOW,
  );

  test(
    "a run longer than 300 ms shows work-done progress until it ends",
    async () => {
      await start();
      const uri = await openVirtual("progress", slowFile(300));
      await server.advance(300);
      await started(uri);
      server.timer.advance(300);
      const begin = await server.waitFor<{ value: { kind: string; title?: string; message?: string } }>("$/progress", (params) => params.value.kind === "begin");
      expect(begin.value).toMatchObject({ kind: "begin", title: "Turnlens", message: "running virtual-progress.test.ts" });
      expect(server.requests.filter((request) => request.method === "window/workDoneProgress/create")).toHaveLength(1);
      await server.waitFor<{ value: { kind: string } }>("$/progress", (params) => params.value.kind === "end");
    },
    SLOW,
  );

  test(
    "a run shorter than 300 ms shows no progress",
    async () => {
      await startAndRunPastList();
      server.timer.advance(1000);
      await server.flush();
      expect(server.requests.filter((request) => request.method === "window/workDoneProgress/create")).toHaveLength(0);
    },
    SLOW,
  );

  test(
    "settings from workspace/configuration turn inlay hints off and set the severity of entries never reached",
    async () => {
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
      const hints = await server.request<unknown[]>("textDocument/inlayHint", {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } },
      });
      expect(hints).toEqual([]);
      expect((await server.changeAndRun(uri, `${mistake("entry-never-reached").text}\n`, 50))?.version).toBe(2);
    },
    SLOW,
  );

  test(
    "a shutdown kills every worker process the server started",
    async () => {
      await startAndRunPastList();
      expect(server.workers.length).toBeGreaterThan(0);
      await server.request("shutdown", null);
      const signals = await Promise.all(server.workers.map(exited));
      expect(signals.every((signal) => signal === "SIGKILL")).toBe(true);
    },
    SLOW,
  );

  test(
    "a handler that fails answers with an error and the server keeps answering",
    async () => {
      await start();
      await expect(server.request("workspace/executeCommand", { command: "turnlens.nope", arguments: [] })).rejects.toThrow(
        "turnlens: executeCommand failed: unknown command turnlens.nope",
      );
      await expect(server.request("workspace/executeCommand", { command: "turnlens.runTest", arguments: [] })).rejects.toThrow("turnlens.runTest takes [uri, path]");
      await server.flush();
    },
    SLOW,
  );
});
