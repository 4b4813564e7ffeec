// `npm run bench`'s runner part (goals P5 and P6 of issue 13): `turnlens test`, `bun test` and
// `vitest run --no-isolate` on the same generated files (1,000 × 10 one-turn tests, and 10 and 100
// for linearity) and on examples/, each served the same modules, run interleaved several times.
// Prints medians, the peak resident memory of each run's whole process tree, ratios and the load.
// Flags: --quick (10 and 100 files, one round), --rounds=N, --sizes=10,100,1000, --keep (leave the
// corpus folder), --turnlens-only (no peers: for profiling Turnlens alone; prints no goal line).

import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./bundleAndRun.mjs";
import { writeCorpus, writeExamplesCorpus } from "./peerCorpus.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const keep = args.includes("--keep");
const roundsArg = args.find((arg) => arg.startsWith("--rounds="));
const rounds = roundsArg ? Number(roundsArg.slice("--rounds=".length)) : quick ? 1 : 3;
const sizesArg = args.find((arg) => arg.startsWith("--sizes="));
const sizes = sizesArg ? sizesArg.slice("--sizes=".length).split(",").map(Number) : quick ? [10, 100] : [10, 100, 1000];

const bin = join(root, "node_modules", ".bin");
/** How each runner is started, in a corpus folder whose test files are under `tests`. */
const runners = {
  turnlens: (tests) => [process.execPath, [join(root, "bin", "turnlens.mjs"), "test", tests]],
  "bun test": (tests) => [join(bin, "bun"), ["test", tests]],
  "vitest --no-isolate": (tests) => [process.execPath, [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--no-isolate", tests]],
};
const turnlensOnly = args.includes("--turnlens-only");
const peerNames = turnlensOnly ? ["turnlens"] : Object.keys(runners);

/** Every pid below `pid` (by parent pid, from /proc), `pid` included. */
function tree(pid) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // gone
    }
  }
  const found = [];
  const stack = [pid];
  while (stack.length > 0) {
    const next = stack.pop();
    found.push(next);
    stack.push(...(children.get(next) ?? []));
  }
  return found;
}

function rssBytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "latin1");
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The runner being measured now. */
let running;

/** Runs one runner once in `cwd`; resolves with its wall time, the tree's peak RSS and its exit code. */
function runOnce(name, cwd, tests) {
  const [command, commandArgs] = runners[name](tests);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, commandArgs, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", CI: "1" } });
    running = child;
    let output = "";
    child.stdout.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
    child.stderr.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
    let peak = 0;
    // Sampled every 50 ms: the whole tree (workers, esbuild's services, vitest's forks, bun).
    const sampler = setInterval(() => {
      if (child.pid === undefined) return;
      const total = tree(child.pid).reduce((sum, pid) => sum + rssBytes(pid), 0);
      if (total > peak) peak = total;
    }, 50);
    child.on("error", (error) => {
      clearInterval(sampler);
      reject(error);
    });
    child.on("close", (code) => {
      clearInterval(sampler);
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) reject(new Error(`${name} exited with ${code} in ${cwd}:\n${output}`));
      else resolve({ seconds, peakBytes: peak });
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Each runner `rounds` times over `cwd`, interleaved (turnlens, bun, vitest, turnlens, …). */
async function measure(label, cwd, tests, names) {
  const samples = Object.fromEntries(names.map((name) => [name, { seconds: [], peakBytes: [] }]));
  const loads = [];
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      loads.push(loadavg()[0]);
      const sample = await runOnce(name, cwd, tests);
      if (rounds > 1)
        console.log(
          `    ${label} ${name} round ${round + 1}: ${sample.seconds.toFixed(2)} s, peak RSS ${(sample.peakBytes / 1048576).toFixed(0)} MiB, load ${loads[loads.length - 1].toFixed(1)}`,
        );
      else
        console.log(
          `    ${label} ${name}: ${sample.seconds.toFixed(2)} s, peak RSS ${(sample.peakBytes / 1048576).toFixed(0)} MiB, load ${loads[loads.length - 1].toFixed(1)}`,
        );
      samples[name].seconds.push(sample.seconds);
      samples[name].peakBytes.push(sample.peakBytes);
    }
  }
  const result = {};
  for (const name of names) {
    result[name] = { seconds: median(samples[name].seconds), peakMiB: Math.max(...samples[name].peakBytes) / 1048576, all: samples[name].seconds };
    console.log(
      `  ${label.padEnd(14)} ${name.padEnd(20)} median ${result[name].seconds.toFixed(2)} s  (runs ${samples[name].seconds.map((s) => s.toFixed(2)).join(", ")})  peak RSS ${result[name].peakMiB.toFixed(0)} MiB`,
    );
  }
  result.load = median(loads);
  return result;
}

