// `node bench/soak.mjs` (after `npm run build`): the language server soaked through its stdio protocol
// as an editor drives it, edit → run, 1,000 times; then 200 more on a test file holding a 4 MB literal.
// It reports the resident memory of the server and of its workers, their processes, open fds and
// temporary entries at the start and the end, how many workers were recycled, and what is left once
// the server exited. Every process of the server's tree carries a tag in its environment, so the
// counts see detached and re-parented ones too. Results: BENCHMARKS.md.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import protocol from "vscode-languageserver-protocol/node";

const { createProtocolConnection, StreamMessageReader, StreamMessageWriter } = protocol;
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const given = args.find((arg) => arg.startsWith(`--${name}=`));
  return given ? Number(given.slice(name.length + 3)) : fallback;
};
/** Flags: --cycles=N (default 1000), --literal-cycles=N (default 200), --workers=N (default 2). */
const CYCLES = flag("cycles", 1000);
const LITERAL_CYCLES = flag("literal-cycles", 200);
const WORKERS = flag("workers", 2);
const TAG = `soak-${process.pid}`;
// The user's private temporary folder (core/tempFolder/tempFiles.ts): a subfolder per process, `<pid>.<start>.<namespace>.<boot>`.
const TEMP_ROOT = join(tmpdir(), `turnlens-${process.getuid?.()}`);

// ---------------------------------------------------------------------------------------------
// The tree, read from /proc.

function tagged() {
  const pids = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const line = readFileSync(`/proc/${name}/environ`, "latin1")
        .split("\0")
        .find((entry) => entry.startsWith("TURNLENS_TREES="));
      if (line?.slice("TURNLENS_TREES=".length).split(":").includes(TAG)) pids.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

const command = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ");
  } catch {
    return "";
  }
};
const rssMb = (pid) => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1] ?? 0);
    return Math.round(kb / 102.4) / 10;
  } catch {
    return 0;
  }
};
const fds = (pid) => {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
};

/** Temporary entries made by the tree's processes: each one's files and run folders, in its subfolder. */
function tempEntries(pids) {
  const owners = new Set(pids.map(String));
  let count = 0;
  try {
    for (const name of readdirSync(TEMP_ROOT)) if (owners.has(name.split(".")[0])) count += readdirSync(join(TEMP_ROOT, name)).length;
  } catch {
    // no temporary folder yet
  }
  return count;
}

function snapshot(server) {
  const pids = tagged();
  const workers = pids.filter((pid) => command(pid).includes("worker.mjs"));
  return {
    serverRssMb: rssMb(server),
    workerRssMb: workers.map(rssMb),
    processes: pids.length,
    serverFds: fds(server),
    workerFds: workers.map(fds),
    tempEntries: tempEntries(pids),
    workers,
  };
}

// ---------------------------------------------------------------------------------------------
// The client.

const server = spawn(process.execPath, [join(root, "dist", "server.js"), "--stdio"], {
  cwd: root,
  stdio: ["pipe", "pipe", "inherit"],
  env: { ...process.env, TURNLENS_TREES: process.env.TURNLENS_TREES ? `${process.env.TURNLENS_TREES}:${TAG}` : TAG },
});
const exited = new Promise((resolve) => server.on("exit", (code, signal) => resolve(signal ?? code)));
const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
const waiters = new Set();
const logs = [];
connection.onNotification("textDocument/publishDiagnostics", (params) => {
  for (const waiter of waiters) waiter(params);
});
connection.onNotification("window/logMessage", (params) => logs.push(params.message));
connection.onNotification(() => {});
connection.onRequest(() => null);
connection.listen();

await connection.sendRequest("initialize", {
  processId: process.pid,
  rootUri: pathToFileURL(root).href,
  capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } },
  initializationOptions: { settings: { debounceMs: 0, workers: WORKERS } },
});
await connection.sendNotification("initialized", {});

