// The Vitest plugin (`turnlens/vitest`, docs/vitest.md): serves test files the module names
// `turnlens test` serves (core/execution/served.ts) from this package's dist/, with `bun:test` mapped
// onto Vitest's own test API (bunTest.ts), so `vitest run` passes and fails the same tests.
import { join, resolve as resolvePath, sep } from "node:path";
import type { Plugin } from "vite";
import { turnlensRoot } from "../execution/paths.ts";
import { bunTestNames } from "./bunTest.ts";

export interface TurnlensVitestOptions {
  /**
   * Serve `bun:test` (default true). Turn it off only when something else in the project
   * already serves that name to Vitest.
   */
  bunTest?: boolean;
}

/** Each served name but `bun:test` and the dist/ file that is its one instance in a test file. */
const SERVED_FILES: Readonly<Record<string, string>> = {
  "agentswf/workflow": "workflow.mjs",
  "turnlens/workflow": "workflow.mjs",
  "agentswf/testing": "testing.mjs",
  "turnlens/testing": "testing.mjs",
  "agentswf/client": "client.mjs",
  "turnlens/client": "client.mjs",
  "turnlens/trace": "trace.mjs",
  // The engine's own TypeBox (build.mjs), so a test needs none of its own, as under `turnlens test`.
  typebox: "served/typebox.mjs",
  ...Object.fromEntries(["value", "compile", "type", "schema", "guard", "format", "system", "error"].map((sub) => [`typebox/${sub}`, `served/typebox-${sub}.mjs`])),
};

/** The names the plugin serves: those of `turnlens test` but `vitest`, which is Vitest itself. */
export const vitestServedNames: readonly string[] = [...Object.keys(SERVED_FILES), "bun:test"];

/**
 * `bun:test` is a virtual module: it hands the project's own `vitest` (resolved as the test file
 * resolves it) to dist/vitest-bun-test.mjs, which never imports a Vitest itself.
 */
const BUN_TEST_ID = "\0turnlens:bun:test";

function bunTestSource(dist: string): string {
  const lines = [
    `import * as vitest from "vitest";`,
    `import { bunTestOn } from ${JSON.stringify(join(dist, "vitest-bun-test.mjs"))};`,
    `const api = bunTestOn(vitest);`,
    ...bunTestNames.map((name) => `export const ${name} = api.${name};`),
    `export default api;`,
  ];
  return lines.join("\n");
}

/** Turnlens's own source files: a test that imports one by path gets the served instance. */
const SERVED_SOURCES: Readonly<Record<string, string>> = {
  "core/workflow/index.ts": "agentswf/workflow",
  "core/testing/index.ts": "agentswf/testing",
  "core/client/index.ts": "agentswf/client",
  "core/testing/trace.ts": "turnlens/trace",
  "core/testApi/testApi.ts": "bun:test",
};

/** The Vite plugin to put in a vitest.config's `plugins`. */
export function turnlens(options: TurnlensVitestOptions = {}): Plugin {
  const root = turnlensRoot();
  const dist = join(root, "dist");
  const servedFile = (name: string) => (name === "bun:test" ? BUN_TEST_ID : join(dist, SERVED_FILES[name]!));
  const sources = new Map(Object.entries(SERVED_SOURCES).map(([file, name]) => [resolvePath(root, file), name]));
  const served = (name: string) => (name === "bun:test" ? options.bunTest !== false : Object.hasOwn(SERVED_FILES, name));

  return {
    name: "turnlens",
    // Before Vite's own resolver, which would look for `agentswf/*` and `bun:test` in node_modules.
    enforce: "pre",
    config() {
      return {
        test: {
          server: {
            deps: {
              // Node loads the served files itself, as it does the packages a test imports: they
              // are plain ES modules already, and Vitest's worker per test file (its default
              // `isolate: true`) gives each file its own engine.
              // (A string here would name a package; the pattern names this folder.)
              external: [new RegExp(`^${escapeRegExp(dist + sep)}`)],
            },
          },
        },
      } as Record<string, unknown>;
    },
    async resolveId(id, importer, resolveOptions) {
      if (served(id)) return servedFile(id);
      if (!importer || !(id.startsWith(".") || id.startsWith("/"))) return null;
      const found = await this.resolve(id, importer, { ...resolveOptions, skipSelf: true });
      const name = found && sources.get(found.id.split("?")[0]!);
      return name && served(name) ? servedFile(name) : found;
    },
    load(id) {
      return id === BUN_TEST_ID ? bunTestSource(dist) : null;
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export default turnlens;
