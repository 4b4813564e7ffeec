// `npm run bench`'s runner part (issue 29's goals P5 and P6, and the 100,000-test suite): `turnlens
// test`, `bun test` and `vitest run --no-isolate` on the same generated files (100 and 1,000 × 10
// one-turn tests), `turnlens test` and `bun test` on examples/ and on a generated suite of 100,000
// tests, each served the same modules, run interleaved several times. Prints medians, the peak
// resident memory of each run's whole process tree, its CPU time (user + sys, by GNU time), the ratios (bun ÷ turnlens: above 1, Turnlens is
// faster) and the load, one `goal` line per goal.
// Flags: --quick (100 files, one round, the suite at a tenth), --rounds=N, --sizes=100,1000,
// --goals=P5,P6,suite (only those), --suite-files=N (the suite's files: 100,000 tests in N files,
// default 1,000), --suite-limit=S (bun test on the suite is stopped after S seconds, default 600), --keep (leave the corpus folder), --turnlens-only (no peers: for profiling
// Turnlens alone; prints no goal line).

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./bundleAndRun.mjs";
import { median } from "./median.mjs";
import { writeCorpus, writeExamplesCorpus } from "./peerCorpus.mjs";

const args = process.argv.slice(2);
if (args.includes("--help")) {
  // The comment atop this file is the help.
  const text = readFileSync(new URL(import.meta.url), "utf8");
  console.log(text.slice(0, text.indexOf("\n\n")).replace(/^\/\/ ?/gm, ""));
  process.exit(0);
}
const quick = args.includes("--quick");
const keep = args.includes("--keep");
const roundsArg = args.find((arg) => arg.startsWith("--rounds="));
const rounds = roundsArg ? Number(roundsArg.slice("--rounds=".length)) : quick ? 1 : 3;
const sizesArg = args.find((arg) => arg.startsWith("--sizes="));
const sizes = sizesArg ? sizesArg.slice("--sizes=".length).split(",").map(Number) : quick ? [100] : [100, 1000];
/** The goals this script measures, and which of them to run (--goals=; names are case-insensitive). */
const GOALS = ["P5", "P6", "suite"];
const goalsArg = args.find((arg) => arg.startsWith("--goals="));
const goals = goalsArg ? GOALS.filter((goal) => goalsArg.slice("--goals=".length).toLowerCase().split(",").includes(goal.toLowerCase())) : GOALS;
/** The suite: 100,000 one-turn tests (a tenth with --quick) in `suiteFiles` files of equal size. */
const SUITE_TESTS = quick ? 10_000 : 100_000;
const suiteFilesArg = args.find((arg) => arg.startsWith("--suite-files="));
const suiteFiles = suiteFilesArg ? Number(suiteFilesArg.slice("--suite-files=".length)) : quick ? 100 : 1000;
/** How long the suite's peer may run before it is stopped and reported as not finished (--suite-limit=seconds). */
const suiteLimitArg = args.find((arg) => arg.startsWith("--suite-limit="));
const suiteLimitSeconds = suiteLimitArg ? Number(suiteLimitArg.slice("--suite-limit=".length)) : quick ? 120 : 600;

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
/**
 * GNU time, when the machine has it: the CPU time (user + sys) of the whole tree a runner waited
 * for, which a shared machine's load skews far less than wall time.
 */
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

