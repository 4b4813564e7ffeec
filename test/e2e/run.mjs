// `npm run test:e2e`: installs what it needs into a cache folder (test/e2e/setup.sh), builds the
// .vsix (`npm run package`), starts code-server on 127.0.0.1, installs the .vsix, runs the extension
// tests (test/e2e/suite/) in its extension host, and takes the README's screenshots (docs/images/).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startCodeServer } from "./codeServer.mjs";
import { runExtensionTests } from "./browser.mjs";
import { takeScreenshots } from "./screenshots.mjs";
import { takeWorkflowScreenshot } from "./workflowScreenshot.mjs";
import { takeCompletionScreenshot } from "./completionScreenshot.mjs";
import { takeEditorStateScreenshots } from "./editorStateScreenshots.mjs";
import { checkTimeline } from "./timeline.mjs";
import { checkMutateLens } from "./mutateLens.mjs";
import { checkAtAGlance } from "./atAGlance.mjs";
import { checkGutterAndPeek } from "./gutterAndPeek.mjs";
import { checkSnapshotPeek } from "./snapshotPeek.mjs";
import { checkColdStart } from "./coldStart.mjs";
import { takeCoverageScreenshot } from "./coverageScreenshot.mjs";
import { configTestFilesWorkspace } from "./configTestFilesWorkspace.mjs";

const root = resolve(import.meta.dirname, "../..");
const cache = resolve(process.env.TURNLENS_E2E_CACHE || join(root, ".e2e-cache"));
// TURNLENS_E2E_SKIP: comma-separated steps to leave out (package, tests, coldStart, screenshots, workflowScreenshot, completionScreenshot, editorStateScreenshots, timeline, mutateLens, atAGlance, gutterAndPeek, snapshotPeek, coverageScreenshot, or one suite's name).
const skip = new Set((process.env.TURNLENS_E2E_SKIP ?? "").split(",").filter(Boolean));
const t0 = Date.now();
const since = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const say = (text) => console.log(`[e2e ${since()}] ${text}`);

say(`cache ${cache}`);
const setup = spawnSync("sh", [join(root, "test/e2e/setup.sh"), cache], { stdio: "inherit" });
if (setup.status !== 0) process.exit(setup.status ?? 1);

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
// This machine's .vsix (scripts/package-vsix.mjs names each by its target).
const vsix = join(root, `${manifest.name}-${process.platform}-${process.arch}-${manifest.version}.vsix`);
if (!skip.has("package")) {
  say("npm run package");
  execFileSync("npm", ["run", "-s", "package"], { cwd: root, stdio: "inherit" });
}
if (!existsSync(vsix)) throw new Error(`${vsix} is missing`);
say(`built ${vsix.slice(root.length + 1)}`);

// Outside the repo, so the workspaces don't see its tsconfig.json and package.json.
const dir = mkdtempSync(join(tmpdir(), "turnlens-e2e-"));
const logs = join(cache, "logs");
rmSync(logs, { recursive: true, force: true });
mkdirSync(logs, { recursive: true });
const workspace = (name, from) => {
  const path = join(dir, "ws", name);
  mkdirSync(path, { recursive: true });
  if (from) cpSync(from, path, { recursive: true });
  return path;
};
/**
 * A workspace with its own installed Turnlens of another version than the extension's, as `npm
 * install -D turnlens` would leave it: node_modules/turnlens is this repo's built dist/ and bin/ with
 * the manifest's version changed to `<version>-workspace`, and its one run-time import (esbuild and
 * this machine's binary) sits beside it. e2e.json tells the suite which server and worker to expect.
 */
