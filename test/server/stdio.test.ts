// Smoke tests of the bundle: `node dist/server.js --stdio` as an editor starts it, and the package's
// command `turnlens lsp` over each transport its help lists (--stdio, --node-ipc, --socket, --pipe), to catch bundling and dispatch mistakes the in-memory
// tests cannot see (real timers, real worker path).
import { expect, test } from "bun:test";
import { fork, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createMessageConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  IPCMessageReader,
  IPCMessageWriter,
  type MessageConnection,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  SocketMessageReader,
  SocketMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { PROTOCOL_VERSION } from "../../server/protocol.ts";
import { MISTAKES, ROOT, SLOW } from "./harness.ts";

const BIN = join(ROOT, "bin", "turnlens.mjs");

/** Opens a mistake over `connection` to the server `child`, checks its run's diagnostic, then shuts down. */
async function runsAFileThenExits(child: ChildProcess, connection: MessageConnection): Promise<void> {
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
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
}

for (const [name, args] of [
  ["the bundled server runs a file's tests over stdio and exits cleanly after shutdown", [join(ROOT, "dist", "server.js"), "--stdio"]],
  ["`turnlens lsp --stdio` is that server", [BIN, "lsp", "--stdio"]],
] as const) {
  test(
    name,
    async () => {
      const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
      await runsAFileThenExits(child, createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin)));
    },
    SLOW,
  );
}

test(
  "`turnlens lsp --node-ipc` serves over the IPC channel of a client that forks it",
  async () => {
    const child = fork(BIN, ["lsp", "--node-ipc"], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
    await runsAFileThenExits(child, createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child)));
  },
  SLOW,
);

/** Listens where `turnlens lsp <transport>` connects (a TCP port, or a Unix socket at `path`), starts it, and runs a file over the connection it makes. */
async function servesWhereTheClientListens(transport: (where: string) => string, path?: string): Promise<void> {
  const server = createServer();
  const connected = new Promise<Socket>((resolve) => server.once("connection", resolve));
  await new Promise<void>((resolve) => (path ? server.listen(path, resolve) : server.listen(0, "127.0.0.1", resolve)));
  const address = server.address();
  const where = path ?? String(typeof address === "object" && address ? address.port : address);
  const child = spawn(process.execPath, [BIN, "lsp", transport(where)], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    const socket = await connected;
    await runsAFileThenExits(child, createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket)));
  } finally {
    child.kill();
    server.close();
  }
}

test("`turnlens lsp --socket=<port>` connects to the port its client listens on and serves there", () => servesWhereTheClientListens((port) => `--socket=${port}`), SLOW);

