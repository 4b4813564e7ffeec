// Evaluates a script config (turnlens.config.{ts,mts,js,mjs}) and checks it: bundled by esbuild to
// CommonJS in memory and run. Only the config's own process (configProcess.ts) calls this: a
// config is code, and a loop or a throw in it must never reach the CLI's or the server's thread.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { checkConfig, ConfigError, shown, type ProjectConfig } from "./configFile.ts";

const IMPORT_META = ["import", "meta"].join(".");

/** The checked settings of a script config; any failure, of any kind, is a ConfigError naming the file. */
export function evaluateScriptConfig(path: string): ProjectConfig {
  try {
    return checkConfig(readConfigModule(path), path, shown(path));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // A Proxy's trap, a getter, a key check: whatever reading the settings threw.
    throw new ConfigError(`${shown(path)} failed to load: ${messageOf(error)}`);
  }
}

/** What a thrown value says, even when it is a revoked Proxy or its toString throws. */
export function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return "a thrown value that cannot be shown";
  }
}

/** The default export of a script config: bundled to CommonJS and evaluated. */
function readConfigModule(path: string): unknown {
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  let code: string;
  try {
    const result = esbuild.buildSync({
      entryPoints: [path],
      bundle: true,
      write: false,
      platform: "node",
      format: "cjs",
      target: "node20",
      // Packages resolve from the config's folder when it runs; `turnlens/config` is served below.
      packages: "external",
      logLevel: "silent",
      // The config's own file, not the bundle's (spelt in parts: a test file's bundler rewrites the whole words).
      define: {
        [`${IMPORT_META}.url`]: JSON.stringify(pathToFileURL(path).href),
        [`${IMPORT_META}.filename`]: JSON.stringify(path),
        [`${IMPORT_META}.dirname`]: JSON.stringify(dirname(path)),
      },
    });
    code = result.outputFiles[0]?.text ?? "";
  } catch (error) {
    const errors = (error as { errors?: Array<{ text: string; location?: { line: number; column: number } | null }> }).errors;
    const first = errors?.[0];
    const at = first?.location ? `:${first.location.line}:${first.location.column + 1}` : "";
    throw new ConfigError(`${shown(path)}${at}: ${first?.text ?? (error as Error).message}`);
  }
  const requireFromConfig = createRequire(path);
  const module = { exports: {} as Record<string, unknown> };
  // `turnlens/config` is Turnlens's own, whether or not the project installed it.
  const requireForConfig = (name: string) => (name === "turnlens/config" ? { defineConfig: (config: unknown) => config } : requireFromConfig(name));
  try {
    new Function("module", "exports", "require", "__filename", "__dirname", code)(module, module.exports, requireForConfig, path, dirname(path));
  } catch (error) {
    throw new ConfigError(`${shown(path)} failed to load: ${messageOf(error)}`);
  }
  const exported = module.exports;
  const value = exported.__esModule || "default" in exported ? exported.default : exported;
  if (value instanceof Promise || (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"))
    throw new ConfigError(`${shown(path)} must export its settings, not a promise of them`);
  return value;
}
