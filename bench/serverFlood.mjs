// `npm run bench -- --only=flood` (or `node bench/serverFlood.mjs` after `npm run build`): the language
// server flooded through its stdio protocol with ~6,400 random well-formed messages (seeded), framed
// and written to its stdin in one write, as fast as a client can: edits, hovers, inlay hints, code lenses, completion, code actions
// and commands, over every test file of a copy of examples/. It prints p50/p99/max request latency and
// how many requests were never answered (it waits a bounded time at the end). Results: BENCHMARKS.md.
// Flags: --messages=N (default 6400), --seed=N (default 24), --wait=SECONDS (default 30), --runs=0
// (no run commands; edits still start background runs), --profile (the server's CPU profile, in a
// temporary folder it names).

import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const given = args.find((arg) => arg.startsWith(`--${name}=`));
  return given ? Number(given.slice(name.length + 3)) : fallback;
};
const MESSAGES = flag("messages", 6400);
const SEED = flag("seed", 24);
const WAIT_MS = flag("wait", 30) * 1000;
const WITH_RUNS = flag("runs", 1) !== 0;

/** The CPU time a process used so far (user and system, /proc), in ms: what the flood cost it whatever the machine's load. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** mulberry32: the same flood for the same seed. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(SEED);
const pick = (list) => list[Math.floor(next() * list.length)];

// The workspace: a copy of examples/, so nothing the server or its runs write lands in the repository.
const workspace = mkdtempSync(join(tmpdir(), "turnlens-flood-"));
cpSync(join(root, "examples"), workspace, { recursive: true });
const testFiles = [];
const walk = (folder) => {
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith(".test.ts")) testFiles.push(path);
  }
};
walk(workspace);

const profiles = args.includes("--profile") ? mkdtempSync(join(tmpdir(), "turnlens-flood-profile-")) : undefined;
const nodeArgs = profiles ? ["--cpu-prof", `--cpu-prof-dir=${profiles}`] : [];
if (profiles) console.log(`the server's CPU profile goes under ${profiles}`);
const child = spawn(process.execPath, [...nodeArgs, join(root, "dist", "server.js"), "--stdio"], { cwd: workspace, stdio: ["pipe", "pipe", "pipe"] });
let stderr = "";
child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-8000)));
let exited;
child.on("close", (code, signal) => (exited = signal ?? code));
process.on("exit", () => {
  child.kill("SIGKILL");
  rmSync(workspace, { recursive: true, force: true });
});
// A client of its own, not vscode-jsonrpc's: that one writes one message per turn of its event loop,
// so a late message's latency would be mostly the client's own queue.
const frame = (message) => {
  const body = JSON.stringify({ jsonrpc: "2.0", ...message });
  return `Content-Length: ${Buffer.byteLength(body, "utf8")}\r\n\r\n${body}`;
};
const write = (message) => child.stdin.write(frame(message));
let nextId = 1;
/** Requests not answered yet: what to call with the answer, by id. */
const answering = new Map();
const call = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    answering.set(id, resolve);
    write({ id, method, params });
  });
let diagnostics = 0;
let buffered = Buffer.alloc(0);
child.stdout.on("data", (chunk) => {
  buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
  for (;;) {
    const headerEnd = buffered.indexOf("\r\n\r\n");
    if (headerEnd < 0) return;
    const length = Number(/content-length: *(\d+)/i.exec(buffered.subarray(0, headerEnd).toString("latin1"))?.[1]);
    if (buffered.length < headerEnd + 4 + length) return;
    const message = JSON.parse(buffered.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8"));
    buffered = buffered.subarray(headerEnd + 4 + length);
    if (message.method === undefined) {
      answering.get(message.id)?.(message);
      answering.delete(message.id);
    } else if (message.id !== undefined)
      write({ id: message.id, result: null }); // registerCapability, the refreshes, …
    else if (message.method === "textDocument/publishDiagnostics") diagnostics++;
  }
});

await call("initialize", {
  processId: process.pid,
  rootUri: pathToFileURL(workspace).href,
  workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "examples" }],
  capabilities: {
    textDocument: { publishDiagnostics: { versionSupport: true }, hover: { contentFormat: ["markdown"] } },
    workspace: { inlayHint: { refreshSupport: true }, codeLens: { refreshSupport: true } },
    experimental: { turnlens: { testExplorer: true } },
  },
  initializationOptions: { workspaceTrusted: true },
});
write({ method: "initialized", params: {} });

