// Builds dist/ with esbuild: the CLI, its worker, and the public modules. `splitting` keeps the
// engine in one shared chunk, so the runner and the modules it serves to tests are one instance.
// The language server is a second, self-contained CommonJS bundle (dist/server.js) that forks the
// same dist/worker.mjs to run tests.
import { build } from "esbuild";
import { rmSync } from "node:fs";

const entryPoints = {
  cli: "core/runner/cli.ts",
  worker: "core/runner/worker.ts",
  workflow: "core/workflow/index.ts",
  testing: "core/testing/index.ts",
  trace: "core/testing/trace.ts",
};

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints,
  outdir: "dist",
  bundle: true,
  splitting: true,
  platform: "node",
  target: "node20",
  format: "esm",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: "linked",
  // esbuild runs its own native binary, so it stays a package import.
  external: ["esbuild"],
  // Some dependencies (expect, jest-mock) are CommonJS: they require node builtins and read __dirname.
  banner: {
    js: [
      'import { createRequire as __createRequire } from "node:module";',
      'import { fileURLToPath as __fileURLToPath } from "node:url";',
      "const require = __createRequire(import.meta.url);",
      "const __filename = __fileURLToPath(import.meta.url);",
      'const __dirname = __fileURLToPath(new URL(".", import.meta.url));',
    ].join(" "),
  },
  logLevel: "warning",
});

// The language server: everything bundled (vscode-languageserver, the TypeScript compiler for the
// static pass), so an editor starts it with `node dist/server.js --stdio` and nothing installed.
await build({
  entryPoints: { server: "server/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "linked",
  logLevel: "warning",
});
