// Documents and frames that used to take the server down or leave it wrong: code nested too deep
// for a recursive walk, a second didOpen reusing a version, a frame with a negative
// Content-Length (over the bundle's real stdio), and a timer callback that throws.
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DiagnosticSeverity, DidOpenTextDocumentNotification, type Diagnostic, type PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import {
  createMessageConnection,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type LogMessageParams,
} from "vscode-languageserver-protocol/node";
import { analyzeTestFile } from "../../server/analysis/analyzeTestFile.ts";
import { FILE_TOO_DEEP_MESSAGE, TOO_DEEP_MESSAGE } from "../../server/analysis/tooDeep.ts";
import { DEPTH_LIMIT } from "../../server/limits.ts";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { MISTAKES, ROOT, SLOW, TestServer } from "./harness.ts";
import { rangeOf } from "./textRanges.ts";

let server: TestServer | undefined;
afterEach(() => {
  server?.dispose();
  server = undefined;
});

const HEADER = 'import { expect, test } from "bun:test";\n';

function tooDeep(line: number, start: number, end: number): Diagnostic {
  return {
    range: { start: { line, character: start }, end: { line, character: end } },
    severity: DiagnosticSeverity.Information,
    source: "turnlens",
    code: "too-deep",
    message: TOO_DEEP_MESSAGE,
  };
}

/** Opens `text`, lets its run go, and returns the diagnostics after the run and the test's outcome. */
async function openDeep(name: string, text: string): Promise<{ uri: string; diagnostics: Diagnostic[]; outcome: string | undefined }> {
  server = await TestServer.started();
  const { uri, diagnostics } = await server.openAndRun(join(MISTAKES, `virtual-${name}.test.ts`), text);
  const ended = server.all<TestRunProgressParams>("turnlens/testRunProgress").filter((params) => params.uri === uri && params.message.type !== "started");
  const outcome = ended.map((params) => params.message).find((message) => message.type === "passed" || message.type === "failed")?.type;
  return { uri, diagnostics: diagnostics.diagnostics, outcome };
}

async function hoverAnswers(uri: string, line: number, character: number): Promise<unknown> {
  return server!.request("textDocument/hover", { textDocument: { uri }, position: { line, character } });
}

/** Whether hovering the test's line shows it passed: the server answers, with the run's results. */
async function passedHover(uri: string, line: number): Promise<boolean> {
  const hover = (await hoverAnswers(uri, line, 2)) as { contents: { value: string } } | null;
  return hover?.contents.value.startsWith("Turnlens · **✓ passed**") ?? false;
}

/** Opens `text`: its only diagnostic is `notice`, its test passes, and hovering the test on `testLine` says so. */
async function expectNoticeAndPassingTest(name: string, text: string, notice: Diagnostic, testLine: number): Promise<void> {
  const { uri, diagnostics, outcome } = await openDeep(name, text);
  expect(diagnostics).toEqual([notice]);
  expect(outcome).toBe("passed");
  expect(await passedHover(uri, testLine)).toBe(true);
}

