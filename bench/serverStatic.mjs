// `node bench/serverStatic.mjs`: bundles bench/serverStatic.ts (the static pass's benchmark) with
// esbuild, `typescript` left as a package import, and runs it in a fresh node process. Flags are
// passed on: --lines=N, --runs=N.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const scratch = mkdtempSync(join(tmpdir(), "turnlens-bench-static-"));
// Inside the repo's folder tree would let node find `typescript`; a temp folder needs the bundle
// to import it by absolute path, so it stays external and resolves from the repo.
const outfile = join(scratch, "serverStatic.mjs");
try {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["bench/serverStatic.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "warning",
    plugins: [
      {
        name: "typescript-from-the-repo",
        setup(build) {
          build.onResolve({ filter: /^typescript$/ }, () => ({
            path: join(root, "node_modules", "typescript", "lib", "typescript.js"),
            external: true,
          }));
        },
      },
    ],
    // Some of core's dependencies are CommonJS.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  });
  const child = spawnSync(process.execPath, ["--no-warnings", outfile, ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
  if (child.error) throw child.error;
  process.exitCode = child.status ?? 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
