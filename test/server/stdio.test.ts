// One smoke test of the bundle: `node dist/server.js --stdio` as an editor starts it, to catch
// bundling mistakes the in-memory tests cannot see (real timers, real worker path).
import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createMessageConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { PROTOCOL_VERSION } from "../../server/protocol.ts";
import { MISTAKES, ROOT, SLOW } from "./harness.ts";

test("the bundled server runs a file's tests over stdio and exits cleanly after shutdown", async () => {
  const child = spawn(process.execPath, [join(ROOT, "dist", "server.js"), "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const path = join(MISTAKES, "turn-past-list.test.ts");
  const uri = pathToFileURL(path).href;
  const withRunDiagnostics = new Promise<PublishDiagnosticsParams>((resolve) =>
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      if (params.uri === uri && params.diagnostics.length > 0) resolve(params);
    }),
  );
  connection.listen();
  const initialized = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(ROOT).href,
    capabilities: {},
    initializationOptions: { settings: { debounceMs: 0 } },
  });
  expect(initialized.serverInfo).toEqual({ name: "turnlens", version: JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version });
  expect((initialized.capabilities.experimental as { turnlens?: { protocol?: number } } | undefined)?.turnlens?.protocol).toBe(PROTOCOL_VERSION);
  await connection.sendNotification(InitializedNotification.type, {});
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "typescript", version: 1, text: readFileSync(path, "utf8") },
  });
  const diagnostics = await withRunDiagnostics;
  expect(diagnostics.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message])).toEqual([
    ["list-exhausted", 'agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.'],
  ]);
  await connection.sendRequest(ShutdownRequest.type);
  await connection.sendNotification(ExitNotification.type);
  expect(await exited).toBe(0);
  connection.dispose();
}, SLOW);