/** Resolves with the diagnostics of `version` once its run published them (a runtime code is among them). */
function runOf(uri, version, code) {
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error(`no run of version ${version} within 60 s`)), 60_000);
    const waiter = (params) => {
      if (params.uri !== uri || params.version !== version || !params.diagnostics.some((diagnostic) => diagnostic.code === code)) return;
      clearTimeout(timeout);
      waiters.delete(waiter);
      resolve(params);
    };
    waiters.add(waiter);
  });
}

async function soak(label, path, text, cycles, code) {
  const uri = pathToFileURL(path).href;
  let version = 1;
  const opened = runOf(uri, version, code);
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version, text } });
  await opened;
  const seen = new Set();
  let peakWorkerRssMb = 0;
  let peakServerRssMb = 0;
  // Ten cycles first, so the start is a warm server with its workers up.
  for (let warm = 0; warm < 10; warm++) await cycle();
  const start = snapshot(server.pid);
  const started = performance.now();
  for (let n = 0; n < cycles; n++) {
    await cycle();
    if (n % 20 === 0) {
      const now = snapshot(server.pid);
      for (const pid of now.workers) seen.add(pid);
      peakWorkerRssMb = Math.max(peakWorkerRssMb, ...now.workerRssMb);
      peakServerRssMb = Math.max(peakServerRssMb, now.serverRssMb);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const end = snapshot(server.pid);
  for (const pid of [...start.workers, ...end.workers]) seen.add(pid);
  await connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  return { label, cycles, seconds: Math.round(seconds * 10) / 10, start, end, workersSeen: seen.size, peakWorkerRssMb, peakServerRssMb };

  async function cycle() {
    version++;
    const ran = runOf(uri, version, code);
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text: `${text}// edit ${version}\n` }] });
    await ran;
  }
}

const mistake = join(root, "examples", "mistakes", "turn-past-list.test.ts");
const results = [await soak("edit → run of a one-test file", mistake, readFileSync(mistake, "utf8"), CYCLES, "list-exhausted")];
if (LITERAL_CYCLES > 0) {
  const literal = [
    'import { expect, test } from "bun:test";',
    `const big = ${JSON.stringify("x".repeat(4 * 1024 * 1024))};`,
    'test("holds a 4 MB literal", () => {',
    "  expect(big.length).toBe(0);",
    "});",
    "",
  ].join("\n");
  results.push(
    await soak(
      "edit → run of a file holding a 4 MB literal",
      join(root, "examples", "mistakes", "virtual-soak-literal.test.ts"),
      literal,
      LITERAL_CYCLES,
      "expect-failed",
    ),
  );
}

const beforeExit = tagged();
await connection.sendRequest("shutdown");
await connection.sendNotification("exit");
const code = await exited;
await new Promise((resolve) => setTimeout(resolve, 500));
const left = tagged();
const after = { exitCode: code, processesLeft: left.length, tempEntriesLeft: tempEntries([server.pid, ...beforeExit]) };

const recycled = logs.filter((line) => line.includes("recycled after")).length;
const show = (s) =>
  `server ${s.serverRssMb} MB, workers ${s.workerRssMb.join(" / ") || "-"} MB; ${s.processes} processes; fds server ${s.serverFds}, workers ${s.workerFds.join(" / ")}; ${s.tempEntries} temp entries`;
console.log(
  `load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(" ")}; ${WORKERS} workers`,
);
for (const result of results) {
  console.log(
    `\n${result.label}: ${result.cycles} cycles in ${result.seconds} s (${Math.round((result.seconds * 1000) / result.cycles)} ms a cycle), ${result.workersSeen} worker processes seen`,
  );
  console.log(`  start: ${show(result.start)}`);
  console.log(`  end:   ${show(result.end)}`);
  console.log(`  peak (sampled every 20 cycles): server ${result.peakServerRssMb} MB, a worker ${result.peakWorkerRssMb} MB`);
}
console.log(`\nworkers recycled: ${recycled}`);
console.log(`after shutdown + exit: exit code ${after.exitCode}, ${after.processesLeft} processes left, ${after.tempEntriesLeft} temp entries left`);
if (args.includes("--json")) console.log(JSON.stringify({ results, recycled, after }));
connection.dispose();
