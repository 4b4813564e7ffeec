// Builds dist/ with esbuild: the CLI, its worker, and the public modules. `splitting` keeps the
// engine in one shared chunk, so the runner and the modules it serves to tests are one instance.
import { build } from "esbuild";
import { rmSync } from "node:fs";

const entryPoints = {
  cli: "core/runner/cli.ts",
  worker: "core/runner/worker.ts",
  workflow: "core/workflow/index.ts",
  testing: "core/testing/index.ts",
  trace: "core/testing/trace.ts",
  // server: "server/main.ts",  (the language server, when it lands)
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