function runOnce(name, cwd, tests, limitMs) {
  const [runner, runnerArgs] = runners[name](tests);
  const cpuFile = join(scratch, `cpu-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const [command, commandArgs] = TIME ? [TIME, ["-f", "%U %S", "-o", cpuFile, runner, ...runnerArgs]] : [runner, runnerArgs];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, commandArgs, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", CI: "1" } });
    running = child;
    // Past its limit a run is stopped and counted as not finished (the suite's peer, which may take long).
    let overran = false;
    const limit =
      limitMs === undefined
        ? undefined
        : setTimeout(() => {
            overran = true;
            child.kill("SIGKILL");
          }, limitMs);
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
      clearTimeout(limit);
      const seconds = (performance.now() - started) / 1000;
      let cpuSeconds = Number.NaN;
      try {
        const [user, sys] = readFileSync(cpuFile, "utf8").trim().split("\n").at(-1).split(" ").map(Number);
        cpuSeconds = user + sys;
        rmSync(cpuFile, { force: true });
      } catch {
        // no GNU time, or the run was stopped
      }
      if (overran) resolve({ seconds, cpuSeconds, peakBytes: peak, overran });
      else if (code !== 0) reject(new Error(`${name} exited with ${code} in ${cwd}:\n${output}`));
      else resolve({ seconds, cpuSeconds, peakBytes: peak });
    });
  });
}

/** Each runner `rounds` times over `cwd`, interleaved (turnlens, bun, vitest, turnlens, …). */
async function measure(label, cwd, tests, names, times = rounds) {
  const samples = Object.fromEntries(names.map((name) => [name, { seconds: [], cpuSeconds: [], peakBytes: [] }]));
  const loads = [];
  for (let round = 0; round < times; round++) {
    for (const name of names) {
      loads.push(loadavg()[0]);
      const sample = await runOnce(name, cwd, tests);
      if (times > 1)
        console.log(
          `    ${label} ${name} round ${round + 1}: ${sample.seconds.toFixed(2)} s (CPU ${sample.cpuSeconds.toFixed(2)} s), peak RSS ${(sample.peakBytes / 1048576).toFixed(0)} MiB, load ${loads[loads.length - 1].toFixed(1)}`,
        );
      else
        console.log(
          `    ${label} ${name}: ${sample.seconds.toFixed(2)} s (CPU ${sample.cpuSeconds.toFixed(2)} s), peak RSS ${(sample.peakBytes / 1048576).toFixed(0)} MiB, load ${loads[loads.length - 1].toFixed(1)}`,
        );
      samples[name].seconds.push(sample.seconds);
      samples[name].cpuSeconds.push(sample.cpuSeconds);
      samples[name].peakBytes.push(sample.peakBytes);
    }
  }
  const result = {};
  for (const name of names) {
    result[name] = {
      seconds: median(samples[name].seconds),
      cpuSeconds: median(samples[name].cpuSeconds),
      peakMiB: Math.max(...samples[name].peakBytes) / 1048576,
      all: samples[name].seconds,
    };
    console.log(
      `  ${label.padEnd(14)} ${name.padEnd(20)} median ${result[name].seconds.toFixed(2)} s, CPU ${result[name].cpuSeconds.toFixed(2)} s  (runs ${samples[name].seconds.map((s) => s.toFixed(2)).join(", ")})  peak RSS ${result[name].peakMiB.toFixed(0)} MiB`,
    );
  }
  result.load = median(loads);
  return result;
}

const seconds = (value) => (value < 10 ? `${value.toFixed(2)} s` : `${value.toFixed(1)} s`);
const verdict = (met) => (met ? "met" : "NOT met");
const mib = (bytes) => `${bytes.toFixed(0)} MiB`;
/** A runner's wall time and, when measured, its tree's CPU time (user + sys). */
const timed = (run) => (Number.isNaN(run.cpuSeconds) ? seconds(run.seconds) : `${seconds(run.seconds)} (CPU ${seconds(run.cpuSeconds)})`);
/** The CPU ratio beside the wall one, when both CPU times were measured. */
const cpuRatio = (peer, tl) => (Number.isNaN(peer.cpuSeconds / tl.cpuSeconds) ? "" : ` · CPU ratio ${(peer.cpuSeconds / tl.cpuSeconds).toFixed(2)}`);

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
  const roundGoals = goals.filter((goal) => goal !== "suite");
  const roundsSaid = roundGoals.length > 0 || turnlensOnly ? `${rounds} interleaved round(s) each` : "";
  const suiteSaid = goals.includes("suite") ? "the suite once" : "";
  console.log(`runner peers: ${[roundsSaid, suiteSaid].filter(Boolean).join(", ")}, goals ${goals.join(", ")}, corpus in ${scratch}`);
  const lines = [];
  // P5: each size under the three runners; the time against bun test, the memory against vitest --no-isolate.
  if (goals.includes("P5") || turnlensOnly) {
    for (const size of sizes) {
      const dir = join(scratch, `files${size}`);
      writeCorpus(dir, root, size);
      const at = await measure(`${size} files`, dir, "tests", peerNames);
      if (turnlensOnly) continue;
      const tl = at.turnlens;
      const bun = at["bun test"];
      const vitest = at["vitest --no-isolate"];
      const ratio = bun.seconds / tl.seconds;
      const load = at.load.toFixed(1);
      const size10 = `${size.toLocaleString("en-US")} files × 10 tests`;
      lines.push(
        `goal P5 ${size10} · turnlens ${timed(tl)} · bun test ${timed(bun)} · vitest run --no-isolate ${timed(vitest)} · ratio bun ÷ turnlens ${ratio.toFixed(2)} (target ≥ 1.0)${cpuRatio(bun, tl)} · ${verdict(ratio >= 1)} · load ${load}`,
        `goal P5 ${size10}, peak memory of the whole tree · turnlens ${mib(tl.peakMiB)} · vitest run --no-isolate ${mib(vitest.peakMiB)} · bun test ${mib(bun.peakMiB)} · ratio vitest ÷ turnlens ${(vitest.peakMiB / tl.peakMiB).toFixed(2)} (target ≥ 1.0) · ${verdict(tl.peakMiB <= vitest.peakMiB)} · load ${load}`,
      );
    }
    if (!turnlensOnly && !sizes.includes(1000)) lines.push(`goal P5 1,000 files × 10 tests · not measured (${quick ? "--quick" : `--sizes=${sizes.join(",")}`})`);
  }
  if (turnlensOnly) return;
  if (goals.includes("P6")) {
    const examplesDir = join(scratch, "examples");
    writeExamplesCorpus(examplesDir, root);
    const examples = await measure("examples/", examplesDir, "examples", ["turnlens", "bun test"]);
    const ratio = examples["bun test"].seconds / examples.turnlens.seconds;
    lines.push(
      `goal P6 examples/ · turnlens ${timed(examples.turnlens)} · bun test ${timed(examples["bun test"])} · ratio bun ÷ turnlens ${ratio.toFixed(2)} (target ≥ 1.0)${cpuRatio(examples["bun test"], examples.turnlens)} · ${verdict(ratio >= 1)} · load ${examples.load.toFixed(1)}`,
    );
  }
  // The suite: one round (it is long); tests per second is the suite's tests over the command's wall time.
  if (goals.includes("suite")) {
    const perFile = Math.round(SUITE_TESTS / suiteFiles);
    const total = perFile * suiteFiles;
    const dir = join(scratch, "suite");
    writeCorpus(dir, root, suiteFiles, perFile);
    const label = `${total.toLocaleString("en-US")} tests`;
    const load = loadavg()[0];
    const tl = await runOnce("turnlens", dir, "tests");
    console.log(`    ${label} turnlens: ${timed(tl)}, peak RSS ${mib(tl.peakBytes / 1048576)}, load ${load.toFixed(1)}`);
    const bunLoad = loadavg()[0];
    const bun = await runOnce("bun test", dir, "tests", suiteLimitSeconds * 1000);
    console.log(`    ${label} bun test: ${bun.overran ? "stopped after " : ""}${timed(bun)}, peak RSS ${mib(bun.peakBytes / 1048576)}, load ${bunLoad.toFixed(1)}`);
    const rate = (run) => Math.round(total / run.seconds).toLocaleString("en-US");
    const bunText = bun.overran
      ? `bun test did not finish within ${suiteLimitSeconds} s (stopped; --suite-limit=) · ratio bun ÷ turnlens above ${(bun.seconds / tl.seconds).toFixed(2)}`
      : `bun test ${timed(bun)}, ${rate(bun)} tests/s, peak ${mib(bun.peakBytes / 1048576)} · ratio bun ÷ turnlens ${(bun.seconds / tl.seconds).toFixed(2)}${cpuRatio(bun, tl)}`;
    lines.push(
      `goal suite ${total.toLocaleString("en-US")} tests (${suiteFiles.toLocaleString("en-US")} files × ${perFile}) · turnlens ${timed(tl)}, ${rate(tl)} tests/s, peak ${mib(tl.peakBytes / 1048576)} · ${bunText} (reported, no target) · load ${((load + bunLoad) / 2).toFixed(1)}`,
    );
  }
  console.log("");
  for (const line of lines) console.log(line);
}