test(
  "`turnlens lsp --pipe=<path>` connects to the Unix socket its client listens on and serves there",
  async () => {
    const folder = mkdtempSync(join(tmpdir(), "turnlens-pipe-"));
    try {
      await servesWhereTheClientListens((path) => `--pipe=${path}`, join(folder, "lsp.sock"));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
  SLOW,
);

test(
  "`turnlens lsp` without a transport, or with a port that is no number, says what to give and exits 2; the CLI's help lists it",
  () => {
    const bare = spawnSync(process.execPath, [BIN, "lsp"], { encoding: "utf8" });
    expect(bare.status).toBe(2);
    expect(bare.stderr.split("\n")[0]).toBe("turnlens lsp needs a transport: --stdio, --node-ipc, --socket=<port> or --pipe=<path>");
    expect(bare.stdout).toBe("");
    const noPort = spawnSync(process.execPath, [BIN, "lsp", "--socket=abc"], { encoding: "utf8" });
    expect({ status: noPort.status, first: noPort.stderr.split("\n")[0] }).toEqual({
      status: 2,
      first: 'turnlens lsp --socket needs the port the client listens on, such as --socket=6009, not "abc"',
    });
    const usage = spawnSync(process.execPath, [BIN, "lsp", "--help"], { encoding: "utf8" });
    // Each transport the usage line names has its line.
    const named = /^Usage: turnlens lsp (.*)$/m.exec(usage.stdout)?.[1]?.split(" | ") ?? [];
    expect(named).toEqual(["--stdio", "--node-ipc", "--socket=<port>", "--pipe=<path>"]);
    expect(named.filter((flag) => !new RegExp(`^  ${flag.replace(/[<>=-]/g, "\\$&")}\\s`, "m").test(usage.stdout))).toEqual([]);
    const help = spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("turnlens lsp --stdio (or --node-ipc) starts the language server for an editor");
  },
  SLOW,
);

test(
  "an error no handler caught in the server process is logged, and the server goes on to run a file's tests",
  async () => {
    // A stray throw and a stray rejection, raised in the server process itself once it has loaded
    // (the preload waits for the server's own handler), before it is asked anything.
    const preload = [
      "const raise = () => {",
      "  if (process.listenerCount('uncaughtException') === 0) return void setTimeout(raise, 5);",
      "  setTimeout(() => { throw new Error('a stray server error'); }, 0);",
      "  setTimeout(() => { Promise.reject(new Error('a stray rejection')); }, 0);",
      "};",
      "raise();",
    ].join(" ");
    const child = spawn(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(preload)}`, join(ROOT, "dist", "server.js"), "--stdio"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const logged: string[] = [];
    const bothLogged = new Promise<void>((resolve) =>
      connection.onNotification("window/logMessage", (params: { message: string }) => {
        logged.push(params.message.split("\n")[0]!);
        if (logged.some((line) => line.includes("stray server error")) && logged.some((line) => line.includes("stray rejection"))) resolve();
      }),
    );
    await runsAFileThenExits(child, connection);
    await bothLogged;
    expect(logged.filter((line) => line.includes("stray"))).toEqual([
      "uncaught error (the server goes on): Error: a stray server error",
      "unhandled rejection (the server goes on): Error: a stray rejection",
    ]);
  },
  SLOW,
);

test(
  "a server that exits right after initialize leaves its code cache in place of an older build's, and the next start loads through it without writing it again",
  async () => {
    // A temp folder of its own: the cache lives in `<tmpdir>/turnlens-code-cache-<uid>/`.
    const temp = mkdtempSync(join(tmpdir(), "turnlens-code-cache-test-"));
    const startAndExit = async () => {
      const child = spawn(process.execPath, [join(ROOT, "dist", "server.js"), "--stdio"], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TMPDIR: temp } });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
      connection.listen();
      await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(ROOT).href, capabilities: {} });
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      expect(await exited).toBe(0);
      connection.dispose();
    };
    try {
      // An earlier build's cache of the same file, and another file's cache.
      const folder = join(temp, `turnlens-code-cache-${process.getuid?.()}`);
      mkdirSync(folder, { mode: 0o700 });
      const fileKey = createHash("sha256")
        .update(join(ROOT, "dist", "serverMain.js"))
        .digest("hex")
        .slice(0, 16);
      writeFileSync(join(folder, `${fileKey}-0000000000000000.bin`), "an older build's");
      writeFileSync(join(folder, "ffffffffffffffff-0000000000000000.bin"), "another file's");
      await startAndExit();
      // The older build's cache is replaced; another file's is left alone (the server's worker may
      // have written its own, dist/workerMain.js's, beside them).
      const written = readdirSync(folder).filter((name) => name.startsWith(`${fileKey}-`));
      expect(written).toHaveLength(1);
      expect(written[0]).toMatch(/^[0-9a-f]{16}-[0-9a-f]{16}\.bin$/);
      expect(written[0]).not.toBe(`${fileKey}-0000000000000000.bin`);
      expect(readdirSync(folder)).toEqual(expect.arrayContaining([written[0], "ffffffffffffffff-0000000000000000.bin"]));
      const file = join(folder, written[0] ?? "");
      const before = statSync(file);
      await startAndExit();
      // V8 accepted it (a rejected cache is written again as the server exits).
      expect(readdirSync(folder).filter((name) => name.startsWith(`${fileKey}-`))).toEqual(written);
      expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
      expect(statSync(file).ino).toBe(before.ino);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  },
  SLOW,
);
