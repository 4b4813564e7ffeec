// Drives startServer over a real JSON-RPC connection made of crossed in-memory streams, with a
// manual timer for the debounces (no sleeps: tests wait on the messages the server sends) and
// real worker processes forked from dist/worker.mjs.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  createMessageConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgress,
  type ClientCapabilities,
  type InitializeResult,
  type MessageConnection,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import type { InitializationOptions, TestRunProgressParams } from "../../server/protocol.ts";
import { forkWorker } from "../../core/execution/workerProcess.ts";
import { startServer, type Server } from "../../server/server.ts";
import { MessageBacklog } from "../../server/messageBacklog.ts";
import type { Timer } from "../../server/scheduler.ts";
import { HANG_GUARD_MS } from "../hangGuard.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
export const MISTAKES = join(ROOT, "examples", "mistakes");
const WORKER = join(ROOT, "dist", "worker.mjs");

/** Protocol tests start worker processes and wait for real runs: only a true hang ends them. */
export const SLOW = HANG_GUARD_MS;

/** A timer that only moves when a test says so. */
export class ManualTimer implements Timer {
  private now = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { due: number; callback: () => void }>();
  private waiters: Array<() => void> = [];

  setTimeout(callback: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { due: this.now + ms, callback });
    for (const wake of this.waiters.splice(0)) wake();
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pending(): number {
    return this.timers.size;
  }

  /** Resolves once some timer is pending. */
  whenPending(): Promise<void> {
    return this.timers.size > 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Moves time forward, firing every timer due by then in order (including ones they set). */
  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      let next: [number, { due: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].due <= target && (!next || entry[1].due < next[1].due)) next = entry;
      if (!next) break;
      this.timers.delete(next[0]);
      this.now = next[1].due;
      next[1].callback();
    }
    this.now = target;
  }
}

export interface StartOptions {
  initializationOptions?: InitializationOptions;
  capabilities?: ClientCapabilities;
  /** Answers `workspace/configuration`; also declares the capability. */
  configuration?: (section: string | undefined, scopeUri: string | undefined) => unknown;
  /** Node options of the worker processes. */
  workerExecArgv?: string[];
  /** Another worker script than dist/worker.mjs (a misbehaving one). */
  workerEntry?: string;
  /** Added to the workers' environment (a tag to count their processes by). */
  workerEnv?: Record<string, string>;
  /** When a warm worker is replaced. */
  workerRecycle?: { afterRuns: number; aboveRssBytes: number };
  /** The workspace's root folder (initialize's rootUri); the repo by default. */
  root?: string;
}

/** The client capabilities of an editor like VS Code: progress, refreshes, the test explorer. */
/** A server that runs nothing until the client asks (runMode "manual"). */
export const MANUAL_RUNS: StartOptions = { initializationOptions: { settings: { runMode: "manual" } } };

export const EDITOR_CAPABILITIES: ClientCapabilities = {
  window: { workDoneProgress: true },
  workspace: { codeLens: { refreshSupport: true }, inlayHint: { refreshSupport: true } },
  textDocument: { publishDiagnostics: { versionSupport: true } },
  experimental: { turnlens: { testExplorer: true } },
};

interface Received {
  method: string;
  params: unknown;
}

export class TestServer {
  readonly timer = new ManualTimer();
  readonly client: MessageConnection;
  readonly server: Server;
  /** Every worker process the server started, in order. */
  readonly workers: ChildProcess[] = [];
  /** Every notification the client received, in order. */
  readonly received: Received[] = [];
  private listeners: Array<() => void> = [];
  private readonly versions = new Map<string, number>();
  readonly requests: Array<{ method: string; params: unknown }> = [];

  /** The bytes the client writes to the server and the server to the client. */
  private readonly toServer = new PassThrough();
  private readonly toClient = new PassThrough();

