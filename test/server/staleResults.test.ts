// Stale results kept while a run is pending: after an edit, the last run's inlay hints are carried
// to the edited text and marked stale, and the result lenses marked so, until the new run's replace them;
// a run cancelled by a newer edit leaves them shown, carried again; a workflow edit (the test's text
// unchanged) marks them stale too, so a lens is never an unmarked ✓ while the test's new result is ✗.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { CodeLens, InlayHint } from "vscode-languageserver-protocol";
import { STALE_TOOLTIP } from "../../server/views/carriedHints.ts";
import { defaultSettings } from "../../server/settings.ts";
import { MANUAL_RUNS, MISTAKES, SLOW, TestServer } from "./harness.ts";
import { RENAMED, summarizeProject } from "./fixtures/summarizeProject.ts";

let server: TestServer;
afterEach(() => server.dispose());

const TEXT = `import { test } from "bun:test";
import { noAnswer, testWorkflow } from "agentswf/testing";
import { note } from "./workflows";

test("a silent writer", async () => {
  await testWorkflow(note, { agents: { writer: noAnswer.silent() } });
});
`;
const HINT_LINE = 5;
const WORDS = "writer · turn 1 no answer, as scripted";
const everything = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };

/** A server in manual run mode, its module's `server`, that ran the tests of `text` opened at `path`; the uri. */
async function ranManually(path: string, text: string): Promise<string> {
  server = await TestServer.started(MANUAL_RUNS);
  return server.openAndRunTests(path, text);
}

function hints(uri: string): Promise<InlayHint[]> {
  return server.request<InlayHint[]>("textDocument/inlayHint", { textDocument: { uri }, range: everything });
}

function resultLenses(uri: string): Promise<string[]> {
  return server
    .request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri } })
    .then((lenses) => lenses.filter((lens) => lens.command?.command === "").map((lens) => lens.command?.title ?? ""));
}

test(
  "an edit keeps the last run's hint, moved to the edited text and marked stale, until the new run's fresh hint replaces it",
  async () => {
    server = await TestServer.started();
    const { uri } = await server.openAndRun(join(MISTAKES, "virtual-stale.test.ts"), TEXT);
    const lineLength = (TEXT.split("\n")[HINT_LINE] ?? "").length;
    expect(await hints(uri)).toEqual([{ position: { line: HINT_LINE, character: lineLength }, label: WORDS, paddingLeft: true }]);
    const [fresh] = await resultLenses(uri);
    expect(fresh).toMatch(/^✓ 2 turns · \d+ ms$/);

    // An edit above the hint's line: the run of the new text waits for its debounce.
    const edited = `// a new first line\n${TEXT}`;
    const from = server.received.length;
    await server.change(uri, edited);
    const stale = { position: { line: HINT_LINE + 1, character: lineLength }, label: `${WORDS} …`, paddingLeft: true, tooltip: STALE_TOOLTIP };
    expect(await hints(uri)).toEqual([stale]);
    expect(await resultLenses(uri)).toEqual([`${fresh} …`]);

    // A newer edit before that run: the stale hint is carried again, to where its line went.
    const again = `// a new first line\n// and a second\n${TEXT}`;
    await server.change(uri, again);
    expect(await hints(uri)).toEqual([{ ...stale, position: { line: HINT_LINE + 2, character: lineLength } }]);

    await server.advance(defaultSettings.debounceMs);
    expect((await server.runEnded(uri, from))?.version).toBe(3);
    expect(await hints(uri)).toEqual([{ position: { line: HINT_LINE + 2, character: lineLength }, label: WORDS, paddingLeft: true }]);
    expect((await resultLenses(uri)).map((title) => /^✓ 2 turns · \d+ ms$/.test(title))).toEqual([true]);
  },
  SLOW,
);

test(
  "an edit across the hint's line end drops that hint; an edit no run follows drops every carried one",
  async () => {
    const uri = await ranManually(join(MISTAKES, "virtual-stale-dropped.test.ts"), TEXT);
    expect((await hints(uri)).map((hint) => hint.label)).toEqual([WORDS]);
    // In manual mode no run follows a change: nothing stale is kept, as no carried diagnostic is.
    await server.change(uri, `// a new first line\n${TEXT}`);
    expect(await hints(uri)).toEqual([]);
  },
  SLOW,
);

test(
  "an edit that deletes the hint's line drops that hint while the new run is pending",
  async () => {
    server = await TestServer.started();
    const { uri } = await server.openAndRun(join(MISTAKES, "virtual-stale-deleted.test.ts"), TEXT);
    expect((await hints(uri)).map((hint) => hint.label)).toEqual([WORDS]);
    const lines = TEXT.split("\n");
    await server.change(uri, [...lines.slice(0, HINT_LINE), ...lines.slice(HINT_LINE + 1)].join("\n"));
    expect(await hints(uri)).toEqual([]);
  },
  SLOW,
);

