// `npm run bench`: bundles bench/coreBench.ts with esbuild (no dist/ needed) and runs it in a
// fresh node process. Flags: --quick (a tenth of the iterations), --only=NAME, --profile (a CPU
// profile, in a temporary folder it names), --source-maps (as the test runner runs: inline maps, enabled).
// A full run without flags writes bench/results.json. `--with-server` (what `npm run bench` passes)
// then runs bench/serverBench.mjs on dist/server.js too, with --quick passed on; --only= skips it,
// and then bench/runnerPeers.mjs: turnlens test beside bun test and vitest (P5, P6, the suite).
// `--goals=P1,P2,P4,P5,P6,suite` runs only what measures those goals of issue 29 (P1: the 1,000-turn
// benchmark; P2 and P4: the server's goal phases; P5, P6, suite: runnerPeers with --goals=), on the
// dist/ built; `--rounds=N`, `--sizes=`, `--suite-files=` and `--suite-limit=` are passed to runnerPeers. Every run ends with its goal lines together.
// `--only=NAME` with a name of PROTOCOL_BENCHMARKS runs that script alone, on the dist/ built.

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { bundleAndRun, root } from "./bundleAndRun.mjs";

const started = performance.now();
const args = process.argv.slice(2);

/** Benchmarks of the built server through its protocol, by the name `--only=` takes: their script. */
const PROTOCOL_BENCHMARKS = {
  /** ~6,400 random well-formed messages at once: p50/p99/max latency, requests never answered (issue 24). */
  flood: "serverFlood.mjs",
};
const protocolOnly = args.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
if (protocolOnly !== undefined && Object.hasOwn(PROTOCOL_BENCHMARKS, protocolOnly)) {
  const script = join(root, "bench", PROTOCOL_BENCHMARKS[protocolOnly]);
  const passed = args.filter((arg) => !arg.startsWith("--only=") && arg !== "--with-server");
  const run = spawnSync(process.execPath, [script, ...passed], { cwd: root, stdio: "inherit" });
  if (run.error) throw run.error;
  process.exit(run.status ?? 1);
}

/** Issue 29's goals, by the name `--goals=` takes (case-insensitive). */
const GOALS = ["P1", "P2", "P4", "P5", "P6", "suite"];
const goalsArg = args.find((arg) => arg.startsWith("--goals="))?.slice("--goals=".length);
const asked = goalsArg?.split(",").map((goal) => goal.trim().toLowerCase());
const unknown = asked?.filter((goal) => !GOALS.some((known) => known.toLowerCase() === goal)) ?? [];
if (unknown.length > 0) {
  console.error(`no goal is named ${unknown.join(", ")}; the goals: ${GOALS.join(", ")}`);
  process.exit(2);
}
/** The goals this run measures: those asked, or every one. */
const goals = asked ? GOALS.filter((goal) => asked.includes(goal.toLowerCase())) : GOALS;
const withServer = args.includes("--with-server");
const profile = args.includes("--profile");
const sourceMaps = args.includes("--source-maps");
const quick = args.includes("--quick");
/** runnerPeers' own flags, passed on to it alone. */
const PEER_FLAGS = ["--rounds=", "--sizes=", "--suite-files=", "--suite-limit="];
const peerFlags = args.filter((arg) => PEER_FLAGS.some((flag) => arg.startsWith(flag)));
const benchArgs = args.filter(
  (arg) => arg !== "--profile" && arg !== "--source-maps" && arg !== "--with-server" && !arg.startsWith("--goals=") && !peerFlags.includes(arg),
);
const only = benchArgs.some((arg) => arg.startsWith("--only="));
const partial = profile || sourceMaps || quick || only || asked !== undefined;

/** Every `goal …` line the parts printed, reprinted together at the end. */
const goalLines = [];
const collect = (text) => {
  for (const line of text.split("\n")) if (line.startsWith("goal ")) goalLines.push(line);
};

/** Runs `script` (under bench/) with `scriptArgs`, its output shown as it comes and its goal lines kept; its exit code. */
function runPart(script, scriptArgs) {
  console.log("");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bench", script), ...scriptArgs], { cwd: root, stdio: ["inherit", "pipe", "inherit"] });
    let pending = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      pending += chunk;
      const end = pending.lastIndexOf("\n");
      if (end >= 0) {
        collect(pending.slice(0, end));
        pending = pending.slice(end + 1);
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      collect(pending);
      resolve(code ?? 1);
    });
  });
}

// 1. The core benchmarks: all of them (the table, results.json), or, for P1 alone, the 1,000-turn one.
const coreWanted = asked === undefined || goals.includes("P1");
if (coreWanted) {
  // Warnings are counted and reported by the bench itself, once per benchmark.
  const nodeArgs = sourceMaps ? ["--enable-source-maps"] : [];
  if (profile) {
    const profiles = mkdtempSync(join(tmpdir(), "turnlens-bench-profile-"));
    nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${profiles}`);
    process.on("exit", () => console.log(`CPU profile written under ${profiles} (open it in Chrome DevTools or VS Code)`));
  }
  const coreArgs = asked !== undefined && !only ? [...benchArgs, "--only=sequential-1000"] : [...benchArgs];
  if (!partial) coreArgs.push(`--out=${join(root, "bench", "results.json")}`);
  process.exitCode = await bundleAndRun("bench/coreBench.ts", {
    options: {
      ...(sourceMaps ? { sourcemap: "inline" } : {}),
      alias: {
        "agentswf/workflow": "./core/workflow/index.ts",
        "agentswf/testing": "./core/testing/index.ts",
      },
    },
    nodeArgs,
    args: coreArgs,
    onStdout: (text) => {
      process.stdout.write(text);
      collect(text);
    },
  });
}

// The built parts (dist/, which `npm run bench` builds first): with --with-server, or when goals are named.
const builtParts = (withServer || asked !== undefined) && !only && (process.exitCode ?? 0) === 0;

// 2. The language server through its stdio protocol: everything, or only P2's and P4's phases.
if (builtParts && (goals.includes("P2") || goals.includes("P4"))) {
  const serverArgs = [...(quick ? ["--quick"] : []), ...(asked !== undefined ? ["--goals"] : [])];
  process.exitCode = await runPart("serverBench.mjs", serverArgs);
}

// 3. `turnlens test` beside `bun test` and `vitest run --no-isolate` on the same files.
const peerGoals = goals.filter((goal) => goal === "P5" || goal === "P6" || goal === "suite");
if (builtParts && (process.exitCode ?? 0) === 0 && peerGoals.length > 0) {
  process.exitCode = await runPart("runnerPeers.mjs", [...(quick ? ["--quick"] : []), ...peerFlags, `--goals=${peerGoals.join(",")}`]);
}

if (goalLines.length > 0) {
  const minutes = (performance.now() - started) / 60_000;
  console.log(`\nthis run's goal lines (issue 29), ${minutes.toFixed(1)} min in all, load ${loadavg()[0].toFixed(1)} at the end:`);
  for (const line of goalLines) console.log(line);
}