  constructor(private readonly options: StartOptions = {}) {
    const { toServer, toClient } = this;
    const backlog = new MessageBacklog();
    const connection = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient), { messageStrategy: backlog });
    this.server = startServer(connection, {
      backlog,
      timer: this.timer,
      now: () => 0,
      workerGraceMs: 300,
      ...(options.workerRecycle ? { workerRecycle: options.workerRecycle } : {}),
      createWorker: () => {
        const child = forkWorker({
          entry: options.workerEntry ?? WORKER,
          execArgv: options.workerExecArgv ?? [],
          ...(options.workerEnv ? { env: options.workerEnv } : {}),
        });
        this.workers.push(child);
        return child;
      },
    });
    this.client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    this.client.onNotification((method: string, params: unknown) => this.notify(method, params));
    this.client.onRequest((method: string, params: unknown) => {
      this.requests.push({ method, params });
      if (method === "window/workDoneProgress/create") {
        // jsonrpc hands `$/progress` only to a handler registered for its token.
        const token = (params as { token: string | number }).token;
        this.client.onProgress(WorkDoneProgress.type, token, (value) => this.notify("$/progress", { token, value }));
      }
      if (method === "workspace/configuration") {
        const items = (params as { items: Array<{ section?: string; scopeUri?: string }> }).items;
        return items.map((item) => options.configuration?.(item.section, item.scopeUri) ?? null);
      }
      return null;
    });
    this.client.listen();
  }

  private notify(method: string, params: unknown): void {
    this.received.push({ method, params });
    for (const listener of this.listeners.splice(0)) listener();
  }

  /** A server, initialized. */
  static async started(options: StartOptions = {}): Promise<TestServer> {
    const server = new TestServer(options);
    await server.initialize();
    return server;
  }

  async initialize(): Promise<InitializeResult> {
    const capabilities: ClientCapabilities = { ...(this.options.capabilities ?? EDITOR_CAPABILITIES) };
    if (this.options.configuration) capabilities.workspace = { ...capabilities.workspace, configuration: true };
    const result = await this.client.sendRequest(InitializeRequest.type, {
      processId: null,
      rootUri: pathToFileURL(this.options.root ?? ROOT).href,
      capabilities,
      initializationOptions: this.options.initializationOptions ?? {},
    });
    await this.client.sendNotification(InitializedNotification.type, {});
    return result;
  }

  /** Opens a file of the repo with its text on disk, or any (even missing) path with `text`. */
  async open(path: string, text?: string): Promise<string> {
    const uri = pathToFileURL(path).href;
    this.versions.set(uri, 1);
    await this.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "typescript", version: 1, text: text ?? readFileSync(path, "utf8") },
    });
    return uri;
  }

  /** Replaces the whole text; returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.client.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  async save(uri: string): Promise<void> {
    await this.client.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  async close(uri: string): Promise<void> {
    await this.client.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Writes bytes to the server as they are, beside the client's own frames (a broken or flooding client). */
  writeRaw(bytes: string): void {
    this.toServer.write(bytes);
  }

  /**
   * Writes `messages` to the server in one write, framed, as a client flooding it does (the server
   * reads them all before it handles the first), and resolves with the answer to each request
   * among them (those with an `id`), by id, once every one came.
   */
  async burst(messages: Array<{ id?: number; method: string; params?: unknown }>): Promise<Map<number, { result?: unknown; error?: unknown }>> {
    const wanted = new Set(messages.flatMap((message) => (message.id === undefined ? [] : [message.id])));
    const answers = new Map<number, { result?: unknown; error?: unknown }>();
    let buffered = Buffer.alloc(0);
    const done = new Promise<void>((resolve) => {
      const read = (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        for (;;) {
          const headerEnd = buffered.indexOf("\r\n\r\n");
          if (headerEnd < 0) break;
          const length = Number(/content-length: *(\d+)/i.exec(buffered.subarray(0, headerEnd).toString("latin1"))?.[1]);
          if (buffered.length < headerEnd + 4 + length) break;
          const message = JSON.parse(buffered.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8")) as { id?: unknown; result?: unknown; error?: unknown };
          buffered = buffered.subarray(headerEnd + 4 + length);
          if (typeof message.id === "number" && wanted.has(message.id) && ("result" in message || "error" in message)) answers.set(message.id, message);
        }
        if (answers.size === wanted.size) {
          this.toClient.off("data", read);
          resolve();
        }
      };
      this.toClient.on("data", read);
    });
    const frames = messages.map((message) => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
      return `Content-Length: ${body.length}\r\n\r\n${body.toString("utf8")}`;
    });
    this.toServer.write(frames.join(""));
    await done;
    return answers;
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.client.sendRequest(method, params) as Promise<R>;
  }

  /**
   * A round trip: every message sent before it has been handled when it returns, and the work
   * they left waiting for the end of the burst (static passes, debounce ends, run starts) is done.
   */
  async flush(): Promise<void> {
    const roundTrip = () => this.client.sendRequest("textDocument/hover", { textDocument: { uri: "file:///nothing.test.ts" }, position: { line: 0, character: 0 } });
    await roundTrip();
    await this.server.backlog.settled();
    // What that work sent (diagnostics, progress) has arrived once a later answer did.
    await roundTrip();
  }

  /** Lets the server see what was sent, then moves the manual timer forward (firing debounces). */
  async advance(ms: number): Promise<void> {
    await this.flush();
    this.timer.advance(ms);
  }

  /**
   * The first notification from `from` on (an index into `received`) that matches, waiting for it
   * as long as it takes: a loaded machine is slow, and only the test's hang guard ends a true hang.
   */
  async waitFor<P>(method: string, matches: (params: P) => boolean = () => true, from = 0): Promise<P> {
    for (let index = from; ; ) {
      for (; index < this.received.length; index++) {
        const message = this.received[index]!;
        if (message.method === method && matches(message.params as P)) return message.params as P;
      }
      await new Promise<void>((resolve) => this.listeners.push(resolve));
    }
  }

  /** Every notification of `method` received so far (from index `from`). */
  all<P>(method: string, from = 0): P[] {
    return this.received
      .slice(from)
      .filter((message) => message.method === method)
      .map((message) => message.params as P);
  }

  /** Waits for the end of the next background run of `uri` (from `from` on), then returns the last diagnostics published for it. */
  async runEnded(uri: string, from = 0): Promise<PublishDiagnosticsParams | undefined> {
    await this.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.uri === uri && params.message.type === "end", from);
    return this.all<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method)
      .filter((params) => params.uri === uri)
      .at(-1);
  }

  /**
   * Asks for the run `runId` (as the client's Run button does: `params` are its include and
   * exclude), waits for its end and returns the request's answer.
   */
  async runTests<R = unknown>(runId: string, params: { include: string[]; exclude?: string[] }): Promise<R> {
    const from = this.received.length;
    const answer = await this.request<R>("turnlens/runTests", { runId, ...params });
    await this.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (progress) => progress.runId === runId && progress.message.type === "end", from);
    return answer;
  }

  /**
   * Replaces `uri`'s text, moves the timer past the debounce (`ms`) and waits for the run that
   * follows (of `runOf`, `uri` by default); returns the last diagnostics published for `runOf`.
   */
  async changeAndRun(uri: string, text: string, ms = 300, runOf = uri): Promise<PublishDiagnosticsParams | undefined> {
    const from = this.received.length;
    await this.change(uri, text);
    await this.advance(ms);
    return this.runEnded(runOf, from);
  }

  /** Opens `path` with `text` and runs its tests as the client's Run button does (run "r1"), to the run's end. */
  async openAndRunTests(path: string, text: string): Promise<string> {
    const uri = await this.open(path, text);
    await this.runTests("r1", { include: [uri] });
    return uri;
  }

  /** Opens a file and lets its first run go (the open's debounce), returning its diagnostics after the run. */
  async openAndRun(path: string, text?: string): Promise<{ uri: string; diagnostics: PublishDiagnosticsParams }> {
    const from = this.received.length;
    const uri = await this.open(path, text);
    await this.advance(300);
    const diagnostics = await this.runEnded(uri, from);
    if (!diagnostics) throw new Error(`no diagnostics for ${uri}`);
    return { uri, diagnostics };
  }

  dispose(): void {
    this.server.scheduler.stopAll();
    this.client.dispose();
    this.server.connection.dispose();
  }
}

/** Reads a mistake example. */
export function mistake(name: string): { path: string; text: string } {
  const path = join(MISTAKES, `${name}.test.ts`);
  return { path, text: readFileSync(path, "utf8") };
}