test(
  "a run cancelled by a newer edit leaves the stale hint shown, carried again to the newer text",
  async () => {
    // A long test timeout: only the cancel ends the loop.
    server = await TestServer.started({ initializationOptions: { settings: { testTimeout: 600_000 } } });
    const { uri } = await server.openAndRun(join(MISTAKES, "virtual-stale-cancelled.test.ts"), TEXT);
    const lines = TEXT.split("\n");
    const lineLength = (lines[HINT_LINE] ?? "").length;
    // A test that loops, inserted above the hinted test (4 lines), then its loop deleted (1 line).
    const loop = "  for (;;) await new Promise((resolve) => setImmediate(resolve));";
    const inserted = ['test("loops until cancelled", async () => {', loop, "});", ""];
    const looping = [...lines.slice(0, 4), ...inserted, ...lines.slice(4)].join("\n");
    const from = server.received.length;
    await server.change(uri, looping);
    await server.advance(defaultSettings.debounceMs);
    await server.waitFor<{ uri: string; message: { type: string; test?: string } }>(
      "turnlens/testRunProgress",
      (params) => params.uri === uri && params.message.type === "started" && (params.message.test ?? "").endsWith("loops%20until%20cancelled"),
      from,
    );
    const stale = { position: { line: HINT_LINE + 4, character: lineLength }, label: `${WORDS} …`, paddingLeft: true, tooltip: STALE_TOOLTIP };
    expect(await hints(uri)).toEqual([stale]);
    // The newer edit cancels the looping run; the hint stays stale, carried to where its line went.
    const afterCancel = server.received.length;
    await server.change(uri, looping.replace(`${loop}\n`, ""));
    await server.waitFor<{ uri: string; message: { type: string } }>(
      "turnlens/testRunProgress",
      (params) => params.uri === uri && params.message.type === "end",
      afterCancel,
    );
    expect(await hints(uri)).toEqual([{ ...stale, position: { line: HINT_LINE + 3, character: lineLength } }]);
    const afterEnd = server.received.length;
    await server.advance(defaultSettings.debounceMs);
    expect((await server.runEnded(uri, afterEnd))?.version).toBe(3);
    expect(await hints(uri)).toEqual([{ position: { line: HINT_LINE + 3, character: lineLength }, label: WORDS, paddingLeft: true }]);
  },
  SLOW,
);

describe("a workflow edit makes the open test's results stale", () => {
  let dir: string;
  beforeEach(() => {
    ({ dir } = summarizeProject("turnlens-stale-inputs-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test(
    "after a breaking workflow edit the test's lens is never an unmarked ✓: it carries the stale mark, as its hints do, until the new run's ✗",
    async () => {
      server = await TestServer.started();
      const { uri } = await server.openAndRun(join(dir, "summarize.test.ts"));
      const [fresh] = await resultLenses(uri);
      expect(fresh).toMatch(/^✓ 1 turn · \d+ ms$/);
      const freshHints = (await hints(uri)).map((hint) => hint.label);
      expect(freshHints.length).toBeGreaterThan(0);

      const workflowUri = await server.open(join(dir, "workflow.ts"));
      await server.flush();
      const from = server.received.length;
      const requestsFrom = server.requests.length;
      // The agent renamed: the test's script for "reader" is never reached, so the test fails.
      await server.change(workflowUri, RENAMED);
      await server.flush();
      // The editor is asked to fetch the lenses and hints again at once, before the rerun starts:
      // it asks only for the edited document's own, so the test file's ✓ would stay drawn unmarked.
      expect([...new Set(server.requests.slice(requestsFrom).map((request) => request.method))].sort()).toEqual([
        "workspace/codeLens/refresh",
        "workspace/inlayHint/refresh",
      ]);
      // The test file's text did not change, but what its run read did: its results are stale.
      expect(await resultLenses(uri)).toEqual([`${fresh} …`]);
      expect((await hints(uri)).map((hint) => [hint.label, hint.tooltip])).toEqual(freshHints.map((label) => [`${label} …`, STALE_TOOLTIP]));

      // While the rerun goes, still stale.
      await server.advance(defaultSettings.debounceMs);
      await server.waitFor<{ uri: string; message: { type: string } }>(
        "turnlens/testRunProgress",
        (params) => params.uri === uri && params.message.type === "started",
        from,
      );
      // (The worker may finish the rerun before the lens is asked: then it is the ✗, never an unmarked ✓.)
      expect([[`${fresh} …`], ["✗ 1 problem"]]).toContainEqual(await resultLenses(uri));

      // The rerun's result: the diagnostics say the test failed, and so does its lens.
      const after = await server.runEnded(uri, from);
      expect((after?.diagnostics ?? []).map((diagnostic) => String(diagnostic.code))).toEqual(["agent-unscripted"]);
      expect(await resultLenses(uri)).toEqual(["✗ 1 problem"]);
    },
    SLOW,
  );

  test(
    "a second workflow edit, the lens already stale, asks the editor for no lens refresh: each refresh restarts VS Code's wait before it asks again",
    async () => {
      server = await TestServer.started();
      const { uri } = await server.openAndRun(join(dir, "summarize.test.ts"));
      const [fresh] = await resultLenses(uri);
      const workflowUri = await server.open(join(dir, "workflow.ts"));
      await server.flush();
      const refreshes = (from: number) => server.requests.slice(from).filter((request) => request.method === "workspace/codeLens/refresh").length;
      const first = server.requests.length;
      await server.change(workflowUri, RENAMED);
      await server.flush();
      expect(refreshes(first)).toBe(1);
      expect(await resultLenses(uri)).toEqual([`${fresh} …`]);
      // The same lens as drawn: stale. (No run yet: the debounce's timer has not moved.)
      const second = server.requests.length;
      await server.change(workflowUri, `${RENAMED}// and a comment\n`);
      await server.flush();
      expect(refreshes(second)).toBe(0);
      expect(await resultLenses(uri)).toEqual([`${fresh} …`]);
      // The rerun's ✗ changes it: refreshed.
      const third = server.requests.length;
      const ran = server.received.length;
      await server.advance(defaultSettings.debounceMs);
      await server.runEnded(uri, ran);
      expect(refreshes(third)).toBeGreaterThan(0);
      expect(await resultLenses(uri)).toEqual(["✗ 1 problem"]);
    },
    SLOW,
  );
});
