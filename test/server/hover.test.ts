// Hovers: on an entry no turn reached, one line saying why (how many turns its agent was asked,
// how many entries its list has), then what the list did meet; the hover a client without markdown
// gets (the same lines, no `**`, backticks or `>`); and, while a run is pending after an edit, the
// last run's hovers, found through the span the edit changed (as the stale hints are), their first
// line ending with ` …` and a line saying they are from before the last edit, until the new run's
// replace them, once the hover's wait for the pending run (`hoverWaitMs`) is over; a hover sent right
// after an edit answers with the new run's turn when that run comes within the wait. Over the real
// protocol connection, with the manual timer.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Hover, MarkupContent, Position } from "vscode-languageserver-protocol";
import { STALE_TOOLTIP } from "../../server/views/carriedHints.ts";
import { defaultSettings } from "../../server/settings.ts";
import { parseFixture } from "./check/annotations.ts";
import { fixtureTests, serverForFile } from "./check/fixtureTests.ts";
import { EDITOR_CAPABILITIES, MANUAL_RUNS, MISTAKES, SLOW, TestServer } from "./harness.ts";

const markdownServer = serverForFile();
// As eglot without markdown-mode asks: hovers in plain text only.
const plainServer = serverForFile({
  capabilities: { ...EDITOR_CAPABILITIES, textDocument: { ...EDITOR_CAPABILITIES.textDocument, hover: { contentFormat: ["plaintext"] } } },
});

/** A writer asked once whose list has two entries; the stale hovers below are this file's, edited. */
const WRITER_ASKED_ONCE = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a writer asked once", async () => {
  await testWorkflow(note, {
    agents: {
      writer: [
        answer(NOTE, { title: "Release 2.1" }),
        answer(NOTE, { title: "Release 2.2" }),
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: **Never reached**: writer was asked 1 turn, and its script has 2 entries.
//      |
//      | Turn 1 met entry 1 (line 9).
//      |
//      | *in test \`a writer asked once\`*
      ],
    },
  });
});
`;

fixtureTests(markdownServer, [
  {
    name: "hovering an entry never reached says why no turn reached it and which entry each turn met",
    path: join(MISTAKES, "virtual-never-reached-hover.test.ts"),
    checks: ["hovers"],
    fixture: WRITER_ASKED_ONCE,
  },
]);

fixtureTests(plainServer, [
  {
    name: "a client without markdown gets the hover as plain text: its first line the answer, no marks",
    path: join(MISTAKES, "virtual-plain-hover.test.ts"),
    checks: ["hovers"],
    fixture: `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a plain writer", async () => {
  await testWorkflow(note, { agents: { writer: [answer(NOTE, { title: "Release 2.1" }), answer(NOTE, { title: "Release 2.2" })] } });
//                                                                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Never reached: writer was asked 1 turn, and its script has 2 entries.
//                                                                                      |
//                                                                                      | Turn 1 met entry 1 (line 6).
//                                                                                      |
//                                                                                      | in test a plain writer
});
`,
    also: async (opened) => {
      const { start } = opened.fixture.annotations[0]?.range ?? { start: { line: 0, character: 0 } };
      const answered = await opened.server.request<{ contents: { kind: string; value: string } } | null>("textDocument/hover", {
        textDocument: { uri: opened.uri },
        position: { line: start.line, character: 50 },
      });
      expect(answered?.contents.kind).toBe("plaintext");
      expect(answered?.contents.value.split("\n")[0]).toBe("Turnlens · writer · turn 1 answered");
      expect(answered?.contents.value).not.toMatch(/[`>*]|---/);
    },
  },
]);

