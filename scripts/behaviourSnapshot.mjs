// Behaviour snapshot (issue 25): captures what a user sees from a built Turnlens tree (every CLI reporter and mode over
// examples/, and the language server's views of every examples/ file), normalised, so a refactor can prove it changed none of it.
// `node scripts/behaviourSnapshot.mjs <turnlensRoot> <outDir>`, then `node scripts/behaviourSnapshot.mjs --compare <dirA> <dirB>`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { hostname, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const LSP_RUN_TIMEOUT_MS = 120_000;
const QUIET_MS = 150;

// ---------------------------------------------------------------------------------------------------------------------------
// Normalisation

/** Replacements that make a text independent of where the tree is, of the clock and of process ids. */
function makeNormaliser(root) {
  const pairs = [];
  const addPath = (path, label) => {
    if (!path) return;
    pairs.push([pathToFileURL(path).href, `file://${label}`]);
    // A command link's arguments carry the file URL percent-encoded.
    pairs.push([encodeURIComponent(pathToFileURL(path).href), encodeURIComponent(`file://${label}`)]);
    pairs.push([path, label]);
  };
  const realRoot = realpathSync(root);
  const modules = join(root, "node_modules");
  if (existsSync(modules)) addPath(realpathSync(modules), "<root>/node_modules");
  addPath(realRoot, "<root>");
  addPath(root, "<root>");
  // Longest first, so a folder inside the root is replaced before the root.
  pairs.sort((a, b) => b[0].length - a[0].length);
  const tmp = tmpdir().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const host = hostname().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // An SGR colour code (built, not written, so the regular expression holds no control character).
  const sgr = `(?:${String.fromCharCode(27)}\\[[\\d;]*m)?`;
  const testLine = new RegExp(`^( +${sgr}[✓×✗↓○·]${sgr} .*) (${sgr})\\d+(\\.\\d+)?ms(${sgr})$`, "gm");
  return (text) => {
    // Turnlens's own temporary folders: <tmp>/turnlens-<uid>/<process>/...
    let out = text.replace(new RegExp(`${tmp}/turnlens-\\d+(/[\\w.-]+)?`, "g"), "<turnlens-tmp>");
    for (const [from, to] of pairs) out = out.split(from).join(to);
    out = out
      .replace(new RegExp(`${tmp}/`, "g"), "<tmpdir>/")
      // A stack frame in a built bundle: its line moves with any change to the bundle's code.
      .replace(/(<root>\/dist\/[\w./-]+\.m?js):\d+:\d+/g, "$1:<line>:<col>")
      .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, "<timestamp>")
      // JSON fields that hold a clock or a duration.
      .replace(/("(?:durationMs|duration|startTime|modifiedMs|endTime|elapsedMs)"\s*:\s*)-?\d+(\.\d+)?(e[+-]?\d+)?/g, '$1"<n>"')
      // junit
      .replace(/\b(time|timestamp)="[^"]*"/g, '$1="<t>"')
      .replace(new RegExp(`hostname="${host}"`, "g"), 'hostname="<host>"')
      // default/dot/verbose: "12 files in 0.92s"
      .replace(/(?<![\d.])(\d+ files? in )\d+(\.\d+)?(ms|s)\b/g, "$1<dur>")
      // verbose: "  ✓ a test 12ms", coloured or not
      .replace(testLine, "$1 $2<dur>ms$4")
      // a worker recycled: "at 108 MB"
      .replace(/(recycled after \d+ files? at )\d+(\.\d+)? MB/g, "$1<n> MB")
      // tap: "# time=12ms"
      .replace(/# time=\d+(\.\d+)?ms/g, "# time=<dur>ms")
      // mutate: "190 mutants in 3.3s (57.1/s)"
      .replace(/(\d+ mutants? in )\d+(\.\d+)?(ms|s) \(\d+(\.\d+)?\/s\)/g, "$1<dur> (<rate>/s)")
      // code lens and transcript: "✓ 3 turns · 4 ms", "test x · passed · 12 ms"
      .replace(/ · \d+(\.\d+)? ms\b/g, " · <dur> ms")
      .replace(/\bworker \d+\b/g, "worker <pid>")
      .replace(/\bpid \d+\b/g, "pid <pid>");
    return out;
  };
}