describe("code nested too deep to analyse", () => {
  // The walk counts the file as depth 0; `const x = [` puts the first `[` at depth 4.
  const FIRST = 4;

  test(
    "a document nested 2,000 brackets deep gets a too-deep notice, its test still runs, and the server answers the next hover",
    async () => {
      const prefix = "const deep = ";
      const text = `${HEADER}${prefix}${"[".repeat(2000)}${"]".repeat(2000)};\ntest("reads it", () => expect(Array.isArray(deep)).toBe(true));\n`;
      const { uri, diagnostics, outcome } = await openDeep("brackets", text);
      // The bracket at the depth limit holds the rest: from it to its matching `]`.
      const opened = DEPTH_LIMIT - FIRST;
      // The run happens: Node's own parser refuses a module this deep, and the file fails with its words.
      expect(diagnostics).toEqual([
        tooDeep(1, prefix.length + opened, prefix.length + 2000 + (2000 - opened)),
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: HEADER.length - 1 } },
          severity: DiagnosticSeverity.Error,
          source: "turnlens",
          code: "file-failed",
          message: "Maximum call stack size exceeded",
        },
      ]);
      expect(outcome).toBeUndefined();
      expect(await hoverAnswers(uri, 2, 2)).toBeNull();
    },
    SLOW,
  );

  test(
    "a 5,000-term + chain gets a too-deep notice over its deep part, and its test still runs",
    async () => {
      const prefix = "const sum = ";
      const terms = Array.from({ length: 5000 }, () => "a");
      const text = `${HEADER}const a = 1;\n${prefix}${terms.join(" + ")};\ntest("adds", () => expect(sum).toBe(5000));\n`;
      // `a + a + …` leans left: the sum of the first k terms is at depth FIRST + (5000 - k).
      const lastTerm = 5000 - (DEPTH_LIMIT - FIRST) - 1;
      await expectNoticeAndPassingTest("plus", text, tooDeep(2, prefix.length, prefix.length + 4 * lastTerm + 1), 3);
    },
    SLOW,
  );

  test(
    "2,000 chained .map() calls get a too-deep notice, and the test still runs",
    async () => {
      const prefix = "const mapped = ";
      const step = ".map((value) => value + 1)";
      const text = `${HEADER}${prefix}[1]${step.repeat(2000)};\ntest("maps", () => expect(mapped).toEqual([2001]));\n`;
      // The k-th call is at depth FIRST + 2 (2000 - k): the one at the limit is blanked whole, and the
      // arrow of the next one (its body is at the limit too).
      const blankedCalls = 2000 - (DEPTH_LIMIT - FIRST) / 2;
      const arrowEnd = prefix.length + 3 + step.length * blankedCalls + step.length - 1;
      await expectNoticeAndPassingTest("map", text, tooDeep(1, prefix.length, arrowEnd), 2);
    },
    SLOW,
  );

  test(
    "the rest of a too-deep document is still checked: an unknown option after the deep code is reported",
    async () => {
      const text = [
        'import { test } from "bun:test";',
        'import { testWorkflow } from "agentswf/testing";',
        'import note from "./workflows";',
        `const deep = ${"[".repeat(2000)}${"]".repeat(2000)};`,
        'test("runs it", async () => {',
        "  await testWorkflow(note, { agnets: {} });",
        "});",
        "",
      ].join("\n");
      server = await TestServer.started({ initializationOptions: { settings: { runMode: "manual" } } });
      const uri = await server.open(join(MISTAKES, "virtual-deep-rest.test.ts"), text);
      const published = await server.waitFor<PublishDiagnosticsParams>("textDocument/publishDiagnostics", (params) => params.uri === uri);
      expect(published.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity])).toEqual([
        ["unknown-option", DiagnosticSeverity.Error],
        ["too-deep", DiagnosticSeverity.Information],
      ]);
      expect(published.diagnostics[0]!.range).toEqual(rangeOf(text, "agnets"));
    },
    SLOW,
  );
});