describe("stale hovers while a run is pending", () => {
  let server: TestServer;
  afterEach(() => server.dispose());

  const TEXT = parseFixture(WRITER_ASKED_ONCE).text;
  /** The entry turn 1 met, and the one no turn reached (0-based lines). */
  const MET_LINE = 8;
  const NEVER_LINE = 9;
  const COLUMN = 10;

  const FRESH_MET = "Turnlens · **writer · turn 1 answered**";
  const neverReached = (metLine: number) =>
    [
      "**Never reached**: writer was asked 1 turn, and its script has 2 entries.",
      "",
      `Turn 1 met entry 1 (line ${metLine + 1}).`,
      "",
      "*in test `a writer asked once`*",
    ].join("\n");

  async function hoverAt(uri: string, position: Position): Promise<{ value: string; startLine: number } | null> {
    const hover = await server.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position });
    if (!hover) return null;
    return { value: (hover.contents as MarkupContent).value, startLine: hover.range?.start.line ?? -1 };
  }

  /** A server in manual run mode, its module's `server`, that ran the tests of `text` opened at `path`; the uri. */
  async function ranManually(path: string, text: string): Promise<string> {
    server = await TestServer.started(MANUAL_RUNS);
    return server.openAndRunTests(path, text);
  }

  /** A hover's markdown as a carried one reads: its first line marked, why it is stale below it. */
  function stale(markdown: string): string {
    const [first, ...rest] = markdown.split("\n");
    return [`${first} …`, "", `*${STALE_TOOLTIP}*`, ...rest].join("\n");
  }

  test(
    "after an edit the hovers show the last run's results marked as from before the edit, moved with their text, until the new run's replace them",
    async () => {
      // Hovers that wait for no run: each answers at once with what it has.
      server = await TestServer.started({ initializationOptions: { settings: { hoverWaitMs: 0 } } });
      const { uri } = await server.openAndRun(join(MISTAKES, "virtual-stale-hover.test.ts"), TEXT);
      const met = await hoverAt(uri, { line: MET_LINE, character: COLUMN });
      expect(met?.value.split("\n")[0]).toBe(FRESH_MET);
      expect(met?.startLine).toBe(MET_LINE);
      expect(await hoverAt(uri, { line: NEVER_LINE, character: COLUMN })).toEqual({ value: neverReached(MET_LINE), startLine: NEVER_LINE });

      // Two lines above the test: its run waits for the debounce; the hovers are the last run's, two lines down.
      const edited = `// one\n// two\n${TEXT}`;
      const from = server.received.length;
      await server.change(uri, edited);
      expect(await hoverAt(uri, { line: MET_LINE + 2, character: COLUMN })).toEqual({ value: stale(met?.value ?? ""), startLine: MET_LINE + 2 });
      // The line it names is where that entry is now, not where it was.
      expect(await hoverAt(uri, { line: NEVER_LINE + 2, character: COLUMN })).toEqual({ value: stale(neverReached(MET_LINE + 2)), startLine: NEVER_LINE + 2 });
      // What the edit wrote has no result of the last run.
      expect(await hoverAt(uri, { line: 1, character: 3 })).toBeNull();

      await server.advance(defaultSettings.debounceMs);
      expect((await server.runEnded(uri, from))?.version).toBe(2);
      expect(await hoverAt(uri, { line: MET_LINE + 2, character: COLUMN })).toEqual({ value: met?.value ?? "", startLine: MET_LINE + 2 });
      expect(await hoverAt(uri, { line: NEVER_LINE + 2, character: COLUMN })).toEqual({ value: neverReached(MET_LINE + 2), startLine: NEVER_LINE + 2 });
    },
    SLOW,
  );

  test(
    "an edit no run follows (manual run mode) drops the last run's hovers, as it drops the carried hints",
    async () => {
      const uri = await ranManually(join(MISTAKES, "virtual-stale-hover-manual.test.ts"), TEXT);
      expect((await hoverAt(uri, { line: MET_LINE, character: COLUMN }))?.value.split("\n")[0]).toBe(FRESH_MET);
      await server.change(uri, `// one\n${TEXT}`);
      expect(await hoverAt(uri, { line: MET_LINE + 1, character: COLUMN })).toBeNull();
    },
    SLOW,
  );
});

describe("a hover while the file's run is pending waits for it, bounded", () => {
  let server: TestServer;
  afterEach(() => server.dispose());

  /** The writer's one entry, its title too short for NOTE (refused), then as the quick fix writes it. */
  const REFUSED = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a writer's note", async () => {
  await testWorkflow(note, {
    agents: {
      writer: answer(NOTE, { title: "v2" }),
    },
  });
});
`;
  const FIXED = REFUSED.replace('{ title: "v2" }', '{ title: "v2x" }');
  const ENTRY = { line: 7, character: 16 };

  async function hoverAt(uri: string, position: Position): Promise<string | null> {
    const hover = await server.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position });
    return hover ? (hover.contents as MarkupContent).value : null;
  }

  test(
    "a hover sent right after a quick fix's edit answers with the turn of the run that edit starts, not the run's before it",
    async () => {
      server = await TestServer.started();
      const { uri } = await server.openAndRun(join(MISTAKES, "virtual-hover-waits.test.ts"), REFUSED);
      const before = await hoverAt(uri, ENTRY);
      const from = server.received.length;
      await server.change(uri, FIXED);
      // Sent before the edit's debounce ends: the edit rewrote the entry, so no earlier result is at it.
      const hovered = hoverAt(uri, ENTRY);
      await server.advance(defaultSettings.debounceMs);
      const answered = await hovered;
      await server.runEnded(uri, from);
      const after = await hoverAt(uri, ENTRY);
      expect(answered).not.toBeNull();
      expect(answered).not.toBe(before);
      expect(answered).toBe(after);
      expect(answered).not.toContain(STALE_TOOLTIP);
    },
    SLOW,
  );

  test(
    "a run longer than the hover's wait: the hover answers when the wait ends, with the last run's results marked stale",
    async () => {
      server = await TestServer.started();
      const { uri } = await server.openAndRun(join(MISTAKES, "virtual-hover-bound.test.ts"), FIXED);
      const fresh = await hoverAt(uri, ENTRY);
      expect(fresh?.split("\n")[0]).toBe("Turnlens · **writer · turn 1 answered**");
      // The test now holds its run 4 s (real time); the entry moves down a line.
      const slow = FIXED.replace(
        'test("a writer\'s note", async () => {',
        'test("a writer\'s note", async () => {\n  await new Promise((resolve) => setTimeout(resolve, 4000));',
      );
      const from = server.received.length;
      await server.change(uri, slow);
      await server.advance(defaultSettings.debounceMs);
      await server.waitFor<{ uri: string; message: { type: string } }>(
        "turnlens/testRunProgress",
        (params) => params.uri === uri && params.message.type === "started",
        from,
      );
      const hovered = hoverAt(uri, { ...ENTRY, line: ENTRY.line + 1 });
      // The hover is waiting (a round trip after it); its wait ends on the manual timer.
      await server.flush();
      server.timer.advance(defaultSettings.hoverWaitMs);
      const answered = await hovered;
      const ended = server
        .all<{ uri: string; message: { type: string } }>("turnlens/testRunProgress", from)
        .filter((params) => params.uri === uri && params.message.type === "end");
      expect(ended).toEqual([]);
      expect(answered?.split("\n").slice(0, 3)).toEqual([`${fresh?.split("\n")[0]} …`, "", `*${STALE_TOOLTIP}*`]);
      await server.runEnded(uri, from);
    },
    SLOW,
  );
});