const workspaceWithOwnTurnlens = () => {
  const path = workspace("own-turnlens", join(root, "examples/summarize"));
  const own = join(path, "node_modules/turnlens");
  for (const part of ["dist", "bin"]) cpSync(join(root, part), join(own, part), { recursive: true, dereference: true });
  const version = `${manifest.version}-workspace`;
  writeFileSync(join(own, "package.json"), `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
  for (const dependency of ["esbuild", `@esbuild/${process.platform}-${process.arch}`])
    cpSync(join(root, "node_modules", dependency), join(path, "node_modules", dependency), { recursive: true, dereference: true });
  const real = realpathSync(own);
  const expected = { version, server: join(real, "dist/server.js"), worker: join(real, "dist/worker.mjs") };
  writeFileSync(join(path, "e2e.json"), `${JSON.stringify(expected, null, 2)}\n`);
  // Passes only in the workspace's own worker process: the mark only it can give is its script path.
  writeFileSync(
    join(path, "own.test.ts"),
    [
      'import { expect, test } from "bun:test";',
      'import { answer, testWorkflow } from "agentswf/testing";',
      'import summarize, { SUMMARY } from "./summarize";',
      "",
      'test("runs in the worker of the workspace\'s own Turnlens", () => {',
      `  expect(process.argv[1]).toBe(${JSON.stringify(expected.worker)});`,
      "});",
      "",
      'test("runs a workflow through the workspace\'s own engine", async () => {',
      '  const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: answer(SUMMARY, { summary: "Two sentences." }) } });',
      '  expect(run.value).toEqual({ summary: "Two sentences." });',
      "});",
      "",
    ].join("\n"),
  );
  return path;
};
const results = [];
let server;
try {
  server = await startCodeServer({ cache, dir: join(dir, "cs"), vsix: [vsix] });
  say(`code-server on ${server.url}`);
  const suite = async (name, folder) => {
    if (skip.has(name)) return;
    say(`suite ${name} on ${folder}`);
    const lines = [];
    const code = await runExtensionTests({
      url: server.url,
      dir,
      folder,
      devPath: join(root, "test/e2e/host"),
      testsPath: join(root, `test/e2e/suite/${name}.js`),
      log: (line) => lines.push(line),
    });
    writeFileSync(join(logs, `${name}.console.log`), `${lines.join("\n")}\n`);
    results.push({ name, ok: code === 0, detail: `exit code ${code}` });
    say(`suite ${name}: ${code === 0 ? "PASS" : `FAIL (exit code ${code}; console in ${join(logs, `${name}.console.log`)})`}`);
  };
  // First, before any other window: a cold window's first results (nothing of code-server's or the
  // server's is warm yet), then a second window's.
  if (!skip.has("coldStart")) {
    say("coldStart");
    const result = await checkColdStart({ url: server.url, dir, folder: workspace("coldStart", join(root, "examples")), logs, say });
    results.push({ name: "coldStart", ok: result.ok, detail: result.ok ? result.checks.join("; ") : result.error });
    say(`coldStart: ${result.ok ? "PASS" : `FAIL (${result.error})`}`);
  }
  if (!skip.has("tests")) {
    await suite("examples", workspace("examples", join(root, "examples")));
    await suite("testExplorerCounts", workspace("counts", join(root, "examples")));
    await suite("gettingStarted", workspace("empty"));
    if (!skip.has("workspacePackage")) await suite("workspacePackage", workspaceWithOwnTurnlens());
    await suite("workflowViews", workspace("workflowViews", join(root, "examples")));
    await suite("workflowEdits", workspace("workflowEdits", join(root, "examples/summarize")));
    await suite("peekAndCoverage", workspace("peekAndCoverage", join(root, "examples")));
    await suite("timelineCommands", workspace("timelineCommands", join(root, "examples/feature-delivery")));
    await suite("configTestFiles", configTestFilesWorkspace(workspace("configTestFiles")));
    await suite("debugConsole", workspace("debugConsole", join(root, "examples/summarize")));
  }
  // The steps that drive the workbench in Chromium, each on its own copy of a folder: they resolve
  // to { ok, files } (the pictures written) or { ok, checks }, or { ok: false, error }.
  const browserSteps = [
    { name: "screenshots", workspace: "shots", from: "examples", run: takeScreenshots },
    { name: "workflowScreenshot", workspace: "workflowShot", from: "examples", run: takeWorkflowScreenshot },
    { name: "completionScreenshot", workspace: "completionShot", from: "examples", run: takeCompletionScreenshot },
    { name: "editorStateScreenshots", workspace: "editorShots", from: "examples", run: takeEditorStateScreenshots },
    { name: "timeline", workspace: "timeline", from: "examples", run: checkTimeline },
    { name: "mutateLens", workspace: "mutateLens", from: "examples/mutation", run: checkMutateLens },
    { name: "atAGlance", workspace: "atAGlance", from: "examples", run: checkAtAGlance },
    { name: "gutterAndPeek", workspace: "gutterAndPeek", from: "examples", run: checkGutterAndPeek },
    { name: "snapshotPeek", workspace: "snapshotPeek", from: "examples/summarize", run: checkSnapshotPeek },
    { name: "coverageScreenshot", workspace: "coverageShot", from: "examples", run: takeCoverageScreenshot },
  ];
  for (const step of browserSteps) {
    if (skip.has(step.name)) continue;
    say(step.name);
    const folder = workspace(step.workspace, join(root, step.from));
    const result = await step.run({ url: server.url, dir, folder, root, out: join(root, "docs/images"), logs, say });
    results.push({ name: step.name, ok: result.ok, detail: result.ok ? [...(result.files ?? []), ...(result.checks ?? [])].join("; ") : result.error });
    say(`${step.name}: ${result.ok ? "PASS" : `FAIL (${result.error})`}`);
  }
} catch (error) {
  results.push({ name: "harness", ok: false, detail: error.stack ?? String(error) });
  say(`FAIL: ${error.message}`);
} finally {
  if (server) {
    await server.stop();
    cpSync(server.log, join(logs, "code-server.log"));
  }
  rmSync(dir, { recursive: true, force: true });
}
const failed = results.filter((result) => !result.ok);
for (const result of results) console.log(`${result.ok ? "PASS" : "FAIL"} ${result.name}${result.ok ? "" : `: ${result.detail}`}`);
say(failed.length === 0 && results.length > 0 ? "all passed" : `${failed.length} failed`);
process.exit(failed.length === 0 && results.length > 0 ? 0 : 1);