// ---------------------------------------------------------------------------------------------------------------------------
// Processes

/** An environment with nothing in it that changes what Turnlens prints: no CI, no agent, no colours unless asked. */
function cleanEnv(overrides = {}) {
  const env = {};
  for (const name of ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TMPDIR", "SHELL"]) if (process.env[name] !== undefined) env[name] = process.env[name];
  if (env.PATH)
    env.PATH = env.PATH.split(":")
      .filter((part) => !/\.pi[\\/]agent/.test(part))
      .join(":");
  env.NO_COLOR = "1";
  env.TERM = "dumb";
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

function runCli(root, args, env) {
  const result = spawnSync(process.execPath, [join(root, "bin", "turnlens.mjs"), ...args], {
    cwd: root,
    env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: 300_000,
  });
  return { stdout: result.stdout ?? "", stderr: result.stderr ?? "", status: result.status, signal: result.signal };
}

/** Every file under `folder`, relative to it, sorted. */
function filesUnder(folder) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(folder, path));
    }
  };
  if (existsSync(folder)) walk(folder);
  return out.sort();
}

// ---------------------------------------------------------------------------------------------------------------------------
// 1. The CLI

function cliCases() {
  const cases = [];
  const add = (name, args, options = {}) => cases.push({ name, args, ...options });
  // Commands and usage errors (no test runs).
  add("help/help", ["--help"]);
  add("help/test-help", ["test", "--help"]);
  add("help/lsp-help", ["lsp", "--help"]);
  add("help/lsp-no-transport", ["lsp"]);
  add("help/init-help", ["init", "--help"]);
  add("help/record-help", ["record", "--help"]);
  add("usage/unknown-reporter", ["test", "examples", "--reporter", "agnet"]);
  add("usage/unknown-flag", ["test", "examples", "--passWithNoTest"]);
  add("usage/no-such-path", ["test", "examples/no-such-folder"]);
  add("usage/coverage-value", ["test", "examples", "--coverage=xml"]);
  add("usage/timeline-no-folder", ["test", "examples", "--timeline"]);
  add("usage/outputFile-source", ["test", "examples", "--reporter", "json", "--outputFile", "examples/flow/workflow.test.ts"]);
  add("usage/outputFile-not-chosen", ["test", "examples", "--outputFile.junit=<tmp>/junit.xml"]);
  add("usage/two-documents", ["test", "examples", "--reporter", "json", "--reporter", "dot"]);
  add("init/example", ["init", "<tmp>/project", "--example"], { capture: "<tmp>/project" });
  add("init/example-json", ["init", "<tmp>/project", "--example", "--json"], { capture: "<tmp>/project" });
  // `turnlens test examples` leaves examples/mistakes out (the config's exclude); naming both runs every file.
  add("examples/default", ["test", "examples"]);
  add("examples/json", ["test", "examples", "--reporter", "json"]);
  add("mistakes/default", ["test", "examples/mistakes"]);
  const all = ["test", "examples", "examples/mistakes"];
  for (const reporter of ["default", "pretty", "dot", "verbose", "json", "junit", "tap", "github-actions", "agent"])
    add(`all/reporter-${reporter}`, [...all, "--reporter", reporter]);
  add("all/no-reporter", all);
  add("all/coverage", [...all, "--coverage"]);
  add("all/coverage-json", [...all, "--coverage=json"]);
  add("all/coverage-with-junit", [...all, "--coverage", "--reporter", "junit"]);
  // --mutate runs its files in parallel whatever --maxWorkers says: its file lines are sorted (sortFileLines).
  add("all/mutate", [...all, "--mutate"], { sortFileLines: true });
  add("all/mutate-json", [...all, "--mutate=json"], { sortFileLines: true });
  add("all/outputFile-json", [...all, "--reporter", "json", "--outputFile", "<tmp>/out/report.json"], { capture: "<tmp>/out" });
  add("all/outputFile-junit", [...all, "--reporter", "junit", "--outputFile.junit=<tmp>/out/junit.xml"], { capture: "<tmp>/out" });
  add("all/dot-and-tap-file", [...all, "--reporter=dot,tap", "--outputFile.tap=<tmp>/out/report.tap"], { capture: "<tmp>/out" });
  add("all/timeline", [...all, "--timeline", "<tmp>/timeline"], { capture: "<tmp>/timeline" });
  add("all/silent", [...all, "--silent"]);
  add("all/bail", [...all, "--bail"]);
  add("all/shard-1-of-3", [...all, "--shard", "1/3"]);
  add("all/name-pattern", [...all, "-t", "review|schema|never"]);
  add("all/name-pattern-none", [...all, "-t", "no test is named this"]);
  add("all/name-pattern-none-pass", [...all, "-t", "no test is named this", "--passWithNoTests"]);
  add("all/color", all, { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
  add("all/color-verbose", [...all, "--reporter", "verbose"], { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
  add("all/github-actions-env", all, { env: { GITHUB_ACTIONS: "true" }, workspace: true });
  add("all/agent-env", all, { env: { AI_AGENT: "claude" } });
  add("all/agent-env-with-json", [...all, "--reporter", "json"], { env: { CLAUDECODE: "1" } });
  // With several workers files end in any order, and the terminal reporters print them as they end: every run above has
  // one worker (added below). These documents list files in a fixed order, so they are also taken with the default pool.
  for (const reporter of ["json", "junit", "agent"]) add(`all/reporter-${reporter}-default-workers`, [...all, "--reporter", reporter], { workers: true });
  for (const testCase of cases)
    if (testCase.args[0] === "test" && !testCase.name.startsWith("usage/") && !testCase.workers && !testCase.args.includes("--maxWorkers"))
      testCase.args.push("--maxWorkers", "1");
  return cases;
}

/** Each run of consecutive file lines (`✓ file (n tests)`, `✗ file (...)`) sorted: for output whose files end in any order. */
function sortFileLines(text) {
  const lines = text.split("\n");
  const isFileLine = (line) => /^[✓✗] \S/.test(line);
  for (let start = 0; start < lines.length; ) {
    if (!isFileLine(lines[start])) {
      start++;
      continue;
    }
    let end = start;
    while (end < lines.length && isFileLine(lines[end])) end++;
    lines.splice(start, end - start, ...lines.slice(start, end).sort());
    start = end;
  }
  return lines.join("\n");
}

function captureCli(root, outDir, normalise, log) {
  const cases = cliCases();
  const counts = { cases: 0 };
  for (const testCase of cases) {
    const tmp = mkdtempSync(join(tmpdir(), "turnlens-snapshot-"));
    const fill = (value) => value.split("<tmp>").join(tmp);
    const args = testCase.args.map(fill);
    const env = cleanEnv({ ...(testCase.env ?? {}), ...(testCase.workspace ? { GITHUB_WORKSPACE: root } : {}) });
    const started = Date.now();
    const result = runCli(root, args, env);
    const norm = (text) => {
      const out = normalise(text.split(tmp).join("<tmp>"));
      return testCase.sortFileLines ? sortFileLines(out) : out;
    };
    const parts = [
      `$ turnlens ${testCase.args.join(" ")}`,
      ...Object.entries(testCase.env ?? {}).map(([name, value]) => `env ${name}=${value ?? "(unset)"}`),
      `--- exit: ${result.status}${result.signal ? ` (signal ${result.signal})` : ""}`,
      "--- stdout",
      norm(result.stdout),
      "--- stderr",
      norm(result.stderr),
    ];
    if (testCase.capture) {
      const folder = fill(testCase.capture);
      for (const file of filesUnder(folder)) {
        parts.push(`--- file ${file}`);
        parts.push(norm(readFileSync(join(folder, file), "utf8")));
      }
    }
    const path = join(outDir, "cli", `${testCase.name}.txt`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${parts.join("\n")}\n`);
    rmSync(tmp, { recursive: true, force: true });
    counts.cases++;
    log(`cli ${testCase.name}: exit ${result.status} (${Date.now() - started} ms)`);
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------------------------------------
// 2. The language server

/** Offsets of every identifier and string literal start, outside comments. */
function probesOf(text) {
  const probes = [];
  const n = text.length;
  let i = 0;
  const skipString = (start) => {
    const quote = text[start];
    let j = start + 1;
    while (j < n) {
      const c = text[j];
      if (c === "\\") j += 2;
      else if (c === quote) return j + 1;
      else if (c === "\n" && quote !== "`") return j;
      else j++;
    }
    return n;
  };
  while (i < n) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? n : end;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      const end = skipString(i);
      probes.push({ offset: i, kind: "string", token: text.slice(i, Math.min(end, i + 40)) });
      i = end;
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(text[j])) j++;
      probes.push({ offset: i, kind: "identifier", token: text.slice(i, j) });
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(text[j])) j++;
      i = j;
    } else i++;
  }
  return probes;
}

