// Issue 28, acceptance 1: Vitest's own test files (vitest-dev/vitest's test/core/test/, renamed
// test/unit/test/ after 4.1) run one by one under real Vitest (the dev dependency) and under
// `turnlens test` (this build's dist/), with a per-file table of the tests each passes (docs/vitest.md).
//
//   node bench/vitestFidelity.mjs <vitest checkout>/test/core/test [--json[=path]] [--only=a.test.ts,b.test.ts] [--jobs=2] [--no-setup] [--keep]
//
// The suite's folder (the parent of the one given) is copied to a temporary project whose node_modules
// links this repository's, `turnlens` and the suite's local packages; Vitest runs it with the suite's
// own vite.config.ts (its projects, typecheck and reporters taken off), Turnlens with the same setup
// file, name pattern, timeout, define, env (its config) and aliases (as tsconfig paths).
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareFile, table, totals, turnlensOutcomes, vitestOutcomes } from "./fidelityOutcomes.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The suite's files neither runner can run in this setting, by path in the folder given: why. */
export const LEFT_OUT = {
  // Environments whose packages this repository does not install (jsdom, happy-dom, edge-runtime).
  "define-web.test.ts": "jsdom environment: jsdom is not installed here",
  "dom-single-line-options.test.ts": "jsdom environment: jsdom is not installed here",
  "dom.test.ts": "jsdom environment: jsdom is not installed here",
  "edge.test.ts": "edge-runtime environment: @edge-runtime/vm is not installed here",
  "env-jsdom.test.ts": "jsdom environment: jsdom is not installed here",
  "environments/happy-dom.spec.ts": "happy-dom environment: happy-dom is not installed here",
  "environments/jsdom.spec.ts": "jsdom environment: jsdom is not installed here",
  "happy-dom-custom.test.ts": "happy-dom environment: happy-dom is not installed here",
  "happy-dom.test.ts": "happy-dom environment: happy-dom is not installed here",
  "mocking/nested-default.spec.ts": "jsdom environment: jsdom is not installed here",
  "node-protocol-jsdom.spec.ts": "jsdom environment: jsdom is not installed here",
  "require.test.ts": "jsdom environment: jsdom is not installed here",
  "resolve-web.test.ts": "happy-dom environment: happy-dom is not installed here",
  "serialize.test.ts": "jsdom environment: jsdom is not installed here",
  "spy.test.ts": "happy-dom environment: happy-dom is not installed here",
  "timers-jsdom.test.ts": "jsdom environment: jsdom is not installed here",
  "url-web.test.ts": "jsdom environment: jsdom is not installed here",
  "vi.spec.ts": "jsdom environment (not installed here), and imports Vitest's monorepo sources (packages/vitest/src)",
  "web-worker-jsdom.test.ts": "jsdom environment and @vitest/web-worker: neither is installed here",
  // Packages of the suite's devDependencies this repository does not install.
  "chai-style-assertions-sinon.test.ts": "imports sinon and sinon-chai, not installed here",
  "expect.test.ts": "imports temporal-polyfill, not installed here",
  "exports.test.ts": "imports vitest-package-exports (not installed here) and Vitest's monorepo sources",
  "immutable.test.ts": "imports immutable, not installed here",
  "mock-fs.test.ts": "imports memfs, not installed here",
  "mocking/autospying.test.ts": "imports axios, not installed here",
  "mocking/axios-mocked.test.ts": "imports axios, not installed here",
  "mocking/axios-not-mocked.test.ts": "imports axios, not installed here",
  "mocking/external.test.ts": "imports axios, not installed here",
  "mocking/factory.test.ts": "imports axios, not installed here",
  "mocking/tinyspy.test.ts": "imports tinyspy, not installed here",
  "module.test.ts": "its src/esm files import tinyspy, not installed here",
  "mocking/integration.test.ts": "its __mocks__ import vue, not installed here",
  "snapshot-react.test.jsx": "imports react (JSX runtime), not installed here",
  "snapshot-react-18.test.jsx": "imports react-18 (JSX runtime), not installed here",
  "web-worker-mock.test.ts": "imports @vitest/web-worker, not installed here",
  "web-worker-node.test.ts": "imports @vitest/web-worker, not installed here",
  // Vitest's own sources, which only its monorepo has (the published package has dist/ only).
  "browser-sessions.test.ts": "imports Vitest's monorepo sources (packages/vitest/src/node/browser)",
  "cli-test.test.ts": "imports Vitest's monorepo sources (packages/vitest/src/node/cli)",
  "env-runtime.test.ts": "imports Vitest's monorepo sources (packages/)",
  "injector-esm.test.ts": "imports Vitest's monorepo sources (packages/mocker/src)",
  "injector-mock.test.ts": "imports Vitest's monorepo sources, vue, react and vite-plus (none installed here)",
  "inline-snap.test.ts": "imports Vitest's monorepo sources (packages/snapshot/src)",
  "module-diagnostic.test.ts": "imports the monorepo's test/test-utils (Vitest's node API over the monorepo)",
  "timers-node.test.ts": "its fixture imports Vitest's monorepo sources (packages/vitest/src/integrations/mock/timers)",
  "memory-limit.test.ts": "imports vitest/src/utils/memory-limit.js, not in the published package",
  "parse-cjs-conditions.test.ts": "imports Vitest's monorepo sources (packages/)",
  "sequencers.test.ts": "imports Vitest's monorepo sources (packages/vitest/src/node)",
  "utils.spec.ts": "imports Vitest's monorepo sources (packages/)",
};