/** Each open document: its uri, its lines as the client holds them, its version, its tests' names. */
const documents = testFiles.map((file) => {
  const text = readFileSync(file, "utf8");
  const uri = pathToFileURL(file).href;
  write({ method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "typescript", version: 1, text } } });
  const tests = [...text.matchAll(/\btest\(\s*"([^"]+)"/g)].map((match) => match[1]);
  return { uri, name: relative(workspace, file), lines: text.split("\n"), version: 1, tests };
});
// The first runs of the opened files start before the flood, as in an editor that just opened them.
await new Promise((resolve) => setTimeout(resolve, 2000));

const position = (document) => {
  const line = Math.floor(next() * document.lines.length);
  return { line, character: Math.floor(next() * (document.lines[line].length + 1)) };
};
const wholeRange = (document) => ({ start: { line: 0, character: 0 }, end: { line: document.lines.length, character: 0 } });

/** Requests sent: their method, when sent (the one write of the whole flood), when answered. */
const requests = [];
/** The flood's frames, written at once. */
const frames = [];
const request = (method, params) => {
  const entry = { method, sent: undefined, answered: undefined, error: undefined };
  requests.push(entry);
  const id = nextId++;
  answering.set(id, (answer) => {
    entry.answered = performance.now();
    if (answer.error) entry.error = answer.error.message;
  });
  frames.push(frame({ id, method, params }));
};

/** Each kind of message, its share of the flood, and how to send one. */
const KINDS = [
  {
    kind: "didChange",
    weight: 30,
    send(document) {
      // A comment typed at the end of a line: the text stays well formed, the line count the same.
      const line = Math.floor(next() * document.lines.length);
      const at = { line, character: document.lines[line].length };
      const text = ` // ${Math.floor(next() * 1000)}`;
      document.lines[line] += text;
      document.version++;
      frames.push(
        frame({
          method: "textDocument/didChange",
          params: { textDocument: { uri: document.uri, version: document.version }, contentChanges: [{ range: { start: at, end: at }, text }] },
        }),
      );
    },
  },
  { kind: "hover", weight: 20, send: (document) => request("textDocument/hover", { textDocument: { uri: document.uri }, position: position(document) }) },
  { kind: "inlayHint", weight: 15, send: (document) => request("textDocument/inlayHint", { textDocument: { uri: document.uri }, range: wholeRange(document) }) },
  { kind: "codeLens", weight: 10, send: (document) => request("textDocument/codeLens", { textDocument: { uri: document.uri } }) },
  { kind: "completion", weight: 10, send: (document) => request("textDocument/completion", { textDocument: { uri: document.uri }, position: position(document) }) },
  {
    kind: "codeAction",
    weight: 10,
    send(document) {
      const start = position(document);
      request("textDocument/codeAction", { textDocument: { uri: document.uri }, range: { start, end: start }, context: { diagnostics: [] } });
    },
  },
  {
    kind: "executeCommand",
    weight: WITH_RUNS ? 5 : 0,
    send(document) {
      const choice = next();
      if (choice < 0.4) request("workspace/executeCommand", { command: "turnlens.runFile", arguments: [document.uri] });
      else if (choice < 0.8 && document.tests.length > 0)
        request("workspace/executeCommand", { command: "turnlens.runTest", arguments: [document.uri, [pick(document.tests)]] });
      else request("workspace/executeCommand", { command: "turnlens.cancelRuns", arguments: [document.uri] });
    },
  },
];
const totalWeight = KINDS.reduce((sum, kind) => sum + kind.weight, 0);
const sent = Object.fromEntries(KINDS.map((kind) => [kind.kind, 0]));
const chooseKind = () => {
  let roll = next() * totalWeight;
  for (const kind of KINDS) if ((roll -= kind.weight) < 0) return kind;
  return KINDS[0];
};