function positionAt(text, offset) {
  let line = 0;
  let lineStart = 0;
  for (let k = text.indexOf("\n"); k >= 0 && k < offset; k = text.indexOf("\n", k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, character: offset - lineStart };
}

/** The examples' source files: test files first, then the others (workflows), each sorted. */
function exampleFiles(root) {
  const all = filesUnder(join(root, "examples"))
    .filter((file) => /\.(ts|mts|cts|tsx)$/.test(file))
    .map((file) => join(root, "examples", file));
  const isTest = (file) => /\.(test|spec)\.[cm]?tsx?$/.test(file);
  return { tests: all.filter(isTest), workflows: all.filter((file) => !isTest(file)) };
}

async function captureLsp(root, outDir, normalise, log) {
  const require = createRequire(join(root, "package.json"));
  const rpc = require("vscode-languageserver-protocol/node");
  const child = spawn(process.execPath, [join(root, "bin", "turnlens.mjs"), "lsp", "--stdio"], { cwd: root, env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
  let serverStderr = "";
  child.stderr.on("data", (chunk) => {
    serverStderr += chunk;
  });
  const exited = new Promise((resolveExit) => child.on("exit", (code, signal) => resolveExit({ code, signal })));
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const received = [];
  const wake = [];
  const note = (method, params) => {
    received.push({ method, params, at: Date.now() });
    for (const resolveWait of wake.splice(0)) resolveWait();
  };
  connection.onNotification((method, params) => note(method, params));
  const requestsFromServer = {};
  connection.onRequest((method, params) => {
    requestsFromServer[method] = (requestsFromServer[method] ?? 0) + 1;
    if (method === "workspace/configuration") return params.items.map(() => ({}));
    if (method === "window/workDoneProgress/create") {
      connection.onProgress(rpc.WorkDoneProgress.type, params.token, (value) => note("$/progress", { token: params.token, value }));
    }
    return null;
  });
  connection.listen();

  /** Waits until a notification from index `from` on matches, or the timeout passes. */
  const waitFor = async (matches, from, timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    for (let index = from; ; ) {
      for (; index < received.length; index++) if (matches(received[index])) return received[index];
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise((resolveWait) => {
        const timer = setTimeout(resolveWait, left);
        wake.push(() => {
          clearTimeout(timer);
          resolveWait();
        });
      });
    }
  };
  const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
  const roundTrip = () => connection.sendRequest("textDocument/hover", { textDocument: { uri: "file:///nothing.test.ts" }, position: { line: 0, character: 0 } });
  /** A round trip, then no notification about `uri` for QUIET_MS. */
  const settle = async (uri) => {
    await roundTrip();
    for (;;) {
      const before = received.length;
      await sleep(QUIET_MS);
      const news = received.slice(before).filter((message) => message.params?.uri === uri || message.params?.textDocument?.uri === uri);
      if (news.length === 0) break;
    }
    await roundTrip();
  };
  const request = (method, params) => connection.sendRequest(method, params);

  const rootUri = pathToFileURL(root).href;
  const initialize = await request("initialize", {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: "turnlens" }],
    capabilities: {
      window: { workDoneProgress: true },
      workspace: { configuration: true, workspaceFolders: true, codeLens: { refreshSupport: true }, inlayHint: { refreshSupport: true } },
      textDocument: {
        publishDiagnostics: { versionSupport: true, relatedInformation: true },
        hover: { contentFormat: ["markdown", "plaintext"] },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "source.fixAll"] } } },
      },
      experimental: { turnlens: { testExplorer: true } },
    },
    initializationOptions: { workspaceTrusted: true, showsTimelines: true },
  });
  await connection.sendNotification("initialized", {});

  const { tests, workflows } = exampleFiles(root);
  const summary = {
    files: 0,
    testFiles: 0,
    workflowFiles: 0,
    diagnostics: 0,
    inlayHints: 0,
    hoverProbes: 0,
    hovers: 0,
    codeLenses: 0,
    codeActions: 0,
    references: 0,
    timelines: 0,
    timedOut: [],
  };
  const wholeRange = (text) => ({ start: { line: 0, character: 0 }, end: { line: text.split("\n").length, character: 0 } });
  const write = (file, data) => {
    const path = join(outDir, "lsp", `${relative(root, file)}.json`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${normalise(JSON.stringify(data, null, 2))}\n`);
  };

  const hoversOf = async (uri, text, probes) => {
    const hovers = [];
    for (const probe of probes) {
      const position = positionAt(text, probe.offset);
      const hover = await request("textDocument/hover", { textDocument: { uri }, position });
      summary.hoverProbes++;
      if (hover) {
        summary.hovers++;
        hovers.push({ at: `${position.line}:${position.character}`, token: probe.token, hover });
      }
    }
    return hovers;
  };
  const actionsOf = async (uri, text, diagnostics, probes) => {
    const actions = [];
    for (const diagnostic of diagnostics) {
      const result = await request("textDocument/codeAction", { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic], triggerKind: 1 } });
      summary.codeActions += result?.length ?? 0;
      actions.push({ for: { code: diagnostic.code, range: diagnostic.range, message: diagnostic.message }, actions: result });
    }
    const fixAll = await request("textDocument/codeAction", {
      textDocument: { uri },
      range: wholeRange(text),
      context: { diagnostics, only: ["source.fixAll"], triggerKind: 2 },
    });
    summary.codeActions += fixAll?.length ?? 0;
    // Actions offered at a place with no diagnostic (such as "Fill with a valid answer" at an `answer(`).
    const atAnswers = [];
    for (const probe of probes.filter((each) => each.kind === "identifier" && each.token === "answer")) {
      const position = positionAt(text, probe.offset);
      const result = await request("textDocument/codeAction", {
        textDocument: { uri },
        range: { start: position, end: position },
        context: { diagnostics: [], triggerKind: 2 },
      });
      if (result && result.length > 0) {
        summary.codeActions += result.length;
        atAnswers.push({ at: `${position.line}:${position.character}`, actions: result });
      }
    }
    return { perDiagnostic: actions, fixAll, atAnswers };
  };

  for (const file of tests) {
    const text = readFileSync(file, "utf8");
    const uri = pathToFileURL(file).href;
    const from = received.length;
    const started = Date.now();
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text } });
    const ended = await waitFor(
      (message) => message.method === "turnlens/testRunProgress" && message.params.uri === uri && message.params.message?.type === "end",
      from,
      LSP_RUN_TIMEOUT_MS,
    );
    if (!ended) summary.timedOut.push(relative(root, file));
    await settle(uri);
    const mine = received.slice(from).filter((message) => message.params?.uri === uri || message.params?.textDocument?.uri === uri);
    const diagnostics = mine.filter((message) => message.method === "textDocument/publishDiagnostics").at(-1)?.params ?? null;
    const discovered = mine.filter((message) => message.method === "turnlens/testsDiscovered").at(-1)?.params.tests ?? null;
    const progress = mine.filter((message) => message.method === "turnlens/testRunProgress").map((message) => message.params.message);
    const probes = probesOf(text);
    const inlayHints = await request("textDocument/inlayHint", { textDocument: { uri }, range: wholeRange(text) });
    const codeLenses = await request("textDocument/codeLens", { textDocument: { uri } });
    const hovers = await hoversOf(uri, text, probes);
    const codeActions = await actionsOf(uri, text, diagnostics?.diagnostics ?? [], probes);
    const transcript = await request("turnlens/transcript", { test: uri });
    const testIds = [];
    const collect = (items) => {
      for (const item of items ?? []) {
        if (item.kind === "test") testIds.push(item.id);
        collect(item.children);
      }
    };
    collect(discovered);
    const timelines = [];
    for (const id of testIds) {
      const timeline = await request("turnlens/timeline", { test: id });
      if (timeline) summary.timelines++;
      timelines.push({ test: id, timeline });
    }
    summary.files++;
    summary.testFiles++;
    summary.diagnostics += diagnostics?.diagnostics.length ?? 0;
    summary.inlayHints += inlayHints?.length ?? 0;
    summary.codeLenses += codeLenses?.length ?? 0;
    write(file, {
      file: relative(root, file),
      runEnded: Boolean(ended),
      diagnostics,
      testsDiscovered: discovered,
      runProgress: progress,
      inlayHints,
      codeLenses,
      hoverProbes: probes.length,
      hovers,
      codeActions,
      transcript,
      timelines,
    });
    await connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    log(`lsp ${relative(root, file)}: ${diagnostics?.diagnostics.length ?? 0} diagnostics, ${hovers.length}/${probes.length} hovers (${Date.now() - started} ms)`);
  }

  for (const file of workflows) {
    const text = readFileSync(file, "utf8");
    const uri = pathToFileURL(file).href;
    const from = received.length;
    const started = Date.now();
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text } });
    // Its diagnostics are published as it opens, and only when there are some: a round trip (in settle) is enough.
    await settle(uri);
    const mine = received.slice(from).filter((message) => message.params?.uri === uri || message.params?.textDocument?.uri === uri);
    const diagnostics = mine.filter((message) => message.method === "textDocument/publishDiagnostics").at(-1)?.params ?? null;
    const probes = probesOf(text);
    const inlayHints = await request("textDocument/inlayHint", { textDocument: { uri }, range: wholeRange(text) });
    const codeLenses = await request("textDocument/codeLens", { textDocument: { uri } });
    const hovers = await hoversOf(uri, text, probes);
    const codeActions = await actionsOf(uri, text, diagnostics?.diagnostics ?? [], probes);
    const references = [];
    for (const probe of probes.filter((each) => each.kind === "identifier")) {
      const position = positionAt(text, probe.offset);
      const result = await request("textDocument/references", { textDocument: { uri }, position, context: { includeDeclaration: true } });
      if (result && result.length > 0) {
        summary.references += result.length;
        references.push({ at: `${position.line}:${position.character}`, token: probe.token, locations: result });
      }
    }
    summary.files++;
    summary.workflowFiles++;
    summary.diagnostics += diagnostics?.diagnostics.length ?? 0;
    summary.inlayHints += inlayHints?.length ?? 0;
    summary.codeLenses += codeLenses?.length ?? 0;
    write(file, { file: relative(root, file), diagnostics, inlayHints, codeLenses, hoverProbes: probes.length, hovers, codeActions, references });
    await connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    log(`lsp ${relative(root, file)}: ${diagnostics?.diagnostics.length ?? 0} diagnostics, ${hovers.length}/${probes.length} hovers (${Date.now() - started} ms)`);
  }

  const beforeShutdown = received.length;
  const outcomeCoverage = await request("turnlens/outcomeCoverage", {});
  const testFiles = await request("turnlens/testFiles", { folders: [rootUri] });
  const examplesFiles = await request("turnlens/testFiles", { folders: [pathToFileURL(join(root, "examples")).href] });
  await request("shutdown", undefined);
  await connection.sendNotification("exit");
  const exit = await Promise.race([exited, sleep(10_000).then(() => "did not exit within 10 s")]);
  connection.dispose();
  if (typeof exit === "string") child.kill("SIGKILL");
  // Log lines name timings and worker ids; only the errors and warnings are kept, as a health check.
  const logs = received
    .slice(0, beforeShutdown)
    .filter((message) => message.method === "window/logMessage" && message.params.type <= 2)
    .map((message) => ({ type: message.params.type, message: message.params.message }));
  const session = {
    initialize,
    requestsFromServer: Object.keys(requestsFromServer).sort(),
    outcomeCoverage,
    testFiles,
    examplesFiles,
    errorAndWarningLogs: logs,
    serverStderr,
    exit,
  };
  const path = join(outDir, "lsp", "_session.json");
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${normalise(JSON.stringify(session, null, 2))}\n`);
  return summary;
}

// ---------------------------------------------------------------------------------------------------------------------------
// 3. Compare

function compare(dirA, dirB) {
  const a = new Set(filesUnder(dirA));
  const b = new Set(filesUnder(dirB));
  const names = [...new Set([...a, ...b])].filter((name) => name !== "summary.json").sort();
  let differing = 0;
  for (const name of names) {
    if (!a.has(name) || !b.has(name)) {
      differing++;
      process.stdout.write(`only in ${a.has(name) ? dirA : dirB}: ${name}\n`);
      continue;
    }
    const left = readFileSync(join(dirA, name));
    const right = readFileSync(join(dirB, name));
    if (left.equals(right)) continue;
    differing++;
    const diff = spawnSync("diff", ["-u", "--label", `a/${name}`, "--label", `b/${name}`, join(dirA, name), join(dirB, name)], {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    if (diff.error) {
      // No diff(1): the first differing line.
      const leftLines = left.toString("utf8").split("\n");
      const rightLines = right.toString("utf8").split("\n");
      let line = 0;
      while (line < leftLines.length && leftLines[line] === rightLines[line]) line++;
      process.stdout.write(`--- a/${name}\n+++ b/${name}\n@@ line ${line + 1} @@\n-${leftLines[line] ?? ""}\n+${rightLines[line] ?? ""}\n`);
    } else process.stdout.write(diff.stdout);
  }
  if (differing === 0) {
    process.stdout.write(`identical (${names.length} files)\n`);
    return 0;
  }
  process.stdout.write(`\n${differing} of ${names.length} files differ\n`);
  return 1;
}

// ---------------------------------------------------------------------------------------------------------------------------

async function main(argv) {
  if (argv[0] === "--compare") {
    if (argv.length !== 3) throw new Error("usage: behaviourSnapshot.mjs --compare <dirA> <dirB>");
    return compare(resolve(argv[1]), resolve(argv[2]));
  }
  const only = argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
  const [rootArg, outArg] = argv.filter((arg) => !arg.startsWith("--"));
  if (!rootArg || !outArg) throw new Error("usage: behaviourSnapshot.mjs <turnlensRoot> <outDir> [--only=cli|lsp]   or   --compare <dirA> <dirB>");
  const root = resolve(rootArg);
  const outDir = resolve(outArg);
  for (const needed of ["bin/turnlens.mjs", "dist/server.js", "dist/cli.mjs", "examples"])
    if (!existsSync(join(root, needed))) throw new Error(`${join(root, needed)} is missing: give a built Turnlens tree`);
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    if (!statSync(join(outDir, "summary.json"), { throwIfNoEntry: false })) throw new Error(`${outDir} is not empty and holds no earlier snapshot; give a new folder`);
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(outDir, { recursive: true });
  const normalise = makeNormaliser(root);
  const log = (line) => process.stderr.write(`${line}\n`);
  const started = Date.now();
  const summary = {};
  if (only !== "lsp") summary.cli = captureCli(root, outDir, normalise, log);
  if (only !== "cli") summary.lsp = await captureLsp(root, outDir, normalise, log);
  writeFileSync(join(outDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\nsnapshot of ${root} in ${outDir} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return summary.lsp?.timedOut.length ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 2;
  },
);
