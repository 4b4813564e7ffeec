// The bundled server (`node dist/server.js --stdio`) takes its whole tree with it however it ends:
// killed, sent SIGTERM, told `exit` without `shutdown`, or its stdin closed, even a moment after a
// worker started. Each check counts the processes carrying the server's tag in their environment
// (inherited by every descendant, detached or re-parented ones too).
import { describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createMessageConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from "vscode-languageserver-protocol/node";
import { TREE_VARIABLE, withTag } from "../../core/runner/processTree.ts";
import { freshTag, taggedCommands, until } from "../runner/harness.ts";
import { MISTAKES, ROOT, SLOW } from "./harness.ts";

const SPINS = ['import { test } from "bun:test";', 'import { spawn } from "node:child_process";', "", 'test("spawns and spins", () => {', '  spawn("sleep", ["305"], { detached: true, stdio: "ignore" }).unref();', "  for (;;) {}", "});", ""].join("\n");

interface Started {
  child: ChildProcess;
  connection: MessageConnection;
  exited: Promise<NodeJS.Signals | number | null>;
}

async function startServer(tag: string): Promise<Started> {
  const child = spawn(process.execPath, [join(ROOT, "dist", "server.js"), "--stdio"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, [TREE_VARIABLE]: withTag(process.env[TREE_VARIABLE], tag) },
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.onError(() => {});
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: pathToFileURL(ROOT).href, capabilities: {}, initializationOptions: { settings: { debounceMs: 0, testTimeout: 600_000 } } });
  await connection.sendNotification(InitializedNotification.type, {});
  return { child, connection, exited };
}

async function openSpinning(server: Started, name: string): Promise<void> {
  const uri = pathToFileURL(join(MISTAKES, `virtual-${name}.test.ts`)).href;
  await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "typescript", version: 1, text: SPINS } });
}

const spinning = (tag: string) => taggedCommands(tag).some((command) => command.startsWith("sleep 305"));
const workers = (tag: string) => taggedCommands(tag).filter((command) => command.includes("worker.mjs")).length;

describe("nothing outlives the language server", () => {
  test("killing the server mid-loop leaves no process of its tree", async () => {
    const tag = freshTag();
    const server = await startServer(tag);
    await openSpinning(server, "sigkill");
    await until(() => spinning(tag));
    server.child.kill("SIGKILL");
    expect(await server.exited).toBe("SIGKILL");
    await until(() => taggedCommands(tag).length === 0);
    expect(taggedCommands(tag)).toEqual([]);
  }, SLOW);

  test("SIGTERM to the server mid-loop ends it with 143 and leaves no process of its tree", async () => {
    const tag = freshTag();
    const server = await startServer(tag);
    await openSpinning(server, "sigterm");
    await until(() => spinning(tag));
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(143);
    await until(() => taggedCommands(tag).length === 0);
    expect(taggedCommands(tag)).toEqual([]);
  }, SLOW);

  test("`exit` without `shutdown` a moment after a worker started leaves no process of its tree", async () => {
    const tag = freshTag();
    const server = await startServer(tag);
    await openSpinning(server, "exit");
    await until(() => workers(tag) > 0);
    await server.connection.sendNotification(ExitNotification.type);
    expect(await server.exited).toBe(1);
    await until(() => taggedCommands(tag).length === 0);
    expect(taggedCommands(tag)).toEqual([]);
    server.connection.dispose();
  }, SLOW);

  test("closing the server's stdin a moment after a worker started leaves no process of its tree", async () => {
    const tag = freshTag();
    const server = await startServer(tag);
    await openSpinning(server, "stdin");
    await until(() => workers(tag) > 0);
    server.child.stdin!.end();
    expect(await server.exited).toBe(1);
    await until(() => taggedCommands(tag).length === 0);
    expect(taggedCommands(tag)).toEqual([]);
    server.connection.dispose();
  }, SLOW);
});
