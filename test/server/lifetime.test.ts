// The bundled server (`node dist/server.js --stdio`) takes its whole tree with it however it ends:
// killed, sent SIGTERM, told `exit` without `shutdown`, or its stdin closed, even a moment after a
// worker started. Each check counts the processes carrying the server's tag in their environment
// (inherited by every descendant, detached or re-parented ones too).
import { describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
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
import { TREE_VARIABLE, withTag } from "../../core/execution/processTree.ts";
import { freshTag, taggedCommands, until } from "../runner/harness.ts";
import { MISTAKES, ROOT, SLOW } from "./harness.ts";

const SPINS = [
  'import { test } from "bun:test";',
  'import { spawn } from "node:child_process";',
  "",
  'test("spawns and spins", () => {',
  '  spawn("sleep", ["305"], { detached: true, stdio: "ignore" }).unref();',
  "  for (;;) {}",
  "});",
  "",
].join("\n");

interface Started {
  child: ChildProcess;
  connection: MessageConnection;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** The LSP handshake: initialize with `initializationOptions`, then initialized. */
async function initialized(connection: MessageConnection, initializationOptions: object): Promise<void> {
  await connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: pathToFileURL(ROOT).href, capabilities: {}, initializationOptions });
  await connection.sendNotification(InitializedNotification.type, {});
}

/** Opens the TypeScript document `uri` holding `text`. */
async function openDocument(connection: MessageConnection, uri: string, text: string): Promise<void> {
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "typescript", version: 1, text } });
}

/** Initializes the server, opens a test file that fails, and resolves with the first diagnostics it publishes. */
async function diagnosticsOfAFailingFile(connection: MessageConnection): Promise<Array<{ code?: unknown }>> {
  const published = new Promise<Array<{ code?: unknown }>>((resolve) =>
    connection.onNotification("textDocument/publishDiagnostics", (params: { diagnostics: Array<{ code?: unknown }> }) => {
      if (params.diagnostics.length > 0) resolve(params.diagnostics);
    }),
  );
  await initialized(connection, {});
  const path = join(MISTAKES, "turn-past-list.test.ts");
  await openDocument(connection, pathToFileURL(path).href, readFileSync(path, "utf8"));
  return published;
}

async function startServer(tag: string, initializationOptions: object = { settings: { debounceMs: 0, testTimeout: 600_000 } }): Promise<Started> {
  const child = spawn(process.execPath, [join(ROOT, "dist", "server.js"), "--stdio"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, [TREE_VARIABLE]: withTag(process.env[TREE_VARIABLE], tag) },
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.onError(() => {});
  connection.listen();
  await initialized(connection, initializationOptions);
  return { child, connection, exited };
}

async function openSpinning(server: Started, name: string): Promise<void> {
  const uri = pathToFileURL(join(MISTAKES, `virtual-${name}.test.ts`)).href;
  await openDocument(server.connection, uri, SPINS);
}

const spinning = (tag: string) => taggedCommands(tag).some((command) => command.startsWith("sleep 305"));
const workers = (tag: string) => taggedCommands(tag).filter((command) => command.includes("worker.mjs")).length;

interface Ending {
  name: string;
  /** When to end it: once the looping test's child is up, or once a worker started. */
  when: (tag: string) => boolean;
  end: (server: Started) => void | Promise<void>;
  exit: NodeJS.Signals | number;
}

const endings: Ending[] = [
  { name: "killing the server mid-loop leaves no process of its tree", when: spinning, end: (server) => void server.child.kill("SIGKILL"), exit: "SIGKILL" },
  {
    name: "SIGTERM to the server mid-loop ends it with 143 and leaves no process of its tree",
    when: spinning,
    end: (server) => void server.child.kill("SIGTERM"),
    exit: 143,
  },
  {
    name: "`exit` without `shutdown` a moment after a worker started leaves no process of its tree",
    when: (tag) => workers(tag) > 0,
    end: (server) => server.connection.sendNotification(ExitNotification.type),
    exit: 1,
  },
  {
    name: "closing the server's stdin a moment after a worker started leaves no process of its tree",
    when: (tag) => workers(tag) > 0,
    end: (server) => void server.child.stdin!.end(),
    exit: 1,
  },
];

describe("nothing outlives the language server", () => {
  for (const ending of endings) {
    test(
      ending.name,
      async () => {
        const tag = freshTag();
        const server = await startServer(tag);
        await openSpinning(server, ending.name.split(" ")[0]!.replace(/\W/g, ""));
        await until(() => ending.when(tag));
        await ending.end(server);
        expect(await server.exited).toBe(ending.exit);
        await until(() => taggedCommands(tag).length === 0);
        expect(taggedCommands(tag)).toEqual([]);
        server.connection.dispose();
      },
      SLOW,
    );
  }
});

describe("the worker started before the server loads", () => {
  /** dist/server.js spawned with a fresh tag, once the worker it forks before loading the server is up (nothing sent yet). */
  async function spawned(env: Record<string, string> = {}): Promise<{ tag: string; child: ChildProcess; connection: MessageConnection }> {
    const tag = freshTag();
    const child = spawn(process.execPath, [join(ROOT, "dist", "server.js"), "--stdio"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...env, [TREE_VARIABLE]: withTag(process.env[TREE_VARIABLE], tag) },
    });
    await until(() => workers(tag) === 1);
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.onError(() => {});
    connection.listen();
    return { tag, child, connection };
  }

  async function shutDown({ child, connection }: { child: ChildProcess; connection: MessageConnection }): Promise<void> {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await connection.sendRequest("shutdown");
    await connection.sendNotification(ExitNotification.type);
    await exited;
    connection.dispose();
  }

  test(
    "an untrusted workspace has it killed at initialize, and no other starts",
    async () => {
      const server = await spawned();
      await server.connection.sendRequest(InitializeRequest.type, {
        processId: null,
        rootUri: pathToFileURL(ROOT).href,
        capabilities: {},
        initializationOptions: { workspaceTrusted: false },
      });
      await until(() => workers(server.tag) === 0);
      const uri = pathToFileURL(join(MISTAKES, "virtual-untrusted.test.ts")).href;
      await openDocument(server.connection, uri, SPINS);
      // A round trip: the open has been handled (and its debounce, 0 ms, has long passed).
      await server.connection.sendRequest("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 0 } });
      expect(workers(server.tag)).toBe(0);
      await shutDown(server);
    },
    SLOW,
  );

  test(
    "in a trusted workspace it runs the first document's tests, the only worker the server started",
    async () => {
      const server = await spawned();
      expect((await diagnosticsOfAFailingFile(server.connection)).map((diagnostic) => diagnostic.code)).toEqual(["list-exhausted"]);
      expect(workers(server.tag)).toBe(1);
      await shutDown(server);
    },
    SLOW,
  );

  test(
    "`shutdown` and `exit` after a run leave none of the server's temporary files: its user's temporary folder is empty",
    async () => {
      const temp = mkdtempSync(join(tmpdir(), "turnlens-server-temp-"));
      try {
        const server = await spawned({ TMPDIR: temp });
        // Once it publishes, the run has bundled the file and served its modules from the temporary folder.
        await diagnosticsOfAFailingFile(server.connection);
        await shutDown(server);
        // The V8 code cache (turnlens-code-cache-<uid>) is kept on purpose, between starts.
        const uid = process.getuid?.();
        expect(readdirSync(temp).filter((name) => !name.startsWith("turnlens-code-cache-"))).toEqual([`turnlens-${uid}`]);
        expect(readdirSync(join(temp, `turnlens-${uid}`))).toEqual([]);
      } finally {
        rmSync(temp, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
