// A client that floods the server or breaks a frame (issue 24): a burst of edits, hovers and run
// commands read in one go is answered whole, with one static pass and one run for its last
// version instead of one per message; a frame announcing more than the cap, or one whose body a
// new header cuts short, is skipped with an error naming it, and the next request is answered.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { LogMessageParams, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { MAX_CONTENT_LENGTH } from "../../server/limits.ts";
import { Commands } from "../../server/protocol.ts";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { MISTAKES, mistake, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
afterEach(() => server.dispose());

const NOTHING = { textDocument: { uri: "file:///nothing.test.ts" }, position: { line: 0, character: 0 } };

describe("a flood of messages", () => {
  test(
    "a burst of 40 edits, 40 hovers and 40 run commands read in one go gets every request answered, one static pass at the first hover and one at the end, and one run, of the last version",
    async () => {
      server = await TestServer.started();
      const { text } = mistake("turn-past-list");
      const { uri } = await server.openAndRun(join(MISTAKES, "virtual-flood.test.ts"), text);
      const runs: Array<number | undefined> = [];
      server.server.scheduler.onDidStartRun.event((run) => runs.push(run.version));
      const from = server.received.length;
      const EDITS = 40;
      const messages: Array<{ id?: number; method: string; params: unknown }> = [];
      let id = 1000;
      for (let edit = 1; edit <= EDITS; edit++) {
        messages.push({ method: "textDocument/didChange", params: { textDocument: { uri, version: edit + 1 }, contentChanges: [{ text: `${text}// edit ${edit}\n` }] } });
        messages.push({ id: id++, method: "textDocument/hover", params: { textDocument: { uri }, position: { line: 0, character: 0 } } });
        messages.push({ id: id++, method: "workspace/executeCommand", params: { command: Commands.runFile, arguments: [uri] } });
      }
      const answers = await server.burst(messages);
      expect(answers.size).toBe(2 * EDITS);
      for (const message of messages) {
        if (message.id === undefined) continue;
        const answer = answers.get(message.id) as { result?: unknown } | undefined;
        if (message.method === "workspace/executeCommand") expect(answer?.result).toEqual({ started: true });
        else expect(answer?.result).toBeNull();
      }
      await server.flush();
      const last = EDITS + 1;
      // Forty commands asked for a run while edits went on: one run started, of the last version.
      expect(runs).toEqual([last]);
      const ended = await server.runEnded(uri, from);
      expect(ended?.version).toBe(last);
      expect(ended?.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      // The first hover did the pass of the text it was sent after (version 2); the rest of the
      // burst answered from it, and the pass of the last version came once the burst was read;
      // then the run's results, of the last version.
      expect(
        server
          .all<PublishDiagnosticsParams>("textDocument/publishDiagnostics", from)
          .filter((params) => params.uri === uri)
          .map((params) => params.version),
      ).toEqual([2, last, last]);
      expect(server.all<TestRunProgressParams>("turnlens/testRunProgress", from).filter((params) => params.uri === uri && params.message.type === "end")).toHaveLength(1);
    },
    SLOW,
  );
});

describe("frames a client breaks", () => {
  test(
    "a frame announcing 100 MB, above the 64 MiB cap, is skipped at once with an error naming both sizes, and the request after it is answered",
    async () => {
      server = await TestServer.started();
      expect(MAX_CONTENT_LENGTH).toBe(64 * 1024 * 1024);
      const from = server.received.length;
      // Its body never comes: the client's next frame follows at once.
      server.writeRaw(`Content-Length: 104857600\r\n\r\n{"jsonrpc":"2.0","id":"lost","method":"textDocument/hover"`);
      expect(await server.request("textDocument/hover", NOTHING)).toBeNull();
      const errors = server.all<LogMessageParams>("window/logMessage", from).filter((params) => params.message.includes("Content-Length"));
      expect(errors).toEqual([
        {
          type: 1,
          message: "skipped a message frame whose Content-Length is 104857600 bytes, above the cap of 67108864 bytes (64 MiB); reading on from the next header",
        },
      ]);
      expect(await server.request("textDocument/hover", NOTHING)).toBeNull();
    },
    SLOW,
  );

  test(
    "a frame whose body is cut short by the next header is skipped with an error saying where, and the request in that next frame is answered",
    async () => {
      server = await TestServer.started();
      const from = server.received.length;
      // 1,000 bytes announced, 27 sent: the client's next frame (the hover) starts right after.
      server.writeRaw(`Content-Length: 1000\r\n\r\n{"jsonrpc":"2.0","id":"cut"`);
      expect(await server.request("textDocument/hover", NOTHING)).toBeNull();
      expect(server.all<LogMessageParams>("window/logMessage", from).filter((params) => params.message.startsWith("skipped"))).toEqual([
        {
          type: 1,
          message: "skipped a message frame whose body was cut short: it announced 1000 bytes, and a new header came after 27; reading on from that header",
        },
      ]);
    },
    SLOW,
  );
});
