// `node bench/resultCache.mjs [--rounds=3] [--suite]`: issue 30's result cache. On a copy of
// examples/ and on a generated suite of 10,000 one-turn tests (100 files × 100), a first run with
// `--cache` and an empty cache, then a second with nothing changed: the process's wall time and
// the run's own (its "N files in Xs"), each ratio, medians over the rounds. `--suite`: the
// 100,000-test suite (1,000 files × 100) once, first run and cached rerun, with tests per second.
// Needs dist/ (npm run build).

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./bundleAndRun.mjs";
import { median } from "./median.mjs";
import { writeCorpus, writeExamplesCorpus } from "./peerCorpus.mjs";

const args = process.argv.slice(2);
const ROUNDS = Number(args.find((arg) => arg.startsWith("--rounds="))?.slice("--rounds=".length) ?? 3);

/**
 * `turnlens test ...args` in `cwd`: its wall time in ms (the process's, from spawn to exit), the
 * run's own time as it reports it (`12 files in 0.03s`: from the reporters' start to the end, after
 * Node's and the CLI's start and the search for test files), and the cache's line.
 */
function turnlens(args, cwd) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bin", "turnlens.mjs"), "test", ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", CI: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`turnlens test ${args.join(" ")} exited ${code}\n${stderr}`));
      else {
        const run = /(\d+) files? in ([\d.]+)s/.exec(stdout + stderr);
        if (!run) reject(new Error(`turnlens test ${args.join(" ")} printed no "N files in Xs" line\n${stdout}`));
        else resolve({ ms: performance.now() - started, runMs: Number(run[2]) * 1000, line: stderr.split("\n").find((line) => line.startsWith("cache: ")) ?? "" });
      }
    });
  });
}

/** First run and cached rerun of `paths` in `dir`, `rounds` times, the cache emptied before each. */
async function measure(name, dir, paths, tests, rounds) {
  const cache = join(dir, "cache");
  const firsts = [];
  const seconds = [];
  for (let round = 1; round <= rounds; round++) {
    rmSync(cache, { recursive: true, force: true });
    const first = await turnlens([...paths, "--cache.dir", cache], dir);
    const second = await turnlens([...paths, "--cache.dir", cache], dir);
    firsts.push(first);
    seconds.push(second);
    console.log(
      `${name} round ${round}: first ${inSeconds(first.ms)} (the run ${inSeconds(first.runMs)}; ${first.line}), cached ${inSeconds(second.ms)} (the run ${inSeconds(second.runMs)}; ${second.line}) · load ${loadavg()[0].toFixed(1)}`,
    );
  }
  const first = median(firsts.map((run) => run.ms));
  const second = median(seconds.map((run) => run.ms));
  const firstRun = median(firsts.map((run) => run.runMs));
  const secondRun = median(seconds.map((run) => run.runMs));
  const rate = (ms) => Math.round(tests / (ms / 1000)).toLocaleString("en-US");
  console.log(
    `cache ${name} · first run ${inSeconds(first)} (${rate(first)} tests/s; the run itself ${inSeconds(firstRun)}) · cached rerun ${inSeconds(second)} (${rate(second)} tests/s; the run itself ${inSeconds(secondRun)}) · cached ÷ first: process ${(second / first).toFixed(3)}, the run itself ${(secondRun / firstRun).toFixed(3)} (target < 0.10) · medians of ${rounds} · load ${loadavg()[0].toFixed(1)}`,
  );
}

const inSeconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

const scratch = mkdtempSync(join(tmpdir(), "turnlens-bench-cache-"));
try {
  if (args.includes("--suite")) {
    const dir = join(scratch, "suite");
    writeCorpus(dir, root, 1000, 100);
    await measure("100,000 tests (1,000 files × 100)", dir, ["tests"], 100_000, 1);
  } else {
    const examples = join(scratch, "examples");
    writeExamplesCorpus(examples, root);
    await measure("examples/ (38 tests)", examples, ["examples"], 38, ROUNDS);
    const suite = join(scratch, "suite");
    writeCorpus(suite, root, 100, 100);
    await measure("10,000 tests (100 files × 100)", suite, ["tests"], 10_000, ROUNDS);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