describe("the depth limit", () => {
  const nested = (brackets: number) => `${HEADER}const deep = ${"[".repeat(brackets)}${"]".repeat(brackets)};\ntest("t", () => {});\n`;

  test("code nested exactly to the limit is analysed whole, one level more gets the notice", () => {
    // `const deep = [` puts the first bracket at depth 4, so 297 brackets reach depth 300.
    const atLimit = analyzeTestFile("deep.test.ts", nested(DEPTH_LIMIT - 3));
    expect(atLimit.problems).toEqual([]);
    expect(atLimit.tests.map((test) => test.name)).toEqual(["t"]);
    const past = analyzeTestFile("deep.test.ts", nested(DEPTH_LIMIT - 2));
    expect(past.problems.map((problem) => [problem.code, problem.message])).toEqual([["too-deep", TOO_DEEP_MESSAGE]]);
    expect(past.tests.map((test) => test.name)).toEqual(["t"]);
  });

  test("a file TypeScript's parser cannot read even with its brackets blanked gets one notice on line 1 and no tests", () => {
    const model = analyzeTestFile("arrows.test.ts", `${HEADER}const f = ${"a => ".repeat(5000)}1;\ntest("t", () => {});\n`);
    expect(model.problems).toEqual([
      { code: "too-deep", message: FILE_TOO_DEEP_MESSAGE, range: { start: { line: 0, character: 0 }, end: { line: 0, character: HEADER.length - 1 } } },
    ]);
    expect(model.tests).toEqual([]);
  });

  test("brackets inside strings, comments, templates and regular expressions are not counted", () => {
    const noise = `const s = "${"[".repeat(400)}"; // ${"(".repeat(400)}\nconst t = \`${"{".repeat(400)}\${1}${"[".repeat(400)}\`;\nconst r = /${"\\[".repeat(400)}/;\n`;
    const text = `${HEADER}${noise}const deep = ${"[".repeat(2000)}${"]".repeat(2000)};\ntest("t", () => {});\n`;
    const model = analyzeTestFile("noise.test.ts", text);
    expect(model.problems.map((problem) => [problem.code, problem.range.start.line])).toEqual([["too-deep", 4]]);
    expect(model.tests.map((test) => test.name)).toEqual(["t"]);
  });
});

describe("a second didOpen of an open document", () => {
  test(
    "with the same version and new text is analysed afresh: its diagnostics and tests are the new text's",
    async () => {
      server = await TestServer.started({ initializationOptions: { settings: { runMode: "manual" } } });
      const first = [
        'import { test } from "bun:test";',
        'import { testWorkflow } from "agentswf/testing";',
        'import note from "./workflows";',
        'test("old", async () => {',
        "  await testWorkflow(note, { agnets: {} });",
        "});",
        "",
      ].join("\n");
      const second = [
        'import { test } from "bun:test";',
        'import { testWorkflow } from "agentswf/testing";',
        'import note from "./workflows";',
        "",
        'test("new", async () => {',
        "  await testWorkflow(note, { agents: {}, stal: 1 });",
        "});",
        "",
      ].join("\n");
      const path = join(MISTAKES, "virtual-reopened.test.ts");
      const uri = await server.open(path, first);
      await server.waitFor<PublishDiagnosticsParams>("textDocument/publishDiagnostics", (params) => params.uri === uri);
      const from = server.received.length;
      await server.client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "typescript", version: 1, text: second } });
      await server.advance(300);
      const published = await server.waitFor<PublishDiagnosticsParams>("textDocument/publishDiagnostics", (params) => params.uri === uri, from);
      expect(published.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message, diagnostic.range])).toEqual([
        ["unknown-option", 'testWorkflow takes no option "stal"; did you mean "stall"?', rangeOf(second, "stal")],
      ]);
      const lenses = await server.request<Array<{ range: { start: { line: number } } }>>("textDocument/codeLens", { textDocument: { uri } });
      expect(lenses.map((lens) => lens.range.start.line)).toEqual([0, 4]);
    },
    SLOW,
  );
});

describe("a timer callback that throws", () => {
  test(
    "is logged and the server answers the next request",
    async () => {
      server = await TestServer.started();
      let fired = false;
      server.server.env.timer.setTimeout(() => {
        fired = true;
        throw new Error("a bug in a timer");
      }, 10);
      const from = server.received.length;
      server.timer.advance(10);
      expect(fired).toBe(true);
      const logged = await server.waitFor<LogMessageParams>(
        LogMessageNotification.method,
        (params) => params.message.startsWith("timer failed: Error: a bug in a timer"),
        from,
      );
      expect(logged.type).toBe(1);
      expect(await hoverAnswers("file:///nothing.test.ts", 0, 0)).toBeNull();
    },
    SLOW,
  );
});

