// Two builds of Turnlens on the same corpus, alternated: `turnlens test` from each tree's bin/,
// with the wall and CPU time (user + sys of the whole process tree, GNU time) of each run and the
// medians' ratio. For an A/B of a change on a shared, noisy machine (BENCHMARKS.md, issue 29).
//   node bench/treesAlternated.mjs --before=DIR --after=DIR [--files=100 | --examples] [--runs=6]
// Each DIR is a checkout with dist/ built; the corpus is bench/peerCorpus.mjs's, in a temporary folder.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median } from "./median.mjs";
import { writeCorpus, writeExamplesCorpus } from "./peerCorpus.mjs";

const args = process.argv.slice(2);
const option = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const trees = { before: option("before"), after: option("after") };
if (!trees.before || !trees.after) {
  console.error("usage: node bench/treesAlternated.mjs --before=DIR --after=DIR [--files=100 | --examples] [--runs=6]");
  process.exit(2);
}
const runs = Number(option("runs") ?? 6);
const examples = args.includes("--examples");
const scratch = mkdtempSync(join(tmpdir(), "turnlens-trees-"));
const target = examples ? "examples" : "tests";
if (examples) writeExamplesCorpus(scratch, resolve(trees.after));
else writeCorpus(scratch, resolve(trees.after), Number(option("files") ?? 100));

const results = { before: [], after: [] };
try {
  for (let round = 0; round < runs; round++) {
    // Alternate which tree goes first, so a change in the machine's load hits both alike.
    for (const name of round % 2 ? ["after", "before"] : ["before", "after"]) {
      const load = loadavg()[0];
      const bin = join(resolve(trees[name]), "bin", "turnlens.mjs");
      const run = spawnSync("/usr/bin/time", ["-f", "%e %U %S", process.execPath, bin, "test", target], { cwd: scratch, encoding: "utf8" });
      if (run.error) throw run.error;
      const [wall, user, system] = run.stderr.trim().split("\n").at(-1).split(" ").map(Number);
      results[name].push({ wall, cpu: user + system });
      console.log(`${name.padEnd(6)} wall ${wall.toFixed(2)} s, CPU ${(user + system).toFixed(2)} s, load ${load.toFixed(1)} | ${run.stdout.trim().split("\n").at(-1)}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const summary = Object.fromEntries(Object.entries(results).map(([name, list]) => [name, { wall: median(list.map((r) => r.wall)), cpu: median(list.map((r) => r.cpu)) }]));
for (const name of ["before", "after"]) console.log(`${name.padEnd(6)} median wall ${summary[name].wall.toFixed(2)} s, CPU ${summary[name].cpu.toFixed(2)} s`);
console.log(`after ÷ before: wall ${(summary.after.wall / summary.before.wall).toFixed(2)}, CPU ${(summary.after.cpu / summary.before.cpu).toFixed(2)}`);
