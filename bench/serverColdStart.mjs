// A cold language server's phases, over its stdio protocol: `node bench/serverColdStart.mjs
// [--starts=N] [--warm-cache] [--run-all-first] [--root=DIR] [--cpu-prof=DIR]` starts dist/server.js N times on a copy of
// examples/ (each with a fresh temporary folder: no code cache, as a first window has, unless
// --warm-cache), opens summarize/summarize.test.ts and asks for its lenses until one has a result,
// and prints the server's own start line (server/startTimeline.ts) and the medians of each phase.
// --run-all-first asks the Test Explorer's Run All (every test file) before the document opens.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";

const args = process.argv.slice(2);
// --root=DIR: another tree's build (the base of an A/B), this script's own by default.
const root = resolve(args.find((arg) => arg.startsWith("--root="))?.slice("--root=".length) ?? join(import.meta.dirname, ".."));
const SERVER = join(root, "dist/server.js");
// --cpu-prof=DIR: a CPU profile of each server process (not its workers) written to DIR.
const profileDir = args.find((arg) => arg.startsWith("--cpu-prof="))?.slice("--cpu-prof=".length);
const starts = Number(args.find((arg) => arg.startsWith("--starts="))?.split("=")[1] ?? 3);
const warmCache = args.includes("--warm-cache");
const runAllFirst = args.includes("--run-all-first");
const FILE = "summarize/summarize.test.ts";

async function start(cacheDir) {
  const workspace = mkdtempSync(join(tmpdir(), "turnlens-cold-ws-"));
  cpSync(join(root, "examples"), workspace, { recursive: true });
  const spawned = performance.now();
  const child = spawn(process.execPath, [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${resolve(profileDir)}`] : []), SERVER, "--stdio"], {
    cwd: workspace,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, TMPDIR: cacheDir },
  });
  child.stderr.on("data", () => {});
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const log = [];
  let startLine;
  let gotLine;
  const lineSeen = new Promise((resolve) => (gotLine = resolve));
  connection.onNotification("window/logMessage", ({ message }) => {
    log.push(message);
    if (message.startsWith("start (")) {
      startLine = message;
      gotLine();
    }
  });
  connection.onNotification(() => {});
  connection.onRequest(() => null);
  connection.listen();
  const rootUri = pathToFileURL(workspace).href;
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: "examples" }],
    capabilities: { workspace: { codeLens: { refreshSupport: true }, configuration: false }, experimental: { turnlens: { testExplorer: true } } },
    initializationOptions: { workspaceTrusted: true, settings: { logLevel: "info" } },
  });
  const initialized = performance.now() - spawned;
  connection.sendNotification("initialized", {});
  if (runAllFirst) {
    // The explorer's Run All: every test file the server lists, by id (not open: run from disk).
    const { files } = await connection.sendRequest("turnlens/testFiles", { folders: [rootUri] });
    await connection.sendRequest("turnlens/runTests", { runId: "all", include: files });
  }
  const uri = pathToFileURL(join(workspace, FILE)).href;
  const opened = performance.now() - spawned;
  connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text: readFileSync(join(workspace, FILE), "utf8") } });
  let lensed;
  let serverCpu;
  /** How long each codeLens request took to be answered (VS Code's lens debounce is their average). */
  const answers = [];
  for (;;) {
    const asked = performance.now();
    const lenses = await connection.sendRequest("textDocument/codeLens", { textDocument: { uri } });
    answers.push(performance.now() - asked);
    if ((lenses ?? []).some((lens) => /^[✓✗]/.test(lens.command?.title ?? ""))) {
      lensed = performance.now() - spawned;
      serverCpu = cpuMsOf(child.pid);
      break;
    }
    if (performance.now() - spawned > 120_000) throw new Error(`no result lens in 120 s; the log:\n${log.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await Promise.race([lineSeen, new Promise((resolve) => setTimeout(resolve, 2000))]);
  child.kill("SIGTERM");
  rmSync(workspace, { recursive: true, force: true });
  return { initialized, opened, lensed, serverCpu, startLine, log, answers };
}

/** The CPU time (user + system, ms) the process `pid` has used so far, its children not counted; undefined off Linux. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sharedCache = mkdtempSync(join(tmpdir(), "turnlens-cold-cache-"));
const rows = [];
for (let index = 0; index < starts + (warmCache ? 1 : 0); index++) {
  const cache = warmCache ? sharedCache : mkdtempSync(join(tmpdir(), "turnlens-cold-cache-"));
  const load = loadavg()[0].toFixed(1);
  const result = await start(cache);
  if (!warmCache) rmSync(cache, { recursive: true, force: true });
  if (warmCache && index === 0) continue; // the start that writes the cache
  const phases = Object.fromEntries([...(result.startLine ?? "").matchAll(/([A-Za-z' ]+?) (\d+)(?: ·|$)/g)].map((match) => [match[1].trim(), Number(match[2])]));
  rows.push({ ...result, phases });
  console.log(
    `load ${load}: initialize answered ${Math.round(result.initialized)} ms, the result lens ${Math.round(result.lensed)} ms after the spawn; the server process's CPU by then ${result.serverCpu} ms`,
  );
  console.log(`  ${result.startLine}`);
  const sorted = [...result.answers].sort((a, b) => a - b);
  console.log(
    `  ${sorted.length} codeLens requests: median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms (the first: ${result.answers[0].toFixed(1)} ms)`,
  );
}
rmSync(sharedCache, { recursive: true, force: true });
const names = [...new Set(rows.flatMap((row) => Object.keys(row.phases)))];
console.log(`medians of ${rows.length} (${warmCache ? "code cache written" : "no code cache"}${runAllFirst ? ", Run All first" : ""}), ms after the process began:`);
for (const name of names) console.log(`  ${name.padEnd(28)} ${median(rows.flatMap((row) => row.phases[name] ?? []))}`);
console.log(`  ${"result lens (client)".padEnd(28)} ${Math.round(median(rows.map((row) => row.lensed)))} (after the spawn)`);
const cpus = rows.flatMap((row) => row.serverCpu ?? []);
if (cpus.length > 0) console.log(`  ${"server CPU by the lens".padEnd(28)} ${median(cpus)} (user + system of the server process, its workers not counted)`);
