// `npm run bench`: bundles bench/coreBench.ts with esbuild (no dist/ needed) and runs it in a
// fresh node process. Flags: --quick (a tenth of the iterations), --only=NAME, --profile (a CPU
// profile, in a temporary folder it names), --source-maps (as the test runner runs: inline maps, enabled).
// A full run without flags writes bench/results.json. `--with-server` (what `npm run bench` passes)
// then runs bench/serverBench.mjs on dist/server.js too, with --quick passed on; --only= skips it,
// and then bench/runnerPeers.mjs: turnlens test beside bun test and vitest (goals P5 and P6).
// `--only=NAME` with a name of PROTOCOL_BENCHMARKS runs that script alone, on the dist/ built.

import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleAndRun, root } from "./bundleAndRun.mjs";

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
const withServer = args.includes("--with-server");
const profile = args.includes("--profile");
const sourceMaps = args.includes("--source-maps");
const benchArgs = args.filter((arg) => arg !== "--profile" && arg !== "--source-maps" && arg !== "--with-server");
const partial = profile || sourceMaps || benchArgs.some((arg) => arg === "--quick" || arg.startsWith("--only="));

// Warnings are counted and reported by the bench itself, once per benchmark.
const nodeArgs = sourceMaps ? ["--enable-source-maps"] : [];
if (profile) {
  const profiles = mkdtempSync(join(tmpdir(), "turnlens-bench-profile-"));
  nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${profiles}`);
  process.on("exit", () => console.log(`CPU profile written under ${profiles} (open it in Chrome DevTools or VS Code)`));
}
if (!partial) benchArgs.push(`--out=${join(root, "bench", "results.json")}`);
process.exitCode = await bundleAndRun("bench/coreBench.ts", {
  options: {
    ...(sourceMaps ? { sourcemap: "inline" } : {}),
    alias: {
      "agentswf/workflow": "./core/workflow/index.ts",
      "agentswf/testing": "./core/testing/index.ts",
    },
  },
  nodeArgs,
  args: benchArgs,
});

// The language server through its stdio protocol (needs dist/, which `npm run bench` builds first).
if (withServer && process.exitCode === 0 && !benchArgs.some((arg) => arg.startsWith("--only="))) {
  console.log("");
  const server = spawnSync(process.execPath, [join(root, "bench", "serverBench.mjs"), ...(args.includes("--quick") ? ["--quick"] : [])], { cwd: root, stdio: "inherit" });
  if (server.error) throw server.error;
  process.exitCode = server.status ?? 1;
}

// `turnlens test` beside `bun test` and `vitest run --no-isolate` on the same files (needs dist/ too).
if (withServer && process.exitCode === 0 && !benchArgs.some((arg) => arg.startsWith("--only="))) {
  console.log("");
  const peers = spawnSync(process.execPath, [join(root, "bench", "runnerPeers.mjs"), ...(args.includes("--quick") ? ["--quick"] : [])], { cwd: root, stdio: "inherit" });
  if (peers.error) throw peers.error;
  process.exitCode = peers.status ?? 1;
}