const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(" ");
console.log(
  `Turnlens server flood: node ${process.version}, ${cpus().length} cores, load ${load}; ${MESSAGES} messages (seed ${SEED}) over ${documents.length} test files of examples/`,
);
const cpuBefore = cpuMs(child.pid);
const floodStarted = performance.now();
for (let index = 0; index < MESSAGES; index++) {
  const kind = chooseKind();
  sent[kind.kind]++;
  kind.send(pick(documents));
}
const flood = frames.join("");
const floodWritten = performance.now();
for (const entry of requests) entry.sent = floodWritten;
child.stdin.write(flood);
const floodSent = performance.now() - floodStarted;

// A bounded wait for the last answers.
const waitStarted = performance.now();
while (requests.some((entry) => entry.answered === undefined) && performance.now() - waitStarted < WAIT_MS && exited === undefined) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const cpuFlood = cpuMs(child.pid) - cpuBefore;
const answered = requests.filter((entry) => entry.answered !== undefined);
const latencies = answered.map((entry) => entry.answered - entry.sent).sort((left, right) => left - right);
const quantile = (q) => (latencies.length === 0 ? Number.NaN : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
const unanswered = requests.length - answered.length;
const errors = answered.filter((entry) => entry.error !== undefined);
const lastAnswer = answered.reduce((last, entry) => Math.max(last, entry.answered), floodStarted) - floodStarted;

const perMethod = {};
for (const entry of answered) (perMethod[entry.method] ??= []).push(entry.answered - entry.sent);
console.log(
  `sent ${Object.entries(sent)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(", ")} (${Math.round(flood.length / 1024)} KB) in one write, ${Math.round(floodSent)} ms after the first was made`,
);
for (const [method, values] of Object.entries(perMethod).sort()) {
  values.sort((left, right) => left - right);
  const at = (q) => Math.round(values[Math.min(values.length - 1, Math.floor(q * values.length))]);
  console.log(`  ${method.padEnd(26)} ${String(values.length).padStart(5)} answered  p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  max ${at(1)} ms`);
}
console.log(
  `requests: ${requests.length}, answered ${answered.length} (${errors.length} with an error), never answered ${unanswered} (waited up to ${WAIT_MS / 1000} s); ` +
    `latency p50 ${Math.round(quantile(0.5))} ms, p99 ${Math.round(quantile(0.99))} ms, max ${Math.round(latencies.at(-1) ?? Number.NaN)} ms; ` +
    `last answer ${Math.round(lastAnswer)} ms after the flood began; the server's own CPU time meanwhile ${Math.round(cpuFlood)} ms; ${diagnostics} diagnostics published`,
);
if (errors.length > 0) console.log(`first errors: ${[...new Set(errors.map((entry) => `${entry.method}: ${entry.error}`))].slice(0, 3).join(" | ")}`);
if (exited !== undefined) console.log(`the server exited (${exited}) during the flood; its stderr:\n${stderr}`);
console.log(
  `load after: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`,
);

const diedInFlood = exited !== undefined;
if (!diedInFlood) {
  await Promise.race([call("shutdown"), new Promise((resolve) => setTimeout(resolve, 5000))]);
  write({ method: "exit" });
}
// The server ends on `exit` (a profile takes a while to write); it is killed past 10 s.
const deadline = performance.now() + 10_000;
while (exited === undefined && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
process.exit(unanswered === 0 && !diedInFlood ? 0 : 1);
