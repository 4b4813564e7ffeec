// `npm run test:node24` (after `npm run build`): the core and runner suites under Node 24, the
// current LTS, as well as the Node 20 `npm test` runs them on. Node 24 comes from npm
// (node-<platform>-<arch>@24) into the e2e cache (.e2e-cache/ or $TURNLENS_E2E_CACHE), installed
// there the first time, as test/e2e/setup.sh does.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const cache = resolve(process.env.TURNLENS_E2E_CACHE || join(root, ".e2e-cache"));
const platform = process.platform === "win32" ? "win" : process.platform;
const name = `node-${platform}-${process.arch}`;
const folder = join(cache, "node24");
const node24 = join(folder, "node_modules", name, "bin", process.platform === "win32" ? "node.exe" : "node");

if (!existsSync(join(root, "dist/cli.mjs"))) {
  console.error("test:node24: dist/cli.mjs is missing (run `npm run build` first)");
  process.exit(1);
}
if (!existsSync(node24)) {
  console.log(`test:node24: installing ${name}@24 into ${folder}`);
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(folder, "package.json"))) writeFileSync(join(folder, "package.json"), '{"name":"node24","private":true}\n');
  // Under `npm run`, the outer npm's settings arrive as npm_* variables; the nested npm must not read them.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));
  execFileSync("npm", ["install", "-s", `${name}@24`, "--no-audit", "--no-fund", "--no-package-lock"], { cwd: folder, stdio: "inherit", env });
}
const version = execFileSync(node24, ["--version"], { encoding: "utf8" }).trim();
if (!version.startsWith("v24.")) {
  console.error(`test:node24: ${node24} is ${version}, not Node 24`);
  process.exit(1);
}
console.log(`test:node24: ${version} bin/turnlens.mjs test test/core test/runner`);
const run = spawnSync(node24, ["bin/turnlens.mjs", "test", "test/core", "test/runner"], { cwd: root, stdio: "inherit" });
process.exit(run.status ?? 1);