/** How long one runner may take on one file before it is stopped and the file counted as crashed. */
const FILE_LIMIT_MS = 180_000;

/** The test files under the folder, as Vitest's default include finds them (`*.test-d.ts` are typecheck-only). */
function testFiles(folder) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "fixtures" && entry.name !== "__snapshots__") walk(path);
      } else if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name)) found.push(relative(folder, path));
    }
  };
  walk(folder);
  return found.sort();
}

/** A node_modules that links every package of this repository's, `turnlens`, and the suite's `file:`/`link:` packages. */
function linkNodeModules(project) {
  const modules = join(project, "node_modules");
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(modules);
  const ours = join(root, "node_modules");
  for (const entry of readdirSync(ours)) {
    if (entry.startsWith("@")) {
      mkdirSync(join(modules, entry));
      for (const child of readdirSync(join(ours, entry))) symlinkSync(join(ours, entry, child), join(modules, entry, child));
    } else symlinkSync(join(ours, entry), join(modules, entry));
  }
  const link = (name, target) => {
    const at = join(modules, name);
    mkdirSync(dirname(at), { recursive: true });
    rmSync(at, { recursive: true, force: true });
    symlinkSync(target, at);
  };
  link("turnlens", root);
  const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  for (const [name, spec] of Object.entries(manifest.devDependencies ?? {})) {
    const local = /^(?:file|link):(.+)$/.exec(spec);
    if (local) link(name, resolve(project, local[1]));
  }
}

/**
 * The suite's config for Vitest, as its own vite.config.ts gives it (setup file, aliases, define,
 * env, name pattern, snapshot paths, seed) with what this bench cannot or need not run taken off:
 * the three pool projects (one run in forks), typecheck, its reporters. The timeout is the one its CI uses.
 */
const vitestConfig = (setup) => `import base from './vite.config.ts'
const test = { ...base.test, pool: 'forks', testTimeout: 10_000, typecheck: { enabled: false } }
${setup ? "" : "test.setupFiles = []\n"}delete test.projects
delete test.reporters
export default { ...base, test }
`;

/**
 * The suite's vite.config.ts `define`, as written there. Turnlens drops `process`, `global` and
 * `import.meta.vitest` as Vitest does; `undefined` is the one value JSON lacks, hence a .mjs config.
 */
const SUITE_DEFINE = `{
  process: {},
  global: {},
  "import.meta.env.TEST_NAME": '"hello world"',
  "process.env.HELLO_PROCESS": '"hello process"',
  __DEFINE__: '"defined"',
  __JSON__: JSON.stringify({ hello: "world" }),
  __MODE__: "process.env.MODE",
  "SOME.VARIABLE": '"variable"',
  "SOME.SOME.VARIABLE": '"nested variable"',
  __UNDEFINED__: undefined,
  __NULL__: null,
  __ZERO__: 0,
  __FALSE__: false,
  "import.meta.vitest": false,
}`;

/** The same settings in Turnlens's terms: its config file (define and env too), and tsconfig paths for the suite's aliases. */
function writeTurnlensConfig(project, setup) {
  const pattern = "^((?!does not include test that).)*$";
  const settings = { setupFiles: setup ? ["./test/setup.ts"] : [], testNamePattern: pattern, testTimeout: 10_000, env: { CUSTOM_ENV: "foo" } };
  const json = JSON.stringify(settings, null, 2);
  writeFileSync(join(project, "turnlens.config.mjs"), `export default {\n  define: ${SUITE_DEFINE.replaceAll("\n", "\n  ")},\n${json.slice(2)};\n`);
  const tsconfig = {
    compilerOptions: {
      target: "ESNext",
      module: "ESNext",
      moduleResolution: "Bundler",
      allowImportingTsExtensions: true,
      noEmit: true,
      esModuleInterop: true,
      skipLibCheck: true,
      paths: {
        "#/*": ["./src/*"],
        "custom-lib": ["./projects/custom-lib"],
        "inline-lib": ["./projects/inline-lib"],
        "test-alias": ["./src/aliased-mod.ts"],
      },
    },
  };
  writeFileSync(join(project, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
}

/** The temporary project: the suite's folder copied, its node_modules linked, both configs written. */
function makeProject(suite, setup) {
  const project = mkdtempSync(join(tmpdir(), "turnlens-fidelity-"));
  cpSync(suite, project, { recursive: true, filter: (source) => !source.split("/").includes("node_modules") });
  linkNodeModules(project);
  writeFileSync(join(project, "vitest.fidelity.config.ts"), vitestConfig(setup));
  writeTurnlensConfig(project, setup);
  return project;
}

/** Runs a command to its end (or FILE_LIMIT_MS), with its output kept for the report of a crash. */
function run(command, args, options) {
  return new Promise((done) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    const keep = (chunk) => {
      output = (output + chunk).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, FILE_LIMIT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, output, timedOut });
    });
  });
}

