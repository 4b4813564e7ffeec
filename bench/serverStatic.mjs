// `node bench/serverStatic.mjs`: bundles bench/serverStatic.ts (the static pass's benchmark) with
// esbuild, `typescript` left as a package import, and runs it in a fresh node process. Flags are
// passed on: --lines=N, --runs=N.

import { join } from "node:path";
import { bundleAndRun, root } from "./bundleAndRun.mjs";

// The bundle lives in a temporary folder, where node can't find `typescript`: it stays external,
// imported by its absolute path in the repo.
process.exitCode = await bundleAndRun("bench/serverStatic.ts", {
  options: {
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
  },
  args: process.argv.slice(2),
});