const seconds = (value) => (value < 10 ? `${value.toFixed(2)} s` : `${value.toFixed(1)} s`);
const verdict = (met) => (met ? "met" : "NOT met");

const scratch = mkdtempSync(join(tmpdir(), "turnlens-peers-"));
// Stopped with Ctrl-C or a kill: the runner being measured is stopped, and the corpus goes all the same.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    running?.kill("SIGTERM");
    if (!keep) rmSync(scratch, { recursive: true, force: true });
    process.exit(130);
  });
}
try {
  await main();
} finally {
  if (keep) console.log(`corpus kept in ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}

async function main() {
  console.log(`runner peers: ${rounds} interleaved round(s) each, corpus in ${scratch}`);
  const bySize = {};
  for (const size of sizes) {
    const dir = join(scratch, `files${size}`);
    writeCorpus(dir, root, size);
    bySize[size] = await measure(`${size} files`, dir, "tests", peerNames);
  }
  if (turnlensOnly) return;
  const examplesDir = join(scratch, "examples");
  writeExamplesCorpus(examplesDir, root);
  const examples = await measure("examples/", examplesDir, "examples", ["turnlens", "bun test"]);

  const largest = sizes[sizes.length - 1];
  const big = bySize[largest];
  const tl = big.turnlens;
  const bunRatio = tl.seconds / big["bun test"].seconds;
  const vitestRatio = tl.seconds / big["vitest --no-isolate"].seconds;
  const steps = sizes.slice(1).map((size, i) => bySize[size].turnlens.seconds / bySize[sizes[i]].turnlens.seconds);
  const linear = steps.length > 0 && steps.every((step) => step <= 10);
  const load = big.load.toFixed(1);
  const suffix = largest === 1000 ? "" : ` (${largest} files${quick ? ": --quick" : ", not 1,000"})`;
  console.log("");
  console.log(
    `goal P5 · turnlens ${seconds(tl.seconds)} · bun test ${seconds(big["bun test"].seconds)} · ratio ${bunRatio.toFixed(2)} (target < 1) · ${verdict(bunRatio < 1)} · load ${load}${suffix}`,
  );
  console.log(
    `goal P5 · turnlens ${seconds(tl.seconds)} · vitest run --no-isolate ${seconds(big["vitest --no-isolate"].seconds)} · ratio ${vitestRatio.toFixed(2)} (target ≤ 0.5) · ${verdict(vitestRatio <= 0.5)} · load ${load}${suffix}`,
  );
  console.log(
    `goal P5 · turnlens peak RSS ${tl.peakMiB.toFixed(0)} MiB · bun test ${big["bun test"].peakMiB.toFixed(0)} MiB · vitest ${big["vitest --no-isolate"].peakMiB.toFixed(0)} MiB · target < 400 MiB · ${verdict(tl.peakMiB < 400)} · load ${load}${suffix}`,
  );
  const stepsText = steps.length > 0 ? steps.map((step) => `${step.toFixed(1)}×`).join(", ") : "none (one size measured)";
  console.log(
    `goal P5 · turnlens ${sizes.map((size) => `${size} files ${seconds(bySize[size].turnlens.seconds)}`).join(" → ")} · steps ${stepsText} (target ≤ 10× each) · ${verdict(linear)} · load ${load}`,
  );
  const exampleRatio = examples.turnlens.seconds / examples["bun test"].seconds;
  console.log(
    `goal P6 · turnlens ${seconds(examples.turnlens.seconds)} · bun test ${seconds(examples["bun test"].seconds)} · ratio ${exampleRatio.toFixed(2)} (target < 1) · ${verdict(exampleRatio < 1)} · load ${examples.load.toFixed(1)}`,
  );
}