function readReport(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** One file under both runners, one after the other: its row. */
async function compare(project, folderInProject, file, reports) {
  const absolute = join(folderInProject, file);
  const stem = file.replaceAll("/", "__");
  const env = { ...process.env, CI: "", GITHUB_ACTIONS: "", FORCE_COLOR: "0", NO_COLOR: "1" };
  const vitestOut = join(reports, `${stem}.vitest.json`);
  const vitestRun = await run(
    process.execPath,
    [join(project, "node_modules", "vitest", "vitest.mjs"), "run", absolute, "--config", "vitest.fidelity.config.ts", "--reporter=json", `--outputFile=${vitestOut}`],
    { cwd: project, env },
  );
  const turnlensOut = join(reports, `${stem}.turnlens.json`);
  // The suite's config gives its workers this node flag; Turnlens's config has none, so the process gets it.
  const turnlensEnv = { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} --experimental-wasm-modules`.trim() };
  const turnlensRun = await run(
    process.execPath,
    [join(root, "bin", "turnlens.mjs"), "test", absolute, "--reporter", "json", "--outputFile", turnlensOut, "--maxWorkers", "1"],
    { cwd: project, env: turnlensEnv },
  );
  const vitest = vitestOutcomes(readReport(vitestOut), absolute);
  const turnlens = turnlensOutcomes(readReport(turnlensOut), absolute);
  if (vitestRun.timedOut) Object.assign(vitest, { crashed: true, error: `stopped after ${FILE_LIMIT_MS / 1000} s` });
  if (turnlensRun.timedOut) Object.assign(turnlens, { crashed: true, error: `stopped after ${FILE_LIMIT_MS / 1000} s` });
  if (!existsSync(turnlensOut) && !turnlens.error) turnlens.error = turnlensRun.output.trim().split("\n").slice(-3).join(" ");
  return compareFile(file, vitest, turnlens);
}

async function main() {
  const args = process.argv.slice(2);
  const folder = args.find((arg) => !arg.startsWith("--"));
  if (!folder || !existsSync(folder)) {
    console.error("usage: node bench/vitestFidelity.mjs <vitest checkout>/test/core/test [--json[=path]] [--only=a.test.ts,…] [--jobs=n] [--keep]");
    process.exit(2);
  }
  if (!existsSync(join(root, "dist", "cli.mjs"))) {
    console.error("dist/ is not built: run node build.mjs first");
    process.exit(2);
  }
  const option = (name) => args.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  const only = option("only")?.slice("--only=".length).split(",");
  const jobs = Number(option("jobs")?.slice("--jobs=".length) ?? 2);
  const json = option("json");
  const suite = resolve(folder, "..");
  const all = testFiles(resolve(folder));
  const files = all.filter((file) => !Object.hasOwn(LEFT_OUT, file) && (!only || only.includes(file)));
  // --no-setup: without the suite's setup file (a `vi.mock` only mocked.test.ts relies on), for both runners.
  const project = makeProject(suite, !option("no-setup"));
  const folderInProject = join(project, relative(suite, resolve(folder)));
  const reports = join(project, ".fidelity-reports");
  mkdirSync(reports);
  console.error(`${files.length} of ${all.length} files in ${project} (${jobs} at a time)`);

  const rows = new Array(files.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, jobs) }, async () => {
      while (next < files.length) {
        const index = next++;
        rows[index] = await compare(project, folderInProject, files[index], reports);
        const row = rows[index];
        console.error(`${files[index]}: ${row.bothPassed}/${row.vitestPassed}${row.turnlensCrashed ? " (Turnlens crashed)" : ""}`);
      }
    }),
  );

  const leftOut = Object.entries(LEFT_OUT)
    .filter(([file]) => all.includes(file))
    .map(([file, reason]) => ({ file, reason }));
  console.log(table(rows));
  console.log(["", "Left out:", ...leftOut.map(({ file, reason }) => `- ${file}: ${reason}`)].join("\n"));
  if (json) {
    const document = JSON.stringify({ folder: resolve(folder), totals: totals(rows), files: rows, leftOut }, null, 2);
    if (json === "--json") console.log(`\n${document}`);
    else writeFileSync(json.slice("--json=".length), `${document}\n`);
  }
  if (option("keep")) console.error(`project kept: ${project}`);
  else rmSync(project, { recursive: true, force: true });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