/** The bundled server over stdio, initialized; `logs` collects its window/logMessage lines. */
async function stdioServer(): Promise<{
  child: ReturnType<typeof spawn>;
  connection: ReturnType<typeof createMessageConnection>;
  logs: string[];
  logged: (matches: (line: string) => boolean) => Promise<void>;
  stop: () => Promise<number | null>;
}> {
  const child = spawn(process.execPath, [join(ROOT, "dist", "server.js"), "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const logs: string[] = [];
  const waiting: Array<() => void> = [];
  connection.onNotification(LogMessageNotification.type, (params) => {
    logs.push(params.message);
    for (const wake of waiting.splice(0)) wake();
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(ROOT).href,
    capabilities: {},
    initializationOptions: { settings: { runMode: "manual" } },
  });
  await connection.sendNotification(InitializedNotification.type, {});
  const logged = async (matches: (line: string) => boolean) => {
    while (!logs.some(matches)) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const stop = async () => {
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
    const code = await exited;
    connection.dispose();
    return code;
  };
  return { child, connection, logs, logged, stop };
}

describe("over the bundle's stdio", () => {
  test(
    "frames without a Content-Length or with 5.5 are skipped, and a 2 MB message split across pipe writes arrives whole",
    async () => {
      const { child, connection, logs, logged, stop } = await stdioServer();
      child.stdin!.write(`Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"jsonrpc":"2.0","method":"nothing"}`);
      child.stdin!.write(`Content-Length: 5.5\r\n\r\n{"jsonrpc":"2.0","method":"nothing"}`);
      const path = join(MISTAKES, "virtual-big.test.ts");
      const uri = pathToFileURL(path).href;
      const text = `${HEADER}${"// padding\n".repeat(200_000)}test("after the padding", () => {});\n`;
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "typescript", version: 1, text } });
      const lenses = await connection.sendRequest<Array<{ range: { start: { line: number } } }>>("textDocument/codeLens", { textDocument: { uri } });
      expect(lenses.map((lens) => lens.range.start.line)).toEqual([0, 200_001]);
      await logged((line) => line.includes('"5.5"'));
      expect(logs.filter((line) => line.startsWith("skipped"))).toEqual([
        'skipped a message frame without a Content-Length header ("Content-Type: application/vscode-jsonrpc; charset=utf-8"); reading on from the next header',
        'skipped a message frame whose Content-Length is "5.5", not a byte count; reading on from the next header',
      ]);
      expect(await stop()).toBe(0);
    },
    SLOW,
  );

  test(
    "a frame with a negative Content-Length is skipped, said in the log, and the next request is answered",
    async () => {
      const child = spawn(process.execPath, [join(ROOT, "dist", "server.js"), "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
      const logs: string[] = [];
      let logged: () => void = () => {};
      connection.onNotification(LogMessageNotification.type, (params) => {
        logs.push(params.message);
        logged();
      });
      connection.listen();
      await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(ROOT).href, capabilities: {}, initializationOptions: {} });
      await connection.sendNotification(InitializedNotification.type, {});
      const skippedLogged = new Promise<void>((resolve) => (logged = () => logs.some((line) => line.includes("Content-Length")) && resolve()));
      // A frame vscode-jsonrpc would read as -5 bytes long, its body, then ordinary requests.
      const body = JSON.stringify({ jsonrpc: "2.0", id: 999, method: "textDocument/hover", params: {} });
      child.stdin.write(`Content-Length: -5\r\n\r\n${body}`);
      const hover = await connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: pathToFileURL(join(ROOT, "nothing.test.ts")).href },
        position: { line: 0, character: 0 },
      });
      expect(hover).toBeNull();
      await skippedLogged;
      expect(logs.filter((line) => line.includes("Content-Length"))).toEqual([
        'skipped a message frame whose Content-Length is "-5", not a byte count; reading on from the next header',
      ]);
      const again = await connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: pathToFileURL(join(ROOT, "nothing.test.ts")).href },
        position: { line: 0, character: 0 },
      });
      expect(again).toBeNull();
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      expect(await exited).toBe(0);
      connection.dispose();
    },
    SLOW,
  );
});
