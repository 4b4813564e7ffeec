// The Vitest plugin (`turnlens/vitest`, docs/vitest.md): serves test files the module names
// `turnlens test` serves (core/runner/served.ts) from this package's dist/, with `bun:test` mapped
// onto Vitest's own test API (bunTest.ts), so `vitest run` passes and fails the same tests.
import { join, resolve as resolvePath, sep } from "node:path";
import type { Plugin } from "vite";
import { turnlensRoot } from "../runner/paths.ts";

export interface TurnlensVitestOptions {
  /**
   * Serve `bun:test` (default true). Turn it off only when something else in the project
   * already serves that name to Vitest.
   */
  bunTest?: boolean;
}

/** Each served name and the dist/ file that is its one instance in a test file. */
const SERVED_FILES: Readonly<Record<string, string>> = {
  "agentswf/workflow": "workflow.mjs",
  "turnlens/workflow": "workflow.mjs",
  "agentswf/testing": "testing.mjs",
  "turnlens/testing": "testing.mjs",
  "agentswf/client": "client.mjs",
  "turnlens/client": "client.mjs",
  "turnlens/trace": "trace.mjs",
  "bun:test": "vitest-bun-test.mjs",
};

/** Turnlens's own source files: a test that imports one by path gets the served instance. */
const SERVED_SOURCES: Readonly<Record<string, string>> = {
  "core/workflow/index.ts": "agentswf/workflow",
  "core/testing/index.ts": "agentswf/testing",
  "core/client/index.ts": "agentswf/client",
  "core/testing/trace.ts": "turnlens/trace",
  "core/runner/testApi.ts": "bun:test",
};

function isTypebox(id: string): boolean {
  return id === "typebox" || id.startsWith("typebox/");
}

/** The Vite plugin to put in a vitest.config's `plugins`. */
export function turnlens(options: TurnlensVitestOptions = {}): Plugin {
  const root = turnlensRoot();
  const dist = join(root, "dist");
  const servedFile = (name: string) => join(dist, SERVED_FILES[name]!);
  const sources = new Map(Object.entries(SERVED_SOURCES).map(([file, name]) => [resolvePath(root, file), name]));
  const served = (name: string) => name in SERVED_FILES && (name !== "bun:test" || options.bunTest !== false);

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
              external: [`${dist}${sep}`],
            },
          },
        },
      } as Record<string, unknown>;
    },
    async resolveId(id, importer, resolveOptions) {
      if (served(id)) return servedFile(id);
      // Test files get Turnlens's own TypeBox, as under `turnlens test`.
      if (isTypebox(id)) {
        const found = await this.resolve(id, join(root, "package.json"), { ...resolveOptions, skipSelf: true });
        if (found) return found;
      }
      if (!importer || !(id.startsWith(".") || id.startsWith("/"))) return null;
      const found = await this.resolve(id, importer, { ...resolveOptions, skipSelf: true });
      const name = found && sources.get(found.id.split("?")[0]!);
      return name && served(name) ? servedFile(name) : found;
    },
  };
}

export default turnlens;
