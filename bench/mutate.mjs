// `turnlens test --mutate` on examples/ (issue 18): how many mutants it runs and how long they
// take, beside a plain `turnlens test examples` run, interleaved over several rounds; prints
// medians, mutants per second and the load. Flags: --rounds=N (default 5), --quick (one round).
// Needs dist/ (npm run build).

import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { root } from "./bundleAndRun.mjs";
import { median } from "./median.mjs";

const args = process.argv.slice(2);
const roundsArg = args.find((arg) => arg.startsWith("--rounds="));
const rounds = roundsArg ? Number(roundsArg.slice("--rounds=".length)) : args.includes("--quick") ? 1 : 5;

/** Runs `turnlens test ...testArgs` on examples/, resolving to its wall time and stdout. */
function turnlens(testArgs) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(root, "bin", "turnlens.mjs"), "test", ...testArgs, "examples"], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve({ ms: performance.now() - started, stdout }) : reject(new Error(`turnlens test ${testArgs.join(" ")} exited ${code}`)),
    );
  });
}

const plain = [];
const whole = [];
const mutantPhase = [];
const counts = [];
const loads = [];
for (let round = 1; round <= rounds; round++) {
  loads.push(loadavg()[0]);
  plain.push((await turnlens([])).ms);
  const mutated = await turnlens(["--mutate=json"]);
  const document = JSON.parse(mutated.stdout);
  whole.push(mutated.ms);
  mutantPhase.push(document.durationMs);
  counts.push({ run: document.score.run, noticed: document.score.noticed, notRun: document.score.notRun });
  process.stdout.write(
    `round ${round}/${rounds}: plain ${Math.round(plain.at(-1))} ms, --mutate ${Math.round(mutated.ms)} ms (mutants ${document.durationMs} ms: ${document.score.run} run, ${document.score.noticed} noticed, ${document.score.notRun} not run)\n`,
  );
}
const run = counts[0].run;
const same = counts.every((count) => count.run === run && count.noticed === counts[0].noticed && count.notRun === counts[0].notRun);
const phase = median(mutantPhase);
console.log("");
console.log(`turnlens test --mutate examples/, ${rounds} round${rounds > 1 ? "s" : ""} (median):`);
console.log(`  mutants run            ${run} (${counts[0].noticed} noticed, ${counts[0].notRun} not run)${same ? "" : " — the counts differed between rounds"}`);
console.log(`  plain turnlens test    ${Math.round(median(plain))} ms`);
console.log(`  turnlens test --mutate ${Math.round(median(whole))} ms`);
console.log(`  the mutants alone      ${Math.round(phase)} ms, ${Math.round((run / phase) * 1000)} mutants/s`);
console.log(`  load average (1 min)   ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
