// `node bench/shards.mjs [--files=400] [--shards=8] [--rounds=3]`: issue 30's balance of shards. A
// generated suite whose files are skewed (about 3% of them take 20× the rest, in real time) runs
// once to write its durations, then as n shards by count and as n shards by time, each shard a
// process of its own with its own temporary folder (`--maxWorkers 1`: a machine's one core), one
// after another. Prints, per way of splitting, the slowest shard's time against the mean (wall
// time, and the work its files took), medians over the rounds. Needs dist/ (npm run build).
// `--suite`: the 100,000-test generated suite (1,000 files × 100) run whole, then as 4 shards one
// after another with blob reports, merged: each with its tests per second.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./median.mjs";
import { root } from "./bundleAndRun.mjs";

const args = process.argv.slice(2);
const numberArg = (name, fallback) => Number(args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const FILES = numberArg("files", 400);
const SHARDS = numberArg("shards", 8);
const ROUNDS = numberArg("rounds", 3);
const FAST_MS = 20;
const SLOW_MS = 400;

/** A small deterministic generator: the same files are slow in every run. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** The suite in `dir`: FILES files of one test that waits FAST_MS, or SLOW_MS for ~3% of them. */
function writeSuite(dir) {
  const next = random(30);
  let slow = 0;
  mkdirSync(join(dir, "t"), { recursive: true });
  for (let index = 0; index < FILES; index++) {
    const ms = next() < 0.03 ? SLOW_MS : FAST_MS;
    if (ms === SLOW_MS) slow++;
    const text = `import { expect, test } from "bun:test";\ntest("waits ${ms} ms", async () => {\n  await new Promise((resolve) => setTimeout(resolve, ${ms}));\n  expect(${index}).toBe(${index});\n});\n`;
    writeFileSync(join(dir, "t", `f${String(index).padStart(3, "0")}.test.ts`), text);
  }
  return slow;
}

/** `turnlens test ...args` in `cwd` with a temporary folder of its own; its wall time in ms. */
function turnlens(args, cwd) {
  return command(["test", ...args], cwd);
}

/** `turnlens ...args` in `cwd` with a temporary folder of its own; its wall time in ms. */
function command(args, cwd) {
  const own = mkdtempSync(join(tmpdir(), "turnlens-bench-shard-"));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bin", "turnlens.mjs"), ...args], {
      cwd,
      env: { ...process.env, TMPDIR: own, NO_COLOR: "1", CI: "true" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      rmSync(own, { recursive: true, force: true });
      if (code !== 0) reject(new Error(`turnlens ${args.join(" ")} exited ${code}\n${stderr}`));
      else resolve(performance.now() - started);
    });
  });
}

/** Each shard's wall time and the work its files took (their durations, read from its blob). */
async function shardTimes(dir, byTime) {
  const walls = [];
  const works = [];
  for (let index = 1; index <= SHARDS; index++) {
    const blob = join(dir, "blobs", `blob-${index}.json`);
    const split = byTime ? ["--durations", "durations.json"] : [];
    walls.push(await turnlens(["t", "--maxWorkers", "1", "--shard", `${index}/${SHARDS}`, ...split, "--reporter", "blob", `--outputFile.blob=${blob}`], dir));
    const files = JSON.parse(readFileSync(blob, "utf8")).files;
    works.push(files.reduce((sum, file) => sum + (file.report?.durationMs ?? 0), 0));
  }
  return { walls, works };
}

/** The 100,000-test suite: one run, then 4 shards (as 4 machines would run them) and their merge. */
async function suite(dir) {
  const { writeCorpus } = await import("./peerCorpus.mjs");
  const files = 1000;
  const tests = 100;
  const count = 4;
  writeCorpus(dir, root, files, tests);
  const total = files * tests;
  const rate = (ms) => Math.round(total / (ms / 1000)).toLocaleString("en-US");
  const whole = await turnlens(["tests"], dir);
  console.log(`suite ${total.toLocaleString("en-US")} tests, one run: ${(whole / 1000).toFixed(1)} s, ${rate(whole)} tests/s · load ${loadavg()[0].toFixed(1)}`);
  const walls = [];
  for (let index = 1; index <= count; index++) {
    walls.push(await turnlens(["tests", "--shard", `${index}/${count}`, "--reporter", "blob", `--outputFile.blob=${join(dir, "blobs", `blob-${index}.json`)}`], dir));
  }
  const started = performance.now();
  await command(["merge-reports", join(dir, "blobs"), "--reporter", "dot"], dir);
  const merge = performance.now() - started;
  const machines = Math.max(...walls) + merge;
  console.log(
    `suite ${total.toLocaleString("en-US")} tests, ${count} shards one after another: ${walls.map((ms) => (ms / 1000).toFixed(1)).join(" ")} s, merged in ${(merge / 1000).toFixed(1)} s; on ${count} machines (the slowest shard, then the merge) ${(machines / 1000).toFixed(1)} s, ${rate(machines)} tests/s · load ${loadavg()[0].toFixed(1)}`,
  );
}

const ratioOf = (times) => Math.max(...times) / (times.reduce((sum, time) => sum + time, 0) / times.length);

const dir = mkdtempSync(join(tmpdir(), "turnlens-bench-shards-"));
try {
  if (args.includes("--suite")) await suite(dir);
  else await balance(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** The skewed suite by count and by time, ROUNDS times. */
async function balance(dir) {
  const slow = writeSuite(dir);
  console.log(`${FILES} files, ${slow} of them waiting ${SLOW_MS} ms and the rest ${FAST_MS} ms, in ${SHARDS} shards, ${ROUNDS} rounds`);
  const rows = { count: { wall: [], work: [], slowest: [] }, time: { wall: [], work: [], slowest: [] } };
  for (let round = 1; round <= ROUNDS; round++) {
    rmSync(join(dir, "durations.json"), { force: true });
    const whole = await turnlens(["t", "--durations", "durations.json"], dir);
    for (const [name, byTime] of [
      ["count", false],
      ["time", true],
    ]) {
      const { walls, works } = await shardTimes(dir, byTime);
      rows[name].wall.push(ratioOf(walls));
      rows[name].work.push(ratioOf(works));
      rows[name].slowest.push(Math.max(...walls));
      console.log(
        `round ${round} by ${name}: shards' wall ${walls.map((ms) => (ms / 1000).toFixed(2)).join(" ")} s (slowest ÷ mean ${ratioOf(walls).toFixed(2)}); work ${works.map((ms) => (ms / 1000).toFixed(2)).join(" ")} s (${ratioOf(works).toFixed(2)}); the whole run ${(whole / 1000).toFixed(2)} s · load ${loadavg()[0].toFixed(1)}`,
      );
    }
  }
  for (const name of ["count", "time"]) {
    const row = rows[name];
    console.log(
      `shards ${FILES} files in ${SHARDS} by ${name} · slowest shard ${(median(row.slowest) / 1000).toFixed(2)} s · slowest ÷ mean: wall ${median(row.wall).toFixed(2)}, work ${median(row.work).toFixed(2)} (medians of ${ROUNDS}) · load ${loadavg()[0].toFixed(1)}`,
    );
  }
}
